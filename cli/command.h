// The commands of `schedtrace`, each in its own file, registered at start-up:
//
//   // cli/cmd_gen.cc
//   int Gen(const CommandLine& cl) { ... return 0; }
//   const CommandRegistrar kGen({
//       .name = "gen",
//       .order = 40,
//       .synopsis = "--layer=L [--seed=N] [--steps=K] [--out=FILE]",
//       .summary = "write a random valid trace recorded from a system",
//       .flags = {{"layer", "queue, cache or scheduler"}, ...},
//       .run = &Gen,
//   });
//
// The parser (flags.h) accepts exactly the flags a command lists and
// enforces the required ones; `schedtrace help` prints every command in
// `order`, and `schedtrace NAME --help` one command with its flags, so adding
// a command touches no other file.
#ifndef SCHEDTRACE_CLI_COMMAND_H_
#define SCHEDTRACE_CLI_COMMAND_H_

#include <string>
#include <string_view>
#include <vector>

namespace schedtrace::cli {

struct CommandLine;

struct FlagSpec {
  std::string name;  // without the leading "--"
  std::string help;
  // A switch takes no value: `--name` alone (`--name=...` is an error). Any
  // other flag takes one, as `--name=value` or `--name value`.
  bool boolean = false;
  // A one-letter alias used with one dash: `-x`, `-j 4`, `-j4`.
  char short_name = 0;
  // The command line must give it (the parser says so, naming it, unless
  // --help was asked for); the command need not check again.
  bool required = false;
};

struct Command {
  std::string name;
  int order = 100;       // position in `schedtrace help`
  std::string synopsis;  // what follows `schedtrace NAME`
  std::string summary;   // one line
  std::vector<FlagSpec> flags;
  // Returns the exit status: 0 nothing failed, 1 something failed, 2 bad
  // input or a bad command line.
  int (*run)(const CommandLine&) = nullptr;
};

// Registers a command when the program starts; define one per command, at
// namespace scope, in that command's file.
class CommandRegistrar {
 public:
  explicit CommandRegistrar(Command command);
};

// Every registered command, in `order` (then name).
std::vector<const Command*> Commands();
// The command called `name`, or null.
const Command* FindCommand(std::string_view name);
// The flag `name` of `command`, or null.
const FlagSpec* FindFlag(const Command& command, std::string_view name);

// The command being run, for UsageError's hint; main sets it before parsing
// ("" when the command line names no known command).
void SetCurrentCommand(std::string_view name);

// Prints two lines to stderr, "schedtrace: MESSAGE" and a hint where to look
// ("run 'schedtrace CMD --help' for its flags", or "run 'schedtrace help' for
// the commands" outside a command); returns 2, the status of a bad command
// line. MESSAGE is one line.
int UsageError(const std::string& message);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_COMMAND_H_
