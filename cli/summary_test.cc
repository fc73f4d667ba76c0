#include "cli/summary.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;

TraceRun Skipped(const std::string& path, const std::string& message) {
  TraceRun t;
  t.result.path = path;
  t.result.verdict = Verdict::kSkipped;
  t.result.message = message;
  return t;
}

TraceRun Diverged(const std::string& path, const std::string& op,
                  const std::string& where, int line) {
  TraceRun t;
  t.result.path = path;
  t.display = path.substr(path.find('/') + 1);
  t.result.verdict = Verdict::kFailed;
  t.result.divergence = Divergence{.step = line - 1,
                                   .line = line,
                                   .op = op,
                                   .path = where,
                                   .expected = "1",
                                   .actual = "2"};
  return t;
}

TEST(SummaryTest, ShortensAtAWordNeverInsideOne) {
  EXPECT_EQ(ShortenAtWord("short enough", 20), "short enough");
  EXPECT_EQ(ShortenAtWord("the quick brown fox jumps over", 16),
            "the quick...");
  EXPECT_EQ(ShortenAtWord("a: list, of (words) here", 14), "a: list, of...");
  // No dangling separator before the dots.
  EXPECT_EQ(ShortenAtWord("a: list, of (words) here", 12), "a: list...");
  // One word longer than the cut is kept whole rather than split.
  EXPECT_EQ(ShortenAtWord("golden/upstream-v1.37.2/cache/x.jsonl", 10),
            "golden/upstream-v1.37.2/cache/x.jsonl");
  EXPECT_EQ(ShortenAtWord("golden/upstream-v1.37.2/cache/x.jsonl fails", 10),
            "golden/upstream-v1.37.2/cache/x.jsonl...");
}

TEST(SummaryTest, LongSkipReasonsAreCutBetweenWords) {
  SystemRun run;
  run.sut = "exec:x";
  std::string message = "exec:x: refused the header:";
  for (int i = 0; i < 30; ++i) message += " because";
  run.traces = {Skipped("g/a.jsonl", message)};
  const std::string summary = SkipSummary(run);
  EXPECT_THAT(summary, HasSubstr(" because...\n")) << summary;
  EXPECT_LE(summary.size(),
            std::string("SKIP 1 trace: exec:x: ").size() + 120 + 1);
}

TraceRun OfVersion(const std::string& version, Verdict verdict) {
  TraceRun t;
  t.result.path = "g/" + version + ".jsonl";
  t.result.verdict = verdict;
  t.upstream = version;
  return t;
}

// A child that declares no version and fails traces of several: told how
// its failures split and that declaring one limits it to that version.
TEST(SummaryTest, AChildDeclaringNoVersionIsToldHowItsFailuresSplit) {
  SystemRun run;
  run.sut = "exec:./adapter";
  run.traces = {OfVersion("v1.25.12", Verdict::kFailed),
                OfVersion("v1.25.12", Verdict::kPassed),
                OfVersion("v1.26.7", Verdict::kPassed),
                OfVersion("v1.26.7", Verdict::kPassed),
                OfVersion("v1.30.12", Verdict::kError),
                OfVersion("v1.30.12", Verdict::kSkipped)};
  EXPECT_EQ(VersionSplitHint(run),
            "exec:./adapter failed traces of these upstream versions: "
            "v1.25.12 1 of 2, v1.26.7 0 of 2, v1.30.12 1 of 1.\n  It declares "
            "no version, so it is judged on the traces of every one. If it "
            "implements one, its header reply says which ({\"ok\": true, "
            "\"upstream\": \"v1.26.7\"}) and it is judged on that version's "
            "traces only (docs/ADAPTERS.md, \"Versions\").\n");
  // Not for a child that declared one, nor for model and impl, nor when
  // nothing failed or one version ran.
  SystemRun declared = run;
  declared.declared_upstreams = {"v1.26.7"};
  EXPECT_EQ(VersionSplitHint(declared), "");
  SystemRun model = run;
  model.sut = "model";
  EXPECT_EQ(VersionSplitHint(model), "");
  SystemRun passing = run;
  passing.traces = {OfVersion("v1.25.12", Verdict::kPassed),
                    OfVersion("v1.26.7", Verdict::kPassed)};
  EXPECT_EQ(VersionSplitHint(passing), "");
}

TEST(SummaryTest, SkipsGroupByReasonWithoutTheirStepPrefix) {
  SystemRun run;
  run.sut = "exec:x";
  run.traces = {
      Skipped("g/a.jsonl", "exec:x: does not support the cache layer"),
      Skipped("g/b.jsonl",
              "g/b.jsonl:7: step 6 (q_nominate): exec:x: does not support op "
              "q_nominate"),
      Skipped("g/c.jsonl", "exec:x: does not support the cache layer"),
      Skipped("g/d.jsonl",
              "g/d.jsonl:12: step 11 (q_nominate): exec:x: does not support "
              "op q_nominate"),
      Skipped("g/e.jsonl", "exec:x: does not support the cache layer"),
  };
  EXPECT_EQ(SkipSummary(run),
            "SKIP 3 traces: exec:x: does not support the cache layer\n"
            "SKIP 2 traces: exec:x: does not support op q_nominate\n");
  run.traces.resize(1);
  EXPECT_EQ(SkipSummary(run),
            "SKIP 1 trace: exec:x: does not support the cache layer\n");
  run.traces.clear();
  EXPECT_EQ(SkipSummary(run), "");
}

TEST(SummaryTest, SkipsOfAnotherVersionKeepTheVersions) {
  // Numbers are N in a reason, but an upstream version is the reason.
  SystemRun run;
  run.sut = "exec:x";
  const std::string other =
      "exec:x: the child implements v1.30.12, the trace is v1.26.7";
  run.traces = {
      Skipped("g/a.jsonl", other),
      Skipped("g/b.jsonl",
              "exec:x: the child implements v1.30.12, the trace is v1.25.12"),
      Skipped("g/c.jsonl", other),
      Skipped("g/d.jsonl", "exec:x: timed out after 10 ms at step 2, v3"),
  };
  EXPECT_EQ(SkipSummary(run),
            "SKIP 2 traces: " + other +
                "\n"
                "SKIP 1 trace: exec:x: the child implements v1.30.12, the "
                "trace is v1.25.12\n"
                "SKIP 1 trace: exec:x: timed out after N ms at step N, vN\n");
}

TEST(SummaryTest, TheSystemsNameKeepsItsDigits) {
  // The name a skip reason opens with is the system's, not the trace's: a
  // child in /tmp/ci-clone2 is not written /tmp/ci-cloneN.
  SystemRun run;
  run.sut = "exec:/tmp/ci-clone2/schedtrace serve --upstream=v1.30.12";
  run.traces = {
      Skipped(
          "g/a.jsonl",
          run.sut + ": the child implements v1.30.12, the trace is v1.26.7"),
      Skipped("g/b.jsonl", run.sut + ": timed out after 10 ms at step 2"),
  };
  EXPECT_EQ(SkipSummary(run),
            "SKIP 1 trace: " + run.sut +
                ": the child implements v1.30.12, the trace is v1.26.7\n"
                "SKIP 1 trace: " +
                run.sut + ": timed out after N ms at step N\n");
}

TEST(SummaryTest, FailuresGroupBySystemOpAndKeyWithACountAndAnExample) {
  SystemRun impl;
  impl.sut = "impl";
  impl.traces = {
      Diverged("golden/q/a.jsonl", "q_update", "state.queue.active[1]", 5),
      Diverged("golden/q/b.jsonl", "q_pop", "out.popped", 3),
      Diverged("golden/q/c.jsonl", "q_update", "state.queue.active[0]", 9),
  };
  TraceRun error;
  error.result.path = "golden/q/d.jsonl";
  error.result.verdict = Verdict::kError;
  error.result.at_op = "q_add";
  error.result.at_line = 4;
  error.result.message =
      "golden/q/d.jsonl:4: step 3 (q_add): no reply within 10000 ms";
  impl.traces.push_back(error);
  SystemRun model;
  model.sut = "model";
  model.traces = {
      Diverged("golden/q/a.jsonl", "q_update", "state.queue.active[1]", 5)};
  std::string groups = FailureGroups({impl, model});
  EXPECT_EQ(groups,
            "failures by signature (4 kinds):\n"
            "     2  impl  q_update state.queue.active\n"
            "        e.g. q/a.jsonl:5\n"
            "     1  impl  q_pop out.popped\n"
            "        e.g. q/b.jsonl:3\n"
            "     1  impl  q_add no reply within N ms\n"
            "        e.g. golden/q/d.jsonl:4\n"
            "     1  model  q_update state.queue.active\n"
            "        e.g. q/a.jsonl:5\n");
  EXPECT_EQ(FailureGroups({}), "");
}

}  // namespace
}  // namespace schedtrace::cli
