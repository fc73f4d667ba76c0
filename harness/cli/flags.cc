#include "harness/cli/flags.h"

#include <sstream>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace schedtrace::cli {
namespace {

bool CommandTakes(const FlagSpec& spec, const std::string& command) {
  for (absl::string_view c : absl::StrSplit(spec.commands, ' ')) {
    if (c == command) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> CommandLine::All(const std::string& name) const {
  auto it = flags.find(name);
  return it == flags.end() ? std::vector<std::string>{} : it->second;
}

std::string CommandLine::Last(const std::string& name,
                              const std::string& dflt) const {
  auto it = flags.find(name);
  return it == flags.end() || it->second.empty() ? dflt : it->second.back();
}

absl::StatusOr<CommandLine> ParseCommandLine(int argc, char** argv) {
  CommandLine cl;
  if (argc < 2) return absl::InvalidArgumentError("no command given");
  cl.command = argv[1];
  if (cl.command == "--help" || cl.command == "-h") cl.command = "help";
  if (cl.command != "help" && cl.command != "replay" &&
      cl.command != "conformance" && cl.command != "gen") {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown command \"", cl.command, "\""));
  }
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) {
      cl.paths.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::string value;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (name == "help") {
      cl.command = "help";
      continue;
    }
    const FlagSpec* spec = nullptr;
    for (const FlagSpec& f : kFlags) {
      if (name == f.name) spec = &f;
    }
    if (spec == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
    }
    if (!CommandTakes(*spec, cl.command)) {
      return absl::InvalidArgumentError(
          absl::StrCat("schedtrace ", cl.command, " takes no --", name));
    }
    cl.flags[name].push_back(value);
  }
  return cl;
}

std::string Usage() {
  std::ostringstream out;
  out << "usage:\n"
         "  schedtrace conformance [--sut=S]... [--report=F] [--golden=DIR] "
         "[PATH...]\n"
         "      the main job: replay PATH (default golden/) against each "
         "system, print the conformance table\n"
         "  schedtrace replay --sut=S [--report=F] [--no-properties] PATH...\n"
         "      replay traces against one system\n"
         "  schedtrace gen --layer=scheduler [--seed=N] [--steps=K] [--sut=S] "
         "[--out=FILE]\n"
         "      write a random valid trace, expectations recorded from S "
         "(default model)\n"
         "  schedtrace help\n\n"
         "PATH is a trace file or a directory searched recursively for "
         "*.jsonl.\n\nflags:\n";
  for (const FlagSpec& f : kFlags) {
    out << "  --" << f.name << "  (" << f.commands << ")\n      " << f.help
        << "\n";
  }
  out << "\nexit status: 0 nothing failed, 1 a trace failed, 2 bad input "
         "(a trace that does not decode, a bad command line)\n";
  return out.str();
}

}  // namespace schedtrace::cli
