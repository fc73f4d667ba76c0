// The command line of `schedtrace`: `schedtrace COMMAND [--name=value]...
// [PATH]...`. Every flag of every command is listed once, in kFlags, which
// is also what `schedtrace help` prints.
#ifndef SCHEDTRACE_HARNESS_CLI_FLAGS_H_
#define SCHEDTRACE_HARNESS_CLI_FLAGS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace schedtrace::cli {

struct FlagSpec {
  const char* name;
  const char* commands;  // which commands take it
  const char* help;
};

inline constexpr FlagSpec kFlags[] = {
    {"sut", "replay conformance gen",
     "system under test: model or impl (repeatable for conformance; default "
     "model and impl)"},
    {"report", "replay conformance",
     "also write a report: FILE.md (Markdown), FILE.xml (JUnit XML) or "
     "FILE.json"},
    {"no-properties", "replay conformance",
     "do not check the invariants after every step"},
    {"layer", "gen", "the layer to generate: scheduler or cache"},
    {"seed", "gen", "the random seed (default 1)"},
    {"steps", "gen", "how many steps (default 60)"},
    {"out", "gen", "write the trace there instead of stdout"},
    {"golden", "conformance",
     "the corpus to replay when no PATH is given (default: the source tree's "
     "golden/)"},
};

struct CommandLine {
  std::string command;
  std::map<std::string, std::vector<std::string>> flags;  // name -> values
  std::vector<std::string> paths;

  bool Has(const std::string& name) const { return flags.contains(name); }
  std::vector<std::string> All(const std::string& name) const;
  std::string Last(const std::string& name, const std::string& dflt) const;
};

// Parses argv; unknown flags and flags the command does not take are errors.
absl::StatusOr<CommandLine> ParseCommandLine(int argc, char** argv);

// The usage text: commands, flags, exit statuses.
std::string Usage();

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_HARNESS_CLI_FLAGS_H_
