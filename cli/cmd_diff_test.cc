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
  // Seeds 9 to 12 mix the modes (seed % 3: 1 plain, 2 perturbed, 0 hostile).
  EXPECT_THAT(r.output, HasSubstr("PASS generated/cache/seed-9 (hostile)\n"));
  EXPECT_THAT(r.output, HasSubstr("PASS generated/cache/seed-10 (plain)\n"));
  EXPECT_THAT(r.output,
              HasSubstr("PASS generated/cache/seed-11 (perturbed)\n"));
  EXPECT_THAT(r.output, HasSubstr("\n4 passed, 0 failed (generated: 1 plain, 1 "
                                  "perturbed (all:0.2), 2 hostile)\n"));
  CliResult hostile = RunSchedtrace(
      "diff --a=model --b=impl --layer=queue --count=3 --hostile");
  EXPECT_EQ(hostile.status, 0) << hostile.output;
  EXPECT_THAT(hostile.output, HasSubstr("3 passed, 0 failed"));
}

// A flag that chooses a mode makes every trace that mode, and the closing
// line counts no mix.
TEST_F(DiffCliTest, AModeFlagTurnsTheMixOff) {
  CliResult plain = RunSchedtrace(
      "diff --a=model --b=impl --layer=queue --count=3 --seed=1 --plain");
  EXPECT_EQ(plain.status, 0) << plain.output;
  EXPECT_THAT(plain.output, HasSubstr("PASS generated/queue/seed-2\n"));
  EXPECT_THAT(plain.output, HasSubstr("\n3 passed, 0 failed\n"));
  CliResult perturbed = RunSchedtrace(
      "diff --a=model --b=impl --layer=queue --count=2 --perturb=all:0.1");
  EXPECT_THAT(perturbed.output, HasSubstr("\n2 passed, 0 failed\n"))
      << perturbed.output;
  CliResult both = RunSchedtrace(
      "diff --a=model --b=impl --layer=queue --count=2 --plain --hostile");
  EXPECT_EQ(both.status, 2) << both.output;
  EXPECT_THAT(both.output, HasSubstr("--plain takes neither"));
  const std::string trace = Path("q.jsonl");
  ASSERT_EQ(RunSchedtrace("gen --layer=queue --seed=3 --out=" + trace).status,
            0);
  CliResult files = RunSchedtrace("diff --a=model --b=impl --plain " + trace);
  EXPECT_EQ(files.status, 2) << files.output;
  EXPECT_THAT(files.output,
              HasSubstr("--plain is for generated traces: give no PATH"));
}

// The mix's perturbed traces differ from the plain trace of the same seed
// (gen --perturb=all:0.2 writes that very trace), and its hostile ones
// hold hostile steps: the mix is real, not a label.
TEST_F(DiffCliTest, TheMixGeneratesWhatItSays) {
  const std::string plain = Path("plain.jsonl"), mixed = Path("p.jsonl");
  ASSERT_EQ(RunSchedtrace("gen --layer=cache --seed=2 --out=" + plain).status,
            0);
  ASSERT_EQ(RunSchedtrace("gen --layer=cache --seed=2 --perturb=all:0.2 "
                          "--out=" +
                          mixed)
                .status,
            0);
  EXPECT_NE(ReadFileBytes(plain), ReadFileBytes(mixed));
  // A child that answers nothing right disagrees at once, and the trace the
  // run keeps is gen's perturbed one.
  const std::string child =
      Write("child.sh",
            "read -r header\necho '{\"ok\":true}'\n"
            "while read -r l; do echo '{\"out\":{},\"state\":{}}'; done\n");
  CliResult r = RunSchedtrace("diff --a=model \"--b=exec:/bin/sh " + child +
                                  "\" --layer=cache --count=1 --seed=2 "
                                  "--out-dir=kept",
                              dir_.string());
  EXPECT_EQ(r.status, 1) << r.output;
  const std::string kept = ReadFileBytes(
      (dir_ / "kept" / "generated_cache_seed-2__perturbed_.jsonl").string());
  ASSERT_FALSE(kept.empty()) << r.output;
  // The same steps as gen's perturbed trace (the name aside).
  const auto steps = [](const std::string& text) {
    return text.substr(text.find('\n'));
  };
  EXPECT_EQ(steps(kept), steps(ReadFileBytes(mixed)));
}

// A disagreement on a generated trace is written only where asked: by
// default in .schedtrace/diff-failures/, which ignores itself in git, and
// stderr says where; never a diff-failures/ in the working directory.
TEST_F(DiffCliTest, DisagreementsAreKeptInTheIgnoredWorkDir) {
  const std::string child =
      Write("child.sh",
            "read -r header\necho '{\"ok\":true}'\n"
            "while read -r l; do echo '{\"out\":{},\"state\":{}}'; done\n");
  CliResult r = RunSchedtrace("diff --a=model \"--b=exec:/bin/sh " + child +
                                  "\" --layer=cache --count=1 --plain",
                              dir_.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("trace written to .schedtrace/"
                        "diff-failures/generated_cache_seed-1.jsonl"));
  EXPECT_THAT(r.output,
              HasSubstr("schedtrace: disagreeing traces are kept in "
                        ".schedtrace/diff-failures/ (git ignores .schedtrace/; "
                        "--out-dir=DIR keeps them elsewhere)"));
  EXPECT_TRUE(std::filesystem::exists(dir_ / ".schedtrace" / "diff-failures" /
                                      "generated_cache_seed-1.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "diff-failures"));
  ASSERT_EQ(RunCommand("cd '" + dir_.string() +
                       "' && git init -q . && git status --porcelain "
                       "--untracked-files=all")
                .output,
            "?? child.sh\n");
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
