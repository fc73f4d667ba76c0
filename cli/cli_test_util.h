// Shared by the tests that run the real `schedtrace` binary (cli_test.cc,
// exec_test.cc, cmd_bench_test.cc, cmd_diff_test.cc):
//
//   CliResult r = RunSchedtrace("replay --sut=model " + path);
//   EXPECT_EQ(r.status, 0);
//   EXPECT_THAT(r.output, HasSubstr("1 passed, 0 failed"));
//
// SCHEDTRACE_BIN is the binary's path, defined by CMake for cli_test.
#ifndef SCHEDTRACE_CLI_CLI_TEST_UTIL_H_
#define SCHEDTRACE_CLI_CLI_TEST_UTIL_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace schedtrace::cli {

struct CliResult {
  int status = -1;     // the exit status; -1 when killed by a signal
  std::string output;  // stdout and stderr
};

// Runs `schedtrace ARGS` through the shell (ARGS is shell syntax), in the
// working directory `dir` when one is given.
inline CliResult RunSchedtrace(const std::string& args,
                               const std::string& dir = "") {
  CliResult r;
  std::string cmd = (dir.empty() ? "" : "cd '" + dir + "' && ") +
                    std::string(SCHEDTRACE_BIN) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
  int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_CLI_TEST_UTIL_H_
