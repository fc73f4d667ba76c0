#include "cli/gen_flags.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace schedtrace::cli {

std::vector<FlagSpec> GenFlagSpecs(const std::string& seed_help) {
  std::vector<FlagSpec> specs;
  for (const GenFlag& f : GenFlags()) {
    FlagSpec spec;
    spec.name = std::string(f.name);
    spec.help = f.name == "seed" && !seed_help.empty() ? seed_help
                                                       : std::string(f.help);
    if (!f.default_value.empty()) {
      absl::StrAppend(&spec.help, " (default ", std::string(f.default_value),
                      ")");
    }
    spec.boolean = f.boolean;
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::vector<FlagSpec> JoinFlags(
    std::initializer_list<std::vector<FlagSpec>> lists) {
  std::vector<FlagSpec> all;
  for (const std::vector<FlagSpec>& list : lists) {
    all.insert(all.end(), list.begin(), list.end());
  }
  return all;
}

absl::StatusOr<GenOptions> GenOptionsFromFlags(const CommandLine& cl) {
  std::vector<std::pair<std::string, std::string>> given;
  for (const GenFlag& f : GenFlags()) {
    const std::string name(f.name);
    if (cl.Has(name)) given.emplace_back(name, cl.Last(name, ""));
  }
  return ApplyGenFlags(given);
}

std::string FirstGenFlag(const CommandLine& cl) {
  for (const GenFlag& f : GenFlags()) {
    if (cl.Has(std::string(f.name))) return std::string(f.name);
  }
  return "";
}

}  // namespace schedtrace::cli
