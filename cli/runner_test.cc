// The runner as a user drives it, through the real `schedtrace` binary:
// choosing what runs (--filter, --layer, --list, --last-failed, -x), exit
// status 5 when nothing ran, -j giving a serial run's output, skipped traces
// summarised per reason, failures grouped by signature, SIGINT/SIGTERM
// killing every child, and the progress line on a real terminal (tmux).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const char kHeader[] =
    R"({"schedtrace":1,"name":"NAME","layer":"cache","upstream":"v1.26.7","source":"handwritten","config":{"assumedPodTtlMs":0}})";
// out {} is right; {"error":true} is the wrong expectation a failing trace
// carries.
const char kAddNodeOk[] =
    R"({"t":100,"op":"c_add_node","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"110"}}},"expect":{"out":{}}})";
const char kAddNodeWrong[] =
    R"({"t":100,"op":"c_add_node","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"110"}}},"expect":{"out":{"error":true}}})";
const char kQueueHeader[] =
    R"({"schedtrace":1,"name":"NAME","layer":"queue","upstream":"v1.26.7","source":"handwritten","config":{}})";
const char kPopEmpty[] =
    R"({"t":100,"op":"q_pop","expect":{"out":{"popped":null}}})";

class RunnerTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    fs::create_directories(dir_ / "traces");
  }

  // A cache trace named `name` at traces/NAME.jsonl that passes or fails.
  void Cache(const std::string& name, bool passes) {
    std::string header = kHeader;
    header.replace(header.find("NAME"), 4, name);
    WriteTrace("traces/" + name + ".jsonl",
               {header, passes ? kAddNodeOk : kAddNodeWrong});
  }
  void Queue(const std::string& name) {
    std::string header = kQueueHeader;
    header.replace(header.find("NAME"), 4, name);
    WriteTrace("traces/" + name + ".jsonl", {header, kPopEmpty});
  }
};

// In `dir`: .schedtrace/ is kept in the working directory.
CliResult RunIn(const fs::path& dir, const std::string& args) {
  return RunSchedtrace(args, dir.string());
}

TEST_F(RunnerTest, FilterMatchesNameAndPathAndLayerSelects) {
  Cache("alpha", true);
  Cache("beta", true);
  Queue("gamma");
  CliResult r = RunIn(dir_, "replay --sut=model --filter=alp traces");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("PASS traces/alpha.jsonl"));
  EXPECT_THAT(r.output, Not(HasSubstr("beta")));
  EXPECT_THAT(r.output, HasSubstr("1 passed, 0 failed"));

  // Globs: repeatable, on the path relative to PATH as well.
  r = RunIn(dir_,
            "replay --sut=model --filter='*beta.jsonl' --filter 'gam*' traces");
  EXPECT_THAT(r.output, HasSubstr("2 passed, 0 failed")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("alpha")));

  r = RunIn(dir_, "replay --sut=model --layer=queue traces");
  EXPECT_THAT(r.output, HasSubstr("PASS traces/gamma.jsonl"));
  EXPECT_THAT(r.output, HasSubstr("1 passed, 0 failed")) << r.output;

  r = RunIn(dir_, "replay --sut=model --layer=nodes traces");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.output, HasSubstr("--layer"));
}

TEST_F(RunnerTest, NothingSelectedOrEverythingSkippedExitsFive) {
  Cache("alpha", true);
  CliResult r = RunIn(dir_, "replay --sut=model --filter=zzz traces");
  EXPECT_EQ(r.status, 5) << r.output;
  EXPECT_THAT(r.output, HasSubstr("no trace selected"));

  // A child that implements only q_pop skips every cache trace.
  r = RunIn(dir_, absl::StrCat("replay \"--sut=exec:", SCHEDTRACE_BIN,
                               " serve --sut=model --ops=q_pop\" traces"));
  EXPECT_EQ(r.status, 5) << r.output;
  EXPECT_THAT(r.output, HasSubstr("0 passed, 0 failed, 1 skipped"));
  r = RunIn(dir_, "conformance --sut=model --layer=queue traces");
  EXPECT_EQ(r.status, 5) << r.output;

  r = RunIn(dir_, "replay --sut=model --list --filter=zzz traces");
  EXPECT_EQ(r.status, 5) << r.output;
  EXPECT_THAT(r.output, HasSubstr("0 of 1 traces selected"));
}

TEST_F(RunnerTest, ListPrintsWhatWouldRunAndRunsNothing) {
  Cache("alpha", false);
  Queue("gamma");
  CliResult r = RunIn(dir_, "conformance --list --layer=cache traces");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("traces/alpha.jsonl  cache  v1.26.7  alpha"));
  EXPECT_THAT(r.output, HasSubstr("1 of 2 traces selected"));
  EXPECT_THAT(r.output, Not(HasSubstr("FAIL")));
  EXPECT_FALSE(fs::exists(dir_ / ".schedtrace")) << "--list ran something";
}

TEST_F(RunnerTest, FailFastStopsAfterTheFirstFailure) {
  Cache("a1", true);
  Cache("a2", false);
  Cache("a3", false);
  Cache("a4", true);
  for (const char* flag : {"-x", "--fail-fast"}) {
    for (const char* jobs : {"-j1", "-j 3"}) {
      CliResult r =
          RunIn(dir_, absl::StrCat("conformance --sut=model --sut=impl ", flag,
                                   " ", jobs, " traces"));
      EXPECT_EQ(r.status, 1) << r.output;
      EXPECT_THAT(r.output, HasSubstr("FAIL traces/a2.jsonl"));
      EXPECT_THAT(r.output, Not(HasSubstr("a3")));
      EXPECT_THAT(r.output, Not(HasSubstr("a4")));
      EXPECT_THAT(r.output, Not(HasSubstr("== impl"))) << "ran on after -x";
      EXPECT_THAT(r.output, HasSubstr("1 passed, 1 failed"));
    }
  }
}

TEST_F(RunnerTest, LastFailedRerunsOnlyWhatFailed) {
  Cache("a1", true);
  Cache("a2", false);
  Cache("a3", true);
  CliResult r = RunIn(dir_, "replay --sut=model traces");
  EXPECT_EQ(r.status, 1);
  ASSERT_TRUE(fs::exists(dir_ / ".schedtrace" / "lastfailed.json"));

  r = RunIn(dir_, "replay --sut=model --last-failed traces");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("FAIL traces/a2.jsonl"));
  EXPECT_THAT(r.output, HasSubstr("0 passed, 1 failed"));

  Cache("a2", true);  // fixed
  r = RunIn(dir_, "replay --sut=model --last-failed traces");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("1 passed, 0 failed"));

  // Nothing failed last time: everything runs, and the run says so; so
  // does --list, rather than listing everything silently.
  r = RunIn(dir_, "replay --sut=model --last-failed traces");
  EXPECT_THAT(r.output, HasSubstr("no failures recorded"));
  EXPECT_THAT(r.output, HasSubstr("3 passed, 0 failed"));
  r = RunIn(dir_, "conformance --list --last-failed traces");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--last-failed: no failures recorded, so "
                                  "every selected trace is chosen\n"));
  EXPECT_THAT(r.output, HasSubstr("3 of 3 traces selected"));

  // .schedtrace/ ignores itself: git sees nothing to add in a repository
  // whose own .gitignore does not name it.
  ASSERT_EQ(RunCommand("cd '" + dir_.string() +
                       "' && git init -q . && git status --porcelain "
                       "--untracked-files=all")
                .output,
            "?? traces/a1.jsonl\n?? traces/a2.jsonl\n?? traces/a3.jsonl\n");
}

// The main job prints failures and the table, not a PASS line per trace
// (a person reads 2,000 of them as noise): those come with -v; replay
// keeps them.
TEST_F(RunnerTest, ConformancePrintsPassLinesOnlyWhenVerbose) {
  Cache("a1", true);
  Cache("a2", false);
  CliResult r = RunIn(dir_, "conformance --sut=model traces");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("PASS ")));
  EXPECT_THAT(r.output, HasSubstr("FAIL traces/a2.jsonl"));
  EXPECT_THAT(r.output, HasSubstr("1 passed, 1 failed"));
  for (const char* flag : {"-v", "--verbose"}) {
    r = RunIn(dir_, absl::StrCat("conformance --sut=model ", flag, " traces"));
    EXPECT_THAT(r.output, HasSubstr("PASS traces/a1.jsonl\n")) << flag;
    EXPECT_THAT(r.output, HasSubstr("FAIL traces/a2.jsonl"));
  }
  r = RunIn(dir_, "replay --sut=model traces");
  EXPECT_THAT(r.output, HasSubstr("PASS traces/a1.jsonl\n"));
}

TEST_F(RunnerTest, ParallelOutputIsTheSerialOutput) {
  for (int i = 0; i < 12; ++i) {
    Cache(absl::StrCat("t", i < 10 ? "0" : "", i), i % 4 != 1);
  }
  const std::string sut =
      absl::StrCat("\"--sut=exec:", SCHEDTRACE_BIN, " serve --sut=impl\"");
  CliResult serial = RunIn(dir_, absl::StrCat("replay -j1 ", sut, " traces"));
  CliResult parallel =
      RunIn(dir_, absl::StrCat("replay -j 4 ", sut, " traces"));
  EXPECT_EQ(serial.status, 1);
  EXPECT_EQ(parallel.status, 1);
  EXPECT_EQ(serial.output, parallel.output);
  EXPECT_THAT(serial.output, HasSubstr("9 passed, 3 failed"));
}

TEST_F(RunnerTest, QuietPrintsOnlyFailuresAndTheSummary) {
  Cache("a1", true);
  Cache("a2", false);
  CliResult r = RunIn(dir_, "replay -q --sut=model traces");
  EXPECT_THAT(r.output, Not(HasSubstr("PASS")));
  EXPECT_THAT(r.output, HasSubstr("FAIL traces/a2.jsonl"));
  EXPECT_THAT(r.output, HasSubstr("1 passed, 1 failed"));
}

TEST_F(RunnerTest, SkipsAreOneLinePerReasonAndFailuresPrintedOnce) {
  Cache("c1", false);
  Cache("c2", false);
  Cache("c3", false);
  Queue("q1");
  Queue("q2");
  // The child serves the cache layer only: the queue traces are skipped.
  CliResult r =
      RunIn(dir_, absl::StrCat("conformance \"--sut=exec:", SCHEDTRACE_BIN,
                               " serve --sut=model --ops=c_add_node"
                               "\" traces"));
  EXPECT_EQ(r.status, 1) << r.output;
  // Each failure once in the per-trace lines...
  for (const char* t : {"c1", "c2", "c3"}) {
    const std::string line = absl::StrCat("FAIL traces/", t, ".jsonl");
    size_t first = r.output.find(line);
    ASSERT_NE(first, std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(line, first + 1), std::string::npos) << r.output;
  }
  // ... and grouped: one signature, three traces.
  EXPECT_THAT(r.output, HasSubstr("failures by signature (1 kind)"));
  EXPECT_THAT(r.output, HasSubstr("3  exec:"));
  EXPECT_THAT(r.output, HasSubstr("c_add_node out.error"));
  // The two skipped queue traces: one line with a count.
  EXPECT_THAT(r.output, HasSubstr("SKIP 2 traces: "));
  EXPECT_THAT(r.output, Not(HasSubstr("SKIP traces/")));
}

// Processes whose command line holds `marker`.
// Live processes of session `sid` whose command line holds `marker`. The
// session (Spawn's setsid) keeps this test's count apart from other tests
// running at the same time with the same marker; process groups, which a run
// makes one per child, stay inside it.
int CountProcesses(const std::string& marker, pid_t sid) {
  int n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline");
    std::string cmd((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
    std::ifstream stat(e.path() / "stat");
    std::string st;
    std::getline(stat, st);
    // After "pid (comm) ": state ppid pgrp session ...
    const size_t close = st.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(st.substr(close + 2));
    char state = 0;
    long ppid = 0, pgrp = 0, session = 0;
    if (!(fields >> state >> ppid >> pgrp >> session)) continue;
    // A zombie (state Z) is dead already; it only waits to be reaped.
    if (state == 'Z' || session != sid) continue;
    if (cmd.find(marker) != std::string::npos) ++n;
  }
  return n;
}

// Starts `schedtrace ARGS` in dir with stdout/stderr to `log`; returns pid.
pid_t Spawn(const fs::path& dir, const std::string& args, const fs::path& log) {
  pid_t pid = fork();
  if (pid == 0) {
    setsid();  // its own session: CountProcesses counts only this run's
    if (chdir(dir.c_str()) != 0) _exit(126);
    const std::string cmd = absl::StrCat("exec ", SCHEDTRACE_BIN, " ", args,
                                         " >", log.string(), " 2>&1");
    execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
    _exit(127);
  }
  return pid;
}

void InterruptHangingRun(const fs::path& dir, int sig, int expected_exit) {
  // Every child hangs at its first step: with -j 3, three children hang at
  // once, each under a shell (sh -c) in its group.
  const std::string marker = absl::StrCat("hang-marker-", getpid(), "-", sig);
  const fs::path log = dir / "run.log";
  const fs::path report = dir / "report.json";
  pid_t pid = Spawn(
      dir,
      absl::StrCat("replay -j 3 --report=", report.string(),
                   " \"--sut=exec:sleep 0 ", marker, "; exec ", SCHEDTRACE_BIN,
                   " serve --sut=model --fault=hang --fault-step=1\" traces"),
      log);
  ASSERT_GT(pid, 0);
  // Wait until the children hang.
  for (int i = 0; i < 800 && CountProcesses("--fault=hang", pid) < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_GE(CountProcesses("--fault=hang", pid), 3);
  kill(pid, sig);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  std::ifstream in(log);
  std::string output((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
  ASSERT_TRUE(WIFEXITED(status)) << output;
  EXPECT_EQ(WEXITSTATUS(status), expected_exit) << output;
  EXPECT_THAT(output, HasSubstr("interrupted by"));
  EXPECT_THAT(output, HasSubstr("passed, "));
  EXPECT_EQ(CountProcesses("--fault=hang", pid), 0) << "a child survived";
  EXPECT_TRUE(fs::exists(report)) << "no report written on interrupt";
  std::ifstream r(report);
  std::string text((std::istreambuf_iterator<char>(r)),
                   std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("\"interrupted\": true"));
}

TEST_F(RunnerTest, SigintKillsEveryChildAndExits130) {
  for (int i = 0; i < 6; ++i) Cache(absl::StrCat("h", i), true);
  InterruptHangingRun(dir_, SIGINT, 130);
}

TEST_F(RunnerTest, SigtermKillsEveryChildAndExits143) {
  for (int i = 0; i < 6; ++i) Cache(absl::StrCat("h", i), true);
  InterruptHangingRun(dir_, SIGTERM, 143);
}

// The progress line, as a person sees it: on a terminal (a tmux pane) a
// counter with an ETA is drawn while traces run and erased at the end; with
// stderr not a terminal nothing of it is written.
TEST_F(RunnerTest, ProgressLineOnATerminalOnly) {
  if (system("command -v tmux >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "tmux is not installed (ci/bootstrap installs it)";
  }
  for (int i = 0; i < 4; ++i) Cache(absl::StrCat("p", i), true);
  const std::string session = absl::StrCat("schedtrace-progress-", getpid());
  const fs::path out = dir_ / "stdout.txt";
  // Each child sleeps before it starts, so the run lasts about 2 s.
  const std::string cmd = absl::StrCat(
      "cd ", dir_.string(), " && ", SCHEDTRACE_BIN,
      " replay -j1 \\\"--sut=exec:sleep 0.5; exec ", SCHEDTRACE_BIN,
      " serve --sut=model\\\" traces >", out.string(), "; sleep 30");
  ASSERT_EQ(system(absl::StrCat("tmux new-session -d -x 120 -y 10 -s ", session,
                                " \"", cmd, "\"")
                       .c_str()),
            0);
  std::string seen;
  for (int i = 0; i < 100; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const std::string screen =
        RunCommand(absl::StrCat("tmux capture-pane -p -t ", session)).output;
    if (screen.find("ETA") != std::string::npos) {
      seen = screen;
      break;
    }
  }
  system(
      absl::StrCat("tmux kill-session -t ", session, " 2>/dev/null").c_str());
  EXPECT_THAT(seen, HasSubstr("/4] exec:")) << "no progress line seen";
  EXPECT_THAT(seen, HasSubstr("ETA"));
  // stdout went to a file: the per-trace lines only, no progress in them.
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_THAT(text, Not(HasSubstr("ETA")));

  // Not a terminal: no progress line at all.
  CliResult r = RunIn(dir_, absl::StrCat("replay \"--sut=exec:", SCHEDTRACE_BIN,
                                         " serve --sut=model\" traces"));
  EXPECT_THAT(r.output, Not(HasSubstr("ETA")));
  EXPECT_THAT(r.output, Not(HasSubstr("\r")));
}

// What a misbehaving child writes reaches the terminal as visible, valid
// UTF-8: every byte 0-255 on its stderr and as its reply, and no raw ESC,
// BEL, NUL or invalid UTF-8 in what the run prints.
TEST_F(RunnerTest, AChildsBytesNeverReachTheTerminalRaw) {
  Cache("c1", true);
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  all += "\xc3\x28\xf0\x9f";  // invalid UTF-8
  const fs::path bytes = dir_ / "bytes";
  std::ofstream(bytes, std::ios::binary) << all;
  const std::string child =
      absl::StrCat("read h; cat ", bytes.string(),
                   " >&2; echo '{\"ok\":true}'; read l; cat ", bytes.string(),
                   "; echo; cat > /dev/null");
  for (const char* cmd : {"replay", "diff --a=model"}) {
    CliResult r = RunIn(
        dir_, absl::StrCat(cmd, cmd[0] == 'r' ? " " : " ",
                           cmd[0] == 'r' ? "\"--sut=exec:" : "\"--b=exec:",
                           child, "\" traces"));
    EXPECT_EQ(r.status, 1) << cmd;
    EXPECT_THAT(r.output, HasSubstr("\\x1b")) << cmd << ": ESC shown";
    size_t i = 0;
    for (unsigned char c : r.output) {
      EXPECT_TRUE(c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7f))
          << cmd << ": raw byte " << int{c} << " at " << i;
      ++i;
      if (HasFailure()) break;
    }
    // Valid UTF-8: every lead byte has its continuation bytes.
    for (size_t k = 0; k < r.output.size();) {
      unsigned char c = r.output[k];
      int len = c < 0x80         ? 1
                : (c >> 5) == 6  ? 2
                : (c >> 4) == 14 ? 3
                : (c >> 3) == 30 ? 4
                                 : 0;
      ASSERT_GT(len, 0) << cmd << ": invalid UTF-8 at " << k;
      for (int m = 1; m < len; ++m) {
        ASSERT_LT(k + m, r.output.size());
        ASSERT_EQ(static_cast<unsigned char>(r.output[k + m]) >> 6, 2)
            << cmd << ": invalid UTF-8 at " << k;
      }
      k += len;
    }
  }
}

}  // namespace
}  // namespace schedtrace::cli
