#include "cli/flags.h"

#include <algorithm>
#include <optional>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/command.h"

namespace schedtrace::cli {
namespace {

constexpr size_t kWidth = 80;  // help text wraps here

// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`:
// "filtr" is one from "filter", "sede" one from "seed".
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1,
                                     std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

// "; did you mean PREFIXNAME?" for the closest of `candidates`, or "".
std::string DidYouMean(std::string_view name,
                       const std::vector<std::string>& candidates,
                       const std::string& prefix) {
  std::string closest = ClosestName(name, candidates);
  return closest.empty()
             ? ""
             : absl::StrCat("; did you mean ", prefix, closest, "?");
}

std::vector<std::string> FlagNames(const Command& command) {
  std::vector<std::string> names;
  for (const FlagSpec& f : command.flags) names.push_back(f.name);
  return names;
}

std::vector<std::string> CommandNames() {
  std::vector<std::string> names = {"help"};
  for (const Command* c : Commands()) names.push_back(c->name);
  return names;
}

// `text` as lines of at most kWidth columns, the first starting at column
// `first_column` (what is already written on it), the rest indented by
// `indent` spaces.
std::string Wrap(const std::string& text, size_t first_column, size_t indent) {
  std::string out;
  size_t column = first_column;
  bool line_empty = true;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line_empty && column + 1 + word.size() > kWidth) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    absl::StrAppend(&out, word);
    column += word.size();
    line_empty = false;
  }
  return out;
}

// "-x, --fail-fast" or "    --layer=VALUE" (the four spaces only when
// `aligned`: some flag of the command has a one-letter alias).
std::string FlagLabel(const FlagSpec& f, bool aligned) {
  std::string label =
      f.short_name != 0
          ? absl::StrCat("-", std::string(1, f.short_name), ", --", f.name)
          : absl::StrCat(aligned ? "    --" : "--", f.name);
  if (!f.boolean) label += "=VALUE";
  return label;
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

std::string ClosestName(std::string_view name,
                        const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const size_t d = EditDistance(name, c);
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  // Two edits at most, and fewer than half the name: "x" is no typo of "a".
  if (best.empty() || best_distance > 2 || 2 * best_distance >= name.size()) {
    return "";
  }
  return best;
}

namespace {

// A flag argument (`--name`, `--name=value`, `-x`, `-j4`) resolved against
// `command`'s flags: its name, the value it carries, its spec.
struct ParsedFlag {
  std::string name;
  std::optional<std::string> value;
  const FlagSpec* flag = nullptr;
};

absl::StatusOr<ParsedFlag> ParseFlag(const Command& command,
                                     const std::string& command_name,
                                     const std::string& arg, bool long_flag) {
  ParsedFlag p;
  if (long_flag) {
    p.name = arg.substr(2);
    if (size_t eq = p.name.find('='); eq != std::string::npos) {
      p.value = p.name.substr(eq + 1);
      p.name = p.name.substr(0, eq);
    }
    p.flag = FindFlag(command, p.name);
  } else {  // -x, -j 4, -j4
    for (const FlagSpec& f : command.flags) {
      if (f.short_name == arg[1]) p.flag = &f;
    }
    if (p.flag != nullptr) {
      p.name = p.flag->name;
      if (arg.size() > 2) p.value = arg.substr(2);
    } else {
      p.name = arg.substr(1);
    }
  }
  if (p.flag == nullptr) {
    // A long name after one dash (`-sut=model`) is a likely slip too.
    std::string bare = p.name.substr(0, p.name.find('='));
    std::string hint = DidYouMean(bare, FlagNames(command), "--");
    if (!long_flag && FindFlag(command, bare) != nullptr) {
      hint = absl::StrCat("; did you mean --", bare, "?");
    }
    return absl::InvalidArgumentError(absl::StrCat(
        command_name, " takes no ", long_flag ? "--" : "-", p.name, hint));
  }
  return p;
}

}  // namespace

absl::StatusOr<CommandLine> ParseCommandLine(int argc, char** argv) {
  CommandLine cl;
  if (argc < 2) return absl::InvalidArgumentError("no command given");
  cl.command = argv[1];
  if (cl.command == "--help" || cl.command == "-h" || cl.command == "help") {
    cl.command = "help";
    for (int i = 2; i < argc; ++i) cl.paths.push_back(argv[i]);
    return cl;
  }
  const Command* command = FindCommand(cl.command);
  if (command == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown command \"", cl.command, "\"",
                     DidYouMean(cl.command, CommandNames(), "")));
  }
  // `CMD --help` is help for CMD, whatever else the line holds.
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--help" || arg == "-h") {
      CommandLine help;
      help.command = "help";
      help.paths = {cl.command};
      return help;
    }
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
    absl::StatusOr<ParsedFlag> parsed =
        ParseFlag(*command, cl.command, arg, long_flag);
    if (!parsed.ok()) return parsed.status();
    const std::string& name = parsed->name;
    std::optional<std::string>& value = parsed->value;
    const FlagSpec* flag = parsed->flag;
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
  for (const FlagSpec& f : command->flags) {
    if (f.required && !cl.Has(f.name)) {
      return absl::InvalidArgumentError(
          absl::StrCat(cl.command, " needs --", f.name, " (", f.help, ")"));
    }
  }
  return cl;
}

std::string Usage() {
  std::ostringstream out;
  out << "usage: schedtrace COMMAND [FLAG]... [PATH]...\n\ncommands:\n";
  for (const Command* c : Commands()) {
    out << "  " << c->name << " " << Wrap(c->synopsis, 3 + c->name.size(), 6)
        << "\n      " << Wrap(c->summary, 6, 6) << "\n";
  }
  out << "  help [COMMAND]\n      this overview, or one command with its "
         "flags\n      (also: schedtrace COMMAND --help)\n\n"
         "PATH is a trace file or a directory searched recursively for "
         "*.jsonl.\nS is a system under test: model, impl (or exec:CMD, or "
         "upstream:VERSION for schedtrace-upstream, where "
         "a command says so; model:SWITCH=on|off,... is the model with "
         "switches of model/upstream.h set against each trace's version).\nA "
         "flag takes its value as --name=VALUE or "
         "--name VALUE.\n\n"
         "exit status:\n"
         "  0    nothing failed\n"
         "  1    a trace failed\n"
         "  2    bad input (a trace that does not decode) or a bad command "
         "line\n"
         "  5    nothing ran (every trace filtered out or skipped)\n"
         "  130  interrupted by SIGINT\n"
         "  143  interrupted by SIGTERM\n";
  return out.str();
}

std::string CommandHelp(const Command& command) {
  std::ostringstream out;
  const std::string head = absl::StrCat("usage: schedtrace ", command.name);
  out << head << " " << Wrap(command.synopsis, head.size() + 1, 6) << "\n\n"
      << Wrap(command.summary, 0, 0) << "\n";
  if (command.flags.empty()) return out.str();
  // The help column: after the longest label, within reason.
  bool aligned = false;
  for (const FlagSpec& f : command.flags) aligned |= f.short_name != 0;
  size_t column = 0;
  for (const FlagSpec& f : command.flags) {
    column = std::max(column, FlagLabel(f, aligned).size());
  }
  column = std::min<size_t>(column + 4, 30);
  out << "\nflags:\n";
  for (const FlagSpec& f : command.flags) {
    std::string label = "  " + FlagLabel(f, aligned);
    std::string help =
        f.required ? absl::StrCat(f.help, " (required)") : f.help;
    if (label.size() + 2 > column) {
      out << label << "\n" << std::string(column, ' ');
    } else {
      out << label << std::string(column - label.size(), ' ');
    }
    out << Wrap(help, column, column) << "\n";
  }
  return out.str();
}

}  // namespace schedtrace::cli
