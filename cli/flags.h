// The command line of `schedtrace`: `schedtrace COMMAND [FLAG]... [PATH]...`,
// a flag being `--name=value`, `--name value`, a switch `--name`, or a
// one-letter alias (`-x`, `-j 4`, `-j4`). Each command lists its own flags
// (command.h); the parser accepts exactly those, enforces the required
// ones, and the help texts below are generated from the same lists.
#ifndef SCHEDTRACE_CLI_FLAGS_H_
#define SCHEDTRACE_CLI_FLAGS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace schedtrace::cli {

struct Command;

struct CommandLine {
  // A registered command's name, or "help": then `paths` holds what follows
  // (`schedtrace help CMD` and `schedtrace CMD --help` both give {"CMD"}).
  std::string command;
  std::map<std::string, std::vector<std::string>> flags;  // name -> values
  std::vector<std::string> paths;

  bool Has(const std::string& name) const { return flags.contains(name); }
  std::vector<std::string> All(const std::string& name) const;
  std::string Last(const std::string& name, const std::string& dflt) const;
};

// Parses argv. Unknown commands, flags the command does not take (with the
// closest known name when one is close), a missing value, a value given to a
// switch and a missing required flag are errors, whose message is one line.
// `--help` or `-h` anywhere (before `--`) makes it `help` for the command.
absl::StatusOr<CommandLine> ParseCommandLine(int argc, char** argv);

// The overview: every command's synopsis and summary, what PATH and S are,
// and the exit statuses.
std::string Usage();
// One command alone: its synopsis, summary and every flag with its help.
std::string CommandHelp(const Command& command);

// Of `candidates`, the one closest to `name` by edit distance when it is
// close enough to be a likely typo; "" otherwise.
std::string ClosestName(std::string_view name,
                        const std::vector<std::string>& candidates);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_FLAGS_H_
