// What `schedtrace versions` prints and writes (cli/versions_report.h), on
// runs made in process: the lines per trace, the summary per upgrade and
// per switch, and the reports read back by the parsers their readers use
// (nlohmann and Python's json for JSON, CommonMark's fence rules for
// Markdown, report_test_util.h), hostile names included.
#include "cli/versions_report.h"

#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "cli/report_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/upstream.h"
#include "nlohmann/json.hpp"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

const model::UpstreamSwitch* Switch(std::string_view name) {
  for (const model::UpstreamSwitch& s : model::UpstreamSwitches()) {
    if (s.name == name) return &s;
  }
  ADD_FAILURE() << "no switch " << name;
  return nullptr;
}

VersionStep Did(const std::string& version, const std::string& out,
                const std::string& state = "{}") {
  return {version, out, state};
}

// A queue trace where v1.26.7 -> v1.30.12 sends a pod to backoffQ at step
// 3, and v1.25.12 -> v1.26.7 differs later, at step 5.
TraceVersions Differs(const std::string& display) {
  TraceVersions t;
  t.path = "/golden/" + display;
  t.display = display;
  t.name = "queue/x";
  t.layer = "queue";
  VersionDiff& d = t.diff;
  d.versions = {"v1.25.12", "v1.26.7", "v1.30.12"};
  d.steps = 9;
  d.steps_run = 3;
  d.same = false;
  d.step = 3;
  d.line = 4;
  d.op = "q_add_unschedulable";
  d.summary = "q_add_unschedulable default/x";
  d.did = {Did("v1.25.12", "{}"), Did("v1.26.7", "{}"), Did("v1.30.12", "{}")};
  PairChange early;
  early.older = "v1.26.7";
  early.newer = "v1.30.12";
  early.step = 3;
  early.line = 4;
  early.op = d.op;
  early.summary = d.summary;
  early.older_did = d.did[1];
  early.newer_did = d.did[2];
  early.differences = {{"state.queue.backoff[default/x]", "extra", "(absent)",
                        R"({"attempts":1,"pod":"default/x"})"},
                       {"state.queue.unschedulable[default/x]", "missing",
                        R"({"attempts":1,"pod":"default/x"})", "(absent)"}};
  early.cause = Cause::kAlone;
  early.switches = {Switch("backoff_pods_without_rejector_plugins")};
  PairChange late;
  late.older = "v1.25.12";
  late.newer = "v1.26.7";
  late.step = 5;
  late.line = 6;
  late.op = "q_pop";
  late.summary = "q_pop";
  late.older_did = Did("v1.25.12", R"({"popped":"default/a"})");
  late.newer_did = Did("v1.26.7", R"({"popped":"default/b"})");
  late.differences = {
      {"out.popped", "changed", R"("default/a")", R"("default/b")"}};
  late.cause = Cause::kTogether;
  late.switches = {Switch("pre_enqueue_and_scheduling_gates"),
                   Switch("deep_copy_keeps_unschedulable_plugins")};
  d.changes = {late, early};  // oldest upgrade first
  return t;
}

TraceVersions Same(const std::string& display, int steps) {
  TraceVersions t;
  t.path = "/golden/" + display;
  t.display = display;
  t.layer = "cache";
  t.diff.versions = {"v1.25.12", "v1.26.7", "v1.30.12"};
  t.diff.steps = t.diff.steps_run = steps;
  return t;
}

VersionsRun SampleRun() {
  VersionsRun run;
  run.versions = {"v1.25.12", "v1.26.7", "v1.30.12"};
  run.seconds = 1.5;
  run.traces.push_back(Same("cache/a.jsonl", 4));
  run.traces.push_back(Differs("queue/x.jsonl"));
  TraceVersions refused = Same("queue/refused.jsonl", 2);
  refused.diff.stopped = true;
  refused.diff.line = 1;
  for (const std::string& v : run.versions) {
    refused.diff.did.push_back(Did(v, "refused: model: unknown plugin", ""));
  }
  run.traces.push_back(refused);
  TraceVersions bad;
  bad.path = "/golden/bad.jsonl";
  bad.display = "bad.jsonl";
  bad.bad_input = true;
  bad.message = "/golden/bad.jsonl:2: malformed JSON";
  run.traces.push_back(bad);
  return run;
}

TEST(VersionsReportTest, ATraceInAFewLines) {
  const VersionsRun run = SampleRun();
  EXPECT_EQ(FormatTraceVersions(run.traces[0], false),
            "cache/a.jsonl: same on all versions (4 steps)\n");
  EXPECT_EQ(FormatTraceVersions(run.traces[0], /*quiet=*/true), "");
  EXPECT_EQ(
      FormatTraceVersions(run.traces[1], false),
      "queue/x.jsonl: differs at step 3 (line 4): q_add_unschedulable "
      "default/x\n"
      "  out, every version: {}\n"
      "  v1.25.12 -> v1.26.7, first at step 5 (line 6): q_pop\n"
      "    out, v1.25.12: {\"popped\":\"default/a\"}\n"
      "    out, v1.26.7: {\"popped\":\"default/b\"}\n"
      "    1 difference:\n"
      "    changed out.popped: \"default/a\" -> \"default/b\"\n"
      "    because of these two together (neither alone does it):\n"
      "      pre_enqueue_and_scheduling_gates (kubernetes/kubernetes#113275): "
      "PreEnqueue plugins and scheduling gates (KEP-3521)\n"
      "      deep_copy_keeps_unschedulable_plugins "
      "(kubernetes/kubernetes#113275): QueuedPodInfo.DeepCopy keeps "
      "UnschedulablePlugins and Gated\n"
      "  v1.26.7 -> v1.30.12, 2 differences:\n"
      "    extra   state.queue.backoff[default/x]: (absent) -> "
      "{\"attempts\":1,\"pod\":\"default/x\"}\n"
      "    missing state.queue.unschedulable[default/x]: "
      "{\"attempts\":1,\"pod\":\"default/x\"} -> (absent)\n"
      "    because of backoff_pods_without_rejector_plugins "
      "(kubernetes/kubernetes#119105): a failure with no rejector plugin goes "
      "to backoffQ\n");
  EXPECT_EQ(FormatTraceVersions(run.traces[2], true),
            "queue/refused.jsonl: every version refuses the header: refused: "
            "model: unknown plugin\n");
  EXPECT_EQ(FormatTraceVersions(run.traces[3], true),
            "ERROR bad.jsonl: /golden/bad.jsonl:2: malformed JSON\n");
}

TEST(VersionsReportTest, TheSummaryCountsPerUpgradeAndPerSwitch) {
  const std::string s = VersionsSummary(SampleRun());
  EXPECT_THAT(s, HasSubstr("4 traces on v1.25.12, v1.26.7, v1.30.12: 1 "
                           "differ, 1 the same on all versions, 1 stop alike "
                           "on every version, 1 bad input\n"));
  EXPECT_THAT(s, HasSubstr("  v1.25.12 -> v1.26.7, 1 trace:\n"
                           "        1  pre_enqueue_and_scheduling_gates and "
                           "deep_copy_keeps_unschedulable_plugins\n"
                           "  v1.26.7 -> v1.30.12, 1 trace:\n"
                           "        1  backoff_pods_without_rejector_plugins "
                           "(kubernetes/kubernetes#119105)\n"));
  EXPECT_THAT(s, HasSubstr("traces each switch explains"));
  EXPECT_THAT(s,
              HasSubstr("      1  backoff_pods_without_rejector_plugins: a "
                        "failure with no rejector plugin goes to backoffQ\n"));
}

TEST(VersionsReportTest, CauseTextPerCause) {
  PairChange c;
  c.older = "v1.26.7";
  c.newer = "v1.30.12";
  c.switches = {Switch("permit_rejection_is_fit_error")};
  c.cause = Cause::kNeeded;
  EXPECT_THAT(CauseText(c),
              HasSubstr("needs permit_rejection_is_fit_error (kubernetes/"));
  EXPECT_THAT(CauseText(c), HasSubstr("v1.30.12 without it does what v1.26.7 "
                                      "does"));
  c.cause = Cause::kCombination;
  EXPECT_THAT(CauseText(c), HasSubstr("a combination of these"));
  c.cause = Cause::kHeader;
  EXPECT_THAT(CauseText(c), HasSubstr("the header"));
  c.cause = Cause::kNoSwitch;
  EXPECT_THAT(CauseText(c), HasSubstr("no switch differs"));
}

class VersionsReportFileTest : public ScratchDirTest {};

TEST_F(VersionsReportFileTest, JsonAsAToolReadsIt) {
  const std::string path = Path("v.json");
  ASSERT_TRUE(WriteVersionsReport(path, SampleRun()).ok());
  ASSERT_EQ(CheckJson(path), "");
  json j = json::parse(ReadFileBytes(path));
  EXPECT_EQ(j["schema"], "schedtrace-versions/1");
  EXPECT_EQ(j["versions"], json({"v1.25.12", "v1.26.7", "v1.30.12"}));
  EXPECT_EQ(j["outOnly"], false);
  EXPECT_EQ(j["summary"], json({{"traces", 4},
                                {"differ", 1},
                                {"same", 1},
                                {"stopped", 1},
                                {"badInput", 1},
                                {"notCompared", 0}}));
  ASSERT_EQ(j["upgrades"].size(), 2u);
  EXPECT_EQ(j["upgrades"][1]["older"], "v1.26.7");
  EXPECT_EQ(j["upgrades"][1]["causes"][0],
            json({{"cause", "alone"},
                  {"switches", {"backoff_pods_without_rejector_plugins"}},
                  {"label", "backoff_pods_without_rejector_plugins"},
                  {"traces", 1}}));
  EXPECT_EQ(j["upgrades"][0]["causes"][0]["cause"], "together");
  EXPECT_EQ(j["switches"].size(), model::UpstreamSwitches().size());
  for (const json& s : j["switches"]) {
    const int want =
        s["name"] == "backoff_pods_without_rejector_plugins" ||
                s["name"] == "pre_enqueue_and_scheduling_gates" ||
                s["name"] == "deep_copy_keeps_unschedulable_plugins"
            ? 1
            : 0;
    EXPECT_EQ(s["traces"], want) << s.dump();
  }
  const json& t = j["traces"];
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0]["verdict"], "same");
  EXPECT_FALSE(t[0].contains("changes"));
  EXPECT_EQ(t[1]["verdict"], "differs");
  EXPECT_EQ(t[1]["at"], json({{"step", 3},
                              {"line", 4},
                              {"op", "q_add_unschedulable"},
                              {"summary", "q_add_unschedulable default/x"}}));
  EXPECT_EQ(t[1]["did"][2],
            json({{"version", "v1.30.12"}, {"out", json::object()}}));
  const json& late = t[1]["changes"][0];
  EXPECT_EQ(late["at"]["step"], 5);
  EXPECT_EQ(late["outs"],
            json({{{"popped", "default/a"}}, {{"popped", "default/b"}}}));
  EXPECT_EQ(late["differences"][0], json({{"path", "out.popped"},
                                          {"kind", "changed"},
                                          {"older", "default/a"},
                                          {"newer", "default/b"}}));
  const json& early = t[1]["changes"][1];
  EXPECT_EQ(early["cause"], "alone");
  EXPECT_EQ(early["switches"][0]["change"], "kubernetes/kubernetes#119105");
  EXPECT_EQ(early["differences"][0]["older"], "(absent)");
  EXPECT_EQ(early["differences"][0]["newer"],
            json({{"attempts", 1}, {"pod", "default/x"}}));
  EXPECT_EQ(t[2]["verdict"], "stopped");
  EXPECT_EQ(t[2]["did"][0]["out"], "refused: model: unknown plugin");
  EXPECT_EQ(t[3]["verdict"], "bad-input");
  EXPECT_EQ(t[3]["message"], "/golden/bad.jsonl:2: malformed JSON");
}

TEST_F(VersionsReportFileTest, MarkdownForAPerson) {
  const std::string path = Path("v.md");
  ASSERT_TRUE(WriteVersionsReport(path, SampleRun()).ok());
  ASSERT_EQ(CheckMarkdown(path), "");
  const std::string md = ReadFileBytes(path);
  EXPECT_THAT(md, HasSubstr("# schedtrace versions\n"));
  EXPECT_THAT(md, HasSubstr("## What the first differences come from\n"));
  EXPECT_THAT(md, HasSubstr("| v1.26.7 \xE2\x86\x92 v1.30.12 | 1 | "
                            "backoff_pods_without_rejector_plugins | "
                            "kubernetes/kubernetes#119105 | a failure with no "
                            "rejector plugin goes to backoffQ |\n"));
  EXPECT_THAT(md, HasSubstr("## Traces each switch explains\n"));
  EXPECT_THAT(md, HasSubstr("### `queue/x.jsonl`\n\nFirst difference at step 3 "
                            "(line 4): `q_add_unschedulable default/x`\n"));
  EXPECT_THAT(md, HasSubstr("**v1.25.12 \xE2\x86\x92 v1.26.7**, first at step "
                            "5 (line 6): `q_pop`; out "
                            "`{\"popped\":\"default/a\"}` \xE2\x86\x92 "
                            "`{\"popped\":\"default/b\"}`: because of these "
                            "two together (neither alone does it): "
                            "pre_enqueue_and_scheduling_gates"));
  EXPECT_THAT(md, HasSubstr("| extra | `state.queue.backoff[default/x]` | "
                            "`(absent)` | `{\"attempts\":1,\"pod\":"
                            "\"default/x\"}` |\n"));
  EXPECT_THAT(md, HasSubstr("- `queue/refused.jsonl`: every version refuses "
                            "the header: refused: model: unknown plugin\n"));
  EXPECT_THAT(md, HasSubstr("- `bad.jsonl`: /golden/bad.jsonl:2: malformed "
                            "JSON\n"));
  EXPECT_THAT(md, HasSubstr("## The same on all versions\n\n- "
                            "`cache/a.jsonl` (4 steps)\n"));
}

TEST_F(VersionsReportFileTest, HostileTextStaysText) {
  VersionsRun run = SampleRun();
  const std::string hostile =
      std::string("|`</x>\x1b[2J\xff\n``` ") + AllBytes();
  for (TraceVersions& t : run.traces) {
    t.display = hostile + t.display;
    t.path = hostile;
  }
  run.traces[1].diff.changes[1].differences[0].actual = hostile;
  run.traces[1].diff.summary = hostile;
  for (const char* name : {"h.md", "h.json"}) {
    const std::string path = Path(name);
    ASSERT_TRUE(WriteVersionsReport(path, run).ok()) << name;
    EXPECT_EQ(CheckReport(path), "") << name;
    EXPECT_THAT(ReadFileBytes(path), Not(HasSubstr("\x1b"))) << name;
  }
  for (const TraceVersions& t : run.traces) {
    EXPECT_TRUE(IsSanitizedText(FormatTraceVersions(t, false)));
  }
  EXPECT_EQ(WriteVersionsReport(Path("v.xml"), run).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(KnownVersionsReportExtension("v.html"));
  EXPECT_TRUE(KnownVersionsReportExtension("v.md"));
}

}  // namespace
}  // namespace schedtrace::cli
