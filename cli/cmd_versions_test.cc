// `schedtrace versions` through the real binary, on golden traces whose
// behaviour on each version the recordings of that version pin: what it
// prints, --versions, --out-only, the reports read back by their parsers,
// -j, the corpus by default, bad input and usage errors, and SIGINT.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli/cli_test_util.h"
#include "cli/report_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class VersionsCliTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    // The same on every version; v1.25.12 -> v1.26.7 (gates) at step 1;
    // v1.26.7 -> v1.30.12 (a pod with no rejector plugin) at step 3.
    for (const char* t : {"activate-from-backoff", "gated-pod-lifecycle",
                          "move-all-empty-plugins"}) {
      fs::create_directories(dir_ / "traces");
      fs::copy_file(Golden(t), dir_ / "traces" / (std::string(t) + ".jsonl"));
    }
  }
  static fs::path Golden(const std::string& name) {
    return fs::path(SCHEDTRACE_SOURCE_DIR) / "golden/upstream-v1.26.7/queue" /
           (name + ".jsonl");
  }
  std::string Traces() const { return (dir_ / "traces").string(); }
  // The three versions before v1.35, whose upgrades these traces pin.
  static constexpr const char* kOld = "--versions=v1.25.12,v1.26.7,v1.30.12 ";
};

TEST_F(VersionsCliTest, EachTraceAndASummary) {
  CliResult r = RunSchedtrace(std::string("versions ") + kOld + Traces());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("activate-from-backoff.jsonl: same on all versions "
                        "(8 steps)\n"));
  EXPECT_THAT(r.output,
              HasSubstr("gated-pod-lifecycle.jsonl: differs at step 1 (line "
                        "2): q_add default/g("));
  EXPECT_THAT(r.output, HasSubstr("  v1.25.12 -> v1.26.7, 2 differences:\n"
                                  "    missing state.queue.active[default/g]"));
  EXPECT_THAT(r.output, HasSubstr("    because of "
                                  "pre_enqueue_and_scheduling_gates "
                                  "(kubernetes/kubernetes#113275)"));
  EXPECT_THAT(r.output,
              HasSubstr("move-all-empty-plugins.jsonl: differs at step 3 "
                        "(line 4): q_add_unschedulable default/x\n"
                        "  out, every version: {}\n"
                        "  v1.26.7 -> v1.30.12, 2 differences:\n"
                        "    extra   state.queue.backoff[default/x]: (absent) "
                        "-> {\"attempts\":1,"));
  EXPECT_THAT(r.output, HasSubstr("    because of "
                                  "backoff_pods_without_rejector_plugins "
                                  "(kubernetes/kubernetes#119105)"));
  EXPECT_THAT(r.output,
              HasSubstr("\n3 traces on v1.25.12, v1.26.7, v1.30.12: 2 differ, "
                        "1 the same on all versions\n"
                        "what the first differences come from, by upgrade:\n"
                        "  v1.25.12 -> v1.26.7, 1 trace:\n"
                        "        1  pre_enqueue_and_scheduling_gates "
                        "(kubernetes/kubernetes#113275)\n"
                        "  v1.26.7 -> v1.30.12, 1 trace:\n"
                        "        1  backoff_pods_without_rejector_plugins "
                        "(kubernetes/kubernetes#119105)\n"
                        "traces each switch explains"));
  // -q: only the traces that differ; -j 2: the same output.
  CliResult quiet =
      RunSchedtrace(std::string("versions -q ") + kOld + Traces());
  EXPECT_EQ(quiet.status, 0);
  EXPECT_THAT(quiet.output, Not(HasSubstr("activate-from-backoff")));
  EXPECT_THAT(quiet.output, HasSubstr("gated-pod-lifecycle.jsonl: differs"));
  EXPECT_EQ(
      RunSchedtrace(std::string("versions -j 2 ") + kOld + Traces()).output,
      r.output);
}

// By default every known version; a trace runs on the versions whose layer
// the model judges for it, and one judged on fewer than two is not compared.
TEST_F(VersionsCliTest, EveryVersionByDefaultWhereTheModelJudges) {
  CliResult r = RunSchedtrace("versions -q " + Traces());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("3 traces on v1.25.12, v1.26.7, v1.30.12, v1.35.4, "
                        "v1.36.3, v1.37.2: "));
  EXPECT_THAT(r.output, HasSubstr("  v1.30.12 -> v1.35.4, "));
  // The plugins' own QueueingHint functions in the queue layer: the model
  // runs them for v1.37.2 only (UpstreamFor).
  fs::create_directories(dir_ / "queue");
  fs::copy_file(fs::path(SCHEDTRACE_SOURCE_DIR) /
                    "golden/upstream-v1.37.2/handwritten/queue/"
                    "plugin-hints-read-move-objects.jsonl",
                dir_ / "queue" / "t.jsonl");
  const std::string js = Path("s.json");
  CliResult one = RunSchedtrace(
      "versions --versions=v1.35.4,v1.36.3,v1.37.2 --report=" + js + " " +
      (dir_ / "queue").string());
  ASSERT_EQ(one.status, 0) << one.output;
  EXPECT_THAT(one.output,
              HasSubstr("t.jsonl: not compared, the model does not judge its "
                        "queue layer on v1.35.4, v1.36.3\n"));
  EXPECT_THAT(one.output, HasSubstr(", 1 not compared ("));
  json j = json::parse(ReadFileBytes(js));
  EXPECT_EQ(j["traces"][0]["notJudged"], json({"v1.35.4", "v1.36.3"}));
}

TEST_F(VersionsCliTest, AnUpgradeAlone) {
  CliResult r =
      RunSchedtrace("versions --versions=v1.30.12,v1.26.7 " + Traces());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("gated-pod-lifecycle.jsonl: same on all "
                                  "versions"));
  EXPECT_THAT(r.output, HasSubstr("3 traces on v1.26.7, v1.30.12: 1 differ, 2 "
                                  "the same on all versions\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("v1.25.12")));
  for (const char* bad : {"v1.26.7", "v1.26.7,v1.99.0", "v1.26.7,v1.26.7"}) {
    SplitResult u = RunSchedtraceSplit(
        std::string("versions --versions=") + bad + " " + Traces(), dir_);
    EXPECT_EQ(u.status, 2) << bad;
    EXPECT_THAT(u.err, HasSubstr("schedtrace: --versions ")) << bad;
  }
}

TEST_F(VersionsCliTest, OutOnlyComparesWhatTheVersionsEmit) {
  // Both first differences above are in the queue's state: v1.25.12's
  // ungated pod shows in an out one step later, when it pops; the pod sent
  // to backoffQ by v1.30.12 in none.
  CliResult r =
      RunSchedtrace(std::string("versions --out-only ") + kOld + Traces());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("gated-pod-lifecycle.jsonl: differs at step 2 (line "
                        "3): q_pop\n"
                        "  out, v1.25.12: {\"attempts\":1,\"popped\":"
                        "\"default/g\"}\n"
                        "  out, v1.26.7, v1.30.12: {\"popped\":null}\n"));
  EXPECT_THAT(r.output, HasSubstr("move-all-empty-plugins.jsonl: same on all "
                                  "versions"));
  EXPECT_THAT(r.output,
              HasSubstr("3 traces on v1.25.12, v1.26.7, v1.30.12: 1 differ, "
                        "2 the same on all versions (outs compared, not "
                        "states: --out-only)\n"));
}

TEST_F(VersionsCliTest, ReportsThroughTheirParsers) {
  const std::string md = Path("v.md"), js = Path("v.json");
  CliResult r =
      RunSchedtrace(std::string("versions ") + kOld + "--report=" + md +
                    " --report=" + js + " " + Traces());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(CheckMarkdown(md), "");
  EXPECT_EQ(CheckJson(js), "");
  json j = json::parse(ReadFileBytes(js));
  EXPECT_EQ(j["summary"]["differ"], 2);
  std::map<std::string, std::string> verdicts;
  for (const json& t : j["traces"]) verdicts[t["display"]] = t["verdict"];
  EXPECT_EQ(verdicts, (std::map<std::string, std::string>{
                          {"activate-from-backoff.jsonl", "same"},
                          {"gated-pod-lifecycle.jsonl", "differs"},
                          {"move-all-empty-plugins.jsonl", "differs"}}));
  EXPECT_EQ(j["traces"][2]["changes"][0]["switches"][0]["name"],
            "backoff_pods_without_rejector_plugins");
  EXPECT_THAT(ReadFileBytes(md),
              HasSubstr("| v1.26.7 \xE2\x86\x92 v1.30.12 | 1 | "
                        "backoff_pods_without_rejector_plugins |"));
  SplitResult bad = RunSchedtraceSplit(
      "versions --report=" + Path("v.xml") + " " + Traces(), dir_);
  EXPECT_EQ(bad.status, 2);
  EXPECT_THAT(bad.err, HasSubstr("--report takes FILE.md or FILE.json"));
}

TEST_F(VersionsCliTest, TheCorpusByDefaultAndChoosingTraces) {
  CliResult r = RunSchedtrace("versions -q --golden=" + Traces());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("3 traces on "));
  CliResult one = RunSchedtrace("versions --filter=gated " + Traces());
  EXPECT_THAT(one.output, HasSubstr("1 trace on "));
  CliResult list = RunSchedtrace("versions --list " + Traces());
  EXPECT_EQ(list.status, 0);
  EXPECT_THAT(list.output, HasSubstr("3 of 3 traces selected"));
  EXPECT_THAT(list.output, Not(HasSubstr("differs")));
  CliResult none = RunSchedtrace("versions --filter=zzz " + Traces());
  EXPECT_EQ(none.status, 5) << none.output;
  EXPECT_THAT(none.output, HasSubstr("no trace selected"));
  CliResult layer = RunSchedtrace("versions --layer=cache " + Traces());
  EXPECT_EQ(layer.status, 5) << layer.output;
}

TEST_F(VersionsCliTest, BadInputExitsTwoAndTheRestRuns) {
  Write("traces/zz-bad.jsonl", "{\"schedtrace\":1,\n");
  CliResult r = RunSchedtrace(std::string("versions ") + kOld + Traces());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("ERROR zz-bad.jsonl: "));
  EXPECT_THAT(r.output, HasSubstr("4 traces on v1.25.12, v1.26.7, v1.30.12: "
                                  "2 differ, 1 the same on all versions, 1 "
                                  "bad input\n"));
}

TEST_F(VersionsCliTest, HelpListsItWithItsFlags) {
  SplitResult help = RunSchedtraceSplit("help", dir_);
  EXPECT_THAT(help.out, HasSubstr("\n  versions "));
  SplitResult own = RunSchedtraceSplit("versions --help", dir_);
  EXPECT_EQ(own.status, 0);
  for (const char* flag :
       {"--versions=VALUE", "--out-only", "--report=VALUE", "--filter=VALUE",
        "-j, --jobs=VALUE", "-q, --quiet"}) {
    EXPECT_THAT(own.out, HasSubstr(flag)) << flag;
  }
}

TEST_F(VersionsCliTest, SigintStopsItWithWhatCompleted) {
  // Enough traces to be interrupted: the corpus's queue traces, 12 times.
  fs::create_directories(dir_ / "many");
  for (int i = 0; i < 12; ++i) {
    fs::copy(fs::path(SCHEDTRACE_SOURCE_DIR) / "golden/upstream-v1.26.7/queue",
             dir_ / "many" / std::to_string(i), fs::copy_options::recursive);
  }
  const fs::path log = dir_ / "run.log";
  const std::string report = Path("v.json");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cmd =
        std::string("exec ") + SCHEDTRACE_BIN + " versions --report=" + report +
        " " + (dir_ / "many").string() + " >" + log.string() + " 2>&1";
    execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
    _exit(127);
  }
  // Wait for the first traces, then interrupt.
  for (int i = 0; i < 400 && ReadFileBytes(log.string()).size() < 2000; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  const std::string output = ReadFileBytes(log.string());
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), 130) << output.substr(output.size() - 500);
  EXPECT_THAT(output, HasSubstr("interrupted by SIGINT: "));
  EXPECT_THAT(output, HasSubstr(" of 2016 traces compared\n"));
  EXPECT_THAT(output, Not(HasSubstr("2016 of 2016")));
  json j = json::parse(ReadFileBytes(report), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["interrupted"], true);
}

}  // namespace
}  // namespace schedtrace::cli
