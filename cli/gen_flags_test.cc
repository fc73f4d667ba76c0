#include "cli/gen_flags.h"

#include <string>

#include "cli/cli_test_util.h"
#include "core/codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

CommandLine Line(std::map<std::string, std::vector<std::string>> flags) {
  CommandLine cl;
  cl.command = "gen";
  cl.flags = std::move(flags);
  return cl;
}

TEST(GenFlagSpecsTest, OnePerGeneratorFlagWithItsDefault) {
  const std::vector<FlagSpec> specs = GenFlagSpecs();
  ASSERT_EQ(specs.size(), GenFlags().size());
  for (size_t k = 0; k < specs.size(); ++k) {
    const GenFlag& f = GenFlags()[k];
    EXPECT_EQ(specs[k].name, f.name);
    EXPECT_EQ(specs[k].boolean, f.boolean);
    EXPECT_FALSE(specs[k].required);
    if (!f.default_value.empty()) {
      EXPECT_THAT(specs[k].help,
                  HasSubstr("(default " + std::string(f.default_value) + ")"));
    }
  }
  EXPECT_EQ(GenFlagSpecs("first seed")[0].help, "first seed (default 1)");
}

TEST(GenFlagSpecsTest, JoinFlagsKeepsOrder) {
  std::vector<FlagSpec> all =
      JoinFlags({{{"a", "x"}}, {{"b", "y"}, {"c", "z"}}});
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].name, "a");
  EXPECT_EQ(all[2].name, "c");
}

TEST(GenOptionsFromFlagsTest, ReadsTheGivenFlagsLastValueWins) {
  absl::StatusOr<GenOptions> o =
      GenOptionsFromFlags(Line({{"pods", {"9", "40"}},
                                {"queue-pool", {"40"}},
                                {"hostile", {""}},
                                {"step-ms", {"10:20"}},
                                {"layer", {"queue"}}}));  // not the generator's
  ASSERT_TRUE(o.ok()) << o.status();
  GenOptions want{.pods = 40, .queue_pool = 40, .hostile = true};
  want.clock.min_ms = 10;
  want.clock.max_ms = 20;
  EXPECT_EQ(*o, want);
  EXPECT_EQ(*GenOptionsFromFlags(Line({})), GenOptions{});
}

TEST(GenOptionsFromFlagsTest, ErrorsNameTheFlagAndValue) {
  absl::StatusOr<GenOptions> o =
      GenOptionsFromFlags(Line({{"queue-pool", {"lots"}}}));
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().message(),
            "--queue-pool takes a whole number in [1, 100000], not \"lots\"");
}

TEST(GenOptionsFromFlagsTest, FirstGenFlag) {
  EXPECT_EQ(FirstGenFlag(Line({{"layer", {"queue"}}})), "");
  EXPECT_EQ(FirstGenFlag(Line({{"hostile", {""}}, {"pods", {"3"}}})), "pods");
}

class GenFlagsCliTest : public ScratchDirTest {};

// gen and diff take the same generator flags, and say so in --help.
TEST_F(GenFlagsCliTest, GenAndDiffTakeEveryGeneratorFlag) {
  const std::string gen = RunSchedtraceSplit("gen --help", dir_).out;
  const std::string diff = RunSchedtraceSplit("diff --help", dir_).out;
  for (const GenFlag& f : GenFlags()) {
    const std::string label =
        "--" + std::string(f.name) + (f.boolean ? " " : "=VALUE");
    EXPECT_THAT(gen, HasSubstr(label));
    EXPECT_THAT(diff, HasSubstr(label));
  }
  for (const char* cmd : {"gen --layer=queue",
                          "diff --a=model --b=impl "
                          "--layer=queue --count=1"}) {
    SplitResult bad =
        RunSchedtraceSplit(std::string(cmd) + " --step-ms=9:8", dir_);
    EXPECT_EQ(bad.status, 2) << cmd;
    EXPECT_THAT(bad.err, HasSubstr("--step-ms takes MIN:MAX")) << cmd;
    EXPECT_THAT(bad.err, HasSubstr("not \"9:8\"")) << cmd;
  }
}

TEST_F(GenFlagsCliTest, GenUsesTheFlags) {
  CliResult r = RunSchedtrace(
      "gen --layer=queue --steps=300 --pods=40 --queue-pool=40 --step-ms=7 "
      "--flush-jump=0:1 --backoff-jump=0:1 --boundary-landing=0 "
      "--high-clock=0 --clock-leap=0 --out=" +
      Path("q.jsonl"));
  ASSERT_EQ(r.status, 0) << r.output;
  absl::StatusOr<Trace> t = ReadTraceFile(Path("q.jsonl"));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->header.description, HasSubstr("40 pods"));
  int64_t last = 0;
  for (const Step& s : t->steps) {
    EXPECT_EQ(s.t - last, 7);
    last = s.t;
  }
}

TEST_F(GenFlagsCliTest, DiffTakesThePoolSize) {
  CliResult r = RunSchedtrace(
      "diff -q --a=model --b=impl --layer=queue --count=3 --steps=100 "
      "--pods=40 --queue-pool=40 --out-dir=" +
      Path("out"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("3 passed, 0 failed"));
  // On trace files, a generator flag is an error.
  ASSERT_EQ(RunSchedtrace("gen --layer=queue --out=" + Path("t.jsonl")).status,
            0);
  SplitResult paths = RunSchedtraceSplit(
      "diff --a=model --b=impl --queue-pool=40 " + Path("t.jsonl"), dir_);
  EXPECT_EQ(paths.status, 2);
  EXPECT_THAT(paths.err,
              HasSubstr("--queue-pool is for generated traces: give no PATH"));
  EXPECT_THAT(paths.out, Not(HasSubstr("passed")));
}

}  // namespace
}  // namespace schedtrace::cli
