#include "harness/cli/flags.h"

#include <optional>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "harness/cli/command.h"

namespace schedtrace::cli {

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
  if (cl.command == "help") return cl;
  const Command* command = FindCommand(cl.command);
  if (command == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown command \"", cl.command, "\""));
  }
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {  // everything after is a PATH
      for (++i; i < argc; ++i) cl.paths.push_back(argv[i]);
      break;
    }
    const bool long_flag = arg.rfind("--", 0) == 0;
    const bool short_flag = !long_flag && arg.size() >= 2 && arg[0] == '-';
    if (!long_flag && !short_flag) {
      cl.paths.push_back(arg);
      continue;
    }
    std::string name;
    std::optional<std::string> value;
    const FlagSpec* flag = nullptr;
    if (long_flag) {
      name = arg.substr(2);
      if (size_t eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      if (name == "help") {
        cl.command = "help";
        continue;
      }
      flag = FindFlag(*command, name);
    } else {  // -x, -j 4, -j4
      if (arg == "-h") {
        cl.command = "help";
        continue;
      }
      for (const FlagSpec& f : command->flags) {
        if (f.short_name == arg[1]) flag = &f;
      }
      if (flag != nullptr) {
        name = flag->name;
        if (arg.size() > 2) value = arg.substr(2);
      } else {
        name = arg.substr(1);
      }
    }
    if (flag == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "schedtrace ", cl.command, " takes no ", long_flag ? "--" : "-",
          name));
    }
    if (flag->boolean && value.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", name, " takes no value"));
    }
    if (!flag->boolean && !value.has_value()) {
      if (i + 1 >= argc) {
        return absl::InvalidArgumentError(
            absl::StrCat("--", name, " needs a value"));
      }
      value = argv[++i];
    }
    cl.flags[name].push_back(value.value_or(""));
  }
  return cl;
}

std::string Usage() {
  std::ostringstream out;
  out << "usage:\n";
  for (const Command* c : Commands()) {
    out << "  schedtrace " << c->name << " " << c->synopsis << "\n      "
        << c->summary << "\n";
    for (const FlagSpec& f : c->flags) {
      out << "        --" << f.name << "  " << f.help << "\n";
    }
  }
  out << "  schedtrace help\n\n"
         "PATH is a trace file or a directory searched recursively for "
         "*.jsonl.\nS is a system under test: model, impl (or exec:CMD where "
         "a command says so).\n"
         "\nexit status: 0 nothing failed, 1 a trace failed, 2 bad input "
         "(a trace that does not decode, a bad command line)\n";
  return out.str();
}

}  // namespace schedtrace::cli
