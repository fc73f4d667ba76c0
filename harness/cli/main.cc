// schedtrace: replays schedtrace-v1 traces against systems under test.
// Each command lives in its own cmd_*.cc and registers itself (command.h);
// see `schedtrace help` and the README.
#include <iostream>

#include "harness/cli/command.h"
#include "harness/cli/flags.h"

namespace schedtrace::cli {
namespace {

int Main(int argc, char** argv) {
  absl::StatusOr<CommandLine> cl = ParseCommandLine(argc, argv);
  if (!cl.ok()) return UsageError(std::string(cl.status().message()));
  if (cl->command == "help") {
    std::cout << Usage();
    return 0;
  }
  return FindCommand(cl->command)->run(*cl);
}

}  // namespace
}  // namespace schedtrace::cli

int main(int argc, char** argv) { return schedtrace::cli::Main(argc, argv); }
