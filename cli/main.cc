// schedtrace: replays schedtrace-v1 traces against systems under test.
// Each command lives in its own cmd_*.cc and registers itself (command.h);
// see `schedtrace help` and the README.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "run/interrupt.h"

namespace schedtrace::cli {
namespace {

// `schedtrace help [COMMAND]`: the overview, or one command alone.
int Help(const CommandLine& cl) {
  if (cl.paths.empty()) {
    std::cout << Usage();
    return 0;
  }
  if (cl.paths.size() > 1) return UsageError("help takes one COMMAND");
  const std::string& name = cl.paths[0];
  if (name == "help") {
    std::cout << Usage();
    return 0;
  }
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    std::vector<std::string> names;
    for (const Command* c : Commands()) names.push_back(c->name);
    std::string closest = ClosestName(name, names);
    return UsageError(absl::StrCat(
        "unknown command \"", name, "\"",
        closest.empty() ? "" : absl::StrCat("; did you mean ", closest, "?")));
  }
  std::cout << CommandHelp(*command);
  return 0;
}

int Main(int argc, char** argv) {
  if (argc >= 2 && FindCommand(argv[1]) != nullptr) {
    SetCurrentCommand(argv[1]);
  }
  absl::StatusOr<CommandLine> cl = ParseCommandLine(argc, argv);
  if (!cl.ok()) return UsageError(std::string(cl.status().message()));
  if (cl->command == "help") return Help(*cl);
  // SIGINT/SIGTERM kill every child and end the run with what completed
  // (run/interrupt.h); the exit status then says which signal it was.
  // `serve` starts no child and blocks on its stdin: it keeps the default
  // action, dying at once.
  if (cl->command != "serve") InstallInterruptHandlers();
  const int status = FindCommand(cl->command)->run(*cl);
  return Interrupted() ? 128 + InterruptSignal() : status;
}

}  // namespace
}  // namespace schedtrace::cli

int main(int argc, char** argv) { return schedtrace::cli::Main(argc, argv); }
