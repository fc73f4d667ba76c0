// The command line of `schedtrace`: `schedtrace COMMAND [--name=value]...
// [PATH]...`. Each command lists its own flags (command.h); the parser
// accepts exactly those, and `schedtrace help` prints them.
#ifndef SCHEDTRACE_HARNESS_CLI_FLAGS_H_
#define SCHEDTRACE_HARNESS_CLI_FLAGS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace schedtrace::cli {

struct CommandLine {
  std::string command;
  std::map<std::string, std::vector<std::string>> flags;  // name -> values
  std::vector<std::string> paths;

  bool Has(const std::string& name) const { return flags.contains(name); }
  std::vector<std::string> All(const std::string& name) const;
  std::string Last(const std::string& name, const std::string& dflt) const;
};

// Parses argv; unknown commands, unknown flags and flags the command does
// not take are errors. `--help` anywhere, or `-h` as the command, is `help`.
absl::StatusOr<CommandLine> ParseCommandLine(int argc, char** argv);

// The usage text: every command with its flags, and the exit statuses.
std::string Usage();

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_HARNESS_CLI_FLAGS_H_
