// Runs the real `schedtrace` binary: gen (all layers, perturbations, hostile,
// known-violation counts), diff (generated traces and files) and record.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/cli_test_util.h"
#include "core/upstream_versions.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "properties/judged_upstreams.h"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class DiffCliTest : public ScratchDirTest {};

int CountLines(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    n += line.rfind(prefix, 0) == 0;
  }
  return n;
}

// Generating traces of a layer the recorder (the model) does not judge yet
// on a version is a skip per seed, not an error: the run says nothing ran
// (exit 5), and ctest's diff tests of such a version and layer skip.
TEST_F(DiffCliTest, GeneratingALayerNotJudgedYetIsASkip) {
  for (const std::string& version : KnownUpstreams()) {
    for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
      if (properties::ModelJudges(version, layer)) continue;
      CliResult r = RunSchedtrace(
          "diff --a=model --b=impl --count=3 --seed=1 --upstream=" + version +
          " --layer=" + std::string(LayerName(layer)));
      EXPECT_EQ(r.status, 5) << r.output;
      EXPECT_THAT(r.output, HasSubstr("SKIP seed 1: model: "));
      EXPECT_THAT(r.output, HasSubstr("\n0 passed, 0 failed, 3 skipped"));
      return;
    }
  }
  GTEST_SKIP() << "the model judges every layer of every version";
}

TEST_F(DiffCliTest, GenWritesTracesOfEveryLayerThatReplay) {
  for (const char* layer : {"queue", "cache", "scheduler"}) {
    const std::string out = Path(std::string(layer) + ".jsonl");
    CliResult gen = RunSchedtrace(std::string("gen --layer=") + layer +
                                  " --seed=4 --steps=80 --out=" + out);
    ASSERT_EQ(gen.status, 0) << gen.output;
    CliResult replay = RunSchedtrace("replay --sut=model " + out);
    EXPECT_EQ(replay.status, 0) << replay.output;
    EXPECT_THAT(replay.output, HasSubstr("1 passed, 0 failed"));
  }
}

TEST_F(DiffCliTest, GenRejectsBadPerturbations) {
  CliResult bad_name = RunSchedtrace("gen --layer=queue --perturb=flood:0.1");
  EXPECT_EQ(bad_name.status, 2);
  EXPECT_THAT(bad_name.output, HasSubstr("unknown perturbation \"flood\""));
  CliResult bad_p = RunSchedtrace("gen --layer=queue --perturb=race:1.5");
  EXPECT_EQ(bad_p.status, 2);
  EXPECT_THAT(bad_p.output, HasSubstr("race:1.5"));
  EXPECT_EQ(RunSchedtrace("gen --layer=nodes").status, 2);
}

TEST_F(DiffCliTest, GenCountsKnownUpstreamViolations) {
  // Updates racing a scheduling cycle hit kubernetes#118226.
  CliResult r = RunSchedtrace(
      "gen --layer=queue --seed=2 --steps=150 --perturb=race:0.5 "
      "--out=" +
      Path("race.jsonl"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("known upstream violation in-flight-update-requeues"));
}

TEST_F(DiffCliTest, DiffOnGeneratedTraces) {
  CliResult r =
      RunSchedtrace("diff --a=model --b=impl --layer=cache --count=4 --seed=9");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(CountLines(r.output, "PASS generated/cache/seed-"), 4) << r.output;
  EXPECT_THAT(r.output, HasSubstr("\n4 passed, 0 failed\n"));
  CliResult hostile = RunSchedtrace(
      "diff --a=model --b=impl --layer=queue --count=3 --hostile");
  EXPECT_EQ(hostile.status, 0) << hostile.output;
  EXPECT_THAT(hostile.output, HasSubstr("3 passed, 0 failed"));
}

TEST_F(DiffCliTest, DiffOnFiles) {
  const std::string trace = Path("q.jsonl");
  ASSERT_EQ(RunSchedtrace("gen --layer=queue --seed=3 --out=" + trace).status,
            0);
  CliResult r = RunSchedtrace("diff --a=model --b=model " + trace);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("PASS " + trace));
  EXPECT_THAT(r.output, HasSubstr("1 passed, 0 failed"));
}

TEST_F(DiffCliTest, DiffBadInputAndBadCommandLines) {
  const std::string broken = WriteTrace(
      "broken.jsonl", {R"({"schedtrace":1,"layer":"queue"})", R"({"t":1})"});
  CliResult r = RunSchedtrace("diff --a=model --b=impl " + broken);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("ERROR " + broken));
  EXPECT_THAT(r.output, HasSubstr("0 passed, 1 failed"));
  EXPECT_EQ(RunSchedtrace("diff --a=model --b=impl").status, 2);
  EXPECT_EQ(RunSchedtrace("diff --a=model --layer=queue --count=1").status, 2);
  EXPECT_EQ(
      RunSchedtrace("diff --a=model --b=nope --layer=queue --count=1").status,
      2);
  EXPECT_EQ(
      RunSchedtrace("diff --a=model --b=impl --layer=queue --count=1 " + broken)
          .status,
      2);
}

TEST_F(DiffCliTest, RecordFillsExpectations) {
  const std::string in = Path("in.jsonl"), out = Path("out.jsonl");
  ASSERT_EQ(RunSchedtrace("gen --layer=cache --seed=5 --out=" + in).status, 0);
  // Strip every expectation: record must put them back.
  std::ifstream src(in);
  std::ostringstream bare;
  for (std::string line; std::getline(src, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    j.erase("expect");
    bare << j.dump() << "\n";
  }
  Write("in.jsonl", bare.str());
  ASSERT_THAT(bare.str(), Not(HasSubstr("\"expect\"")));
  CliResult rec = RunSchedtrace("record --sut=impl " + in + " " + out);
  ASSERT_EQ(rec.status, 0) << rec.output;
  CliResult replay = RunSchedtrace("replay --sut=model " + out);
  EXPECT_EQ(replay.status, 0) << replay.output;
  std::ifstream recorded(out);
  std::string all((std::istreambuf_iterator<char>(recorded)), {});
  EXPECT_THAT(all, HasSubstr("\"expect\""));
  EXPECT_EQ(RunSchedtrace("record --sut=model " + in).status, 2);
  EXPECT_EQ(
      RunSchedtrace("record --sut=model " + Path("missing.jsonl") + " " + out)
          .status,
      2);
}

}  // namespace
}  // namespace schedtrace::cli
