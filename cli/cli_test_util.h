// The CLI tests' one fixture and helper set: running commands and the real
// `schedtrace` binary, a scratch directory per test, writing files in it.
//
//   class MyTest : public ScratchDirTest {};
//   TEST_F(MyTest, Replays) {
//     std::string t = WriteTrace("t.jsonl", {kHeader, kStep});
//     CliResult r = RunSchedtrace("replay --sut=model " + t);
//     EXPECT_EQ(r.status, 0);
//     EXPECT_THAT(r.output, HasSubstr("1 passed, 0 failed"));
//     SplitResult s = RunSchedtraceSplit("help", dir_);  // stdout, stderr
//   }
//
// SCHEDTRACE_BIN is the binary's path, defined by CMake for cli_test.
#ifndef SCHEDTRACE_CLI_CLI_TEST_UTIL_H_
#define SCHEDTRACE_CLI_CLI_TEST_UTIL_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace schedtrace::cli {

struct CliResult {
  int status = -1;     // the exit status; -1 when killed by a signal
  std::string output;  // stdout (stderr too when the command says 2>&1)
};

// Runs `command` through the shell.
inline CliResult RunCommand(const std::string& command) {
  CliResult r;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
  int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

// Runs `schedtrace ARGS` through the shell (ARGS is shell syntax), stdout and
// stderr together, in the working directory `dir` when one is given.
inline CliResult RunSchedtrace(const std::string& args,
                               const std::string& dir = "") {
  return RunCommand((dir.empty() ? "" : "cd '" + dir + "' && ") +
                    std::string(SCHEDTRACE_BIN) + " " + args + " 2>&1");
}

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// `schedtrace ARGS` with stdout and stderr apart.
struct SplitResult {
  int status = -1;
  std::string out, err;
};

// stderr goes through a file in `scratch` (stderr.txt, overwritten).
inline SplitResult RunSchedtraceSplit(const std::string& args,
                                      const std::filesystem::path& scratch) {
  const std::string err_file = (scratch / "stderr.txt").string();
  CliResult r = RunCommand(std::string(SCHEDTRACE_BIN) + " " + args + " 2>'" +
                           err_file + "'");
  return SplitResult{r.status, std::move(r.output), ReadFileBytes(err_file)};
}

// `s` quoted for the shell.
inline std::string ShellQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// The system `exec:schedtrace serve ARGS` (unquoted: a --sut=... value).
inline std::string ExecServe(const std::string& args) {
  return "exec:" + std::string(SCHEDTRACE_BIN) + " serve" +
         (args.empty() ? "" : " " + args);
}

// An empty directory $TMPDIR/schedtrace_NAME_PID (emptied if it was there).
inline std::filesystem::path MakeScratchDir(const std::string& name) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("schedtrace_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A fixture whose tests each get their own scratch directory dir_, removed
// after the test.
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* test =
        ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name =
        std::string(test->test_suite_name()) + "_" + test->name();
    for (char& c : name) {
      if (c == '/') c = '_';  // parameterized names
    }
    dir_ = MakeScratchDir(name);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // dir_/NAME.
  std::string Path(const std::string& name) const {
    return (dir_ / name).string();
  }
  // Writes `text` as dir_/NAME (its directories made); returns the path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::filesystem::path path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  // A trace file: each line (header, steps) followed by a newline.
  std::string WriteTrace(const std::string& name,
                         std::initializer_list<std::string_view> lines) const {
    std::string text;
    for (std::string_view line : lines) {
      text.append(line);
      text.push_back('\n');
    }
    return Write(name, text);
  }

  std::filesystem::path dir_;
};

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_CLI_TEST_UTIL_H_
