#include "cli/command.h"

#include <algorithm>
#include <iostream>
#include <map>

namespace schedtrace::cli {
namespace {

// Function-local so that registrars in any file may run first.
std::map<std::string, Command, std::less<>>& Registry() {
  static auto* registry = new std::map<std::string, Command, std::less<>>();
  return *registry;
}

std::string& CurrentCommand() {
  static auto* name = new std::string();
  return *name;
}

}  // namespace

CommandRegistrar::CommandRegistrar(Command command) {
  std::string name = command.name;
  Registry().emplace(std::move(name), std::move(command));
}

std::vector<const Command*> Commands() {
  std::vector<const Command*> all;
  for (const auto& [name, command] : Registry()) all.push_back(&command);
  std::stable_sort(
      all.begin(), all.end(),
      [](const Command* a, const Command* b) { return a->order < b->order; });
  return all;
}

const Command* FindCommand(std::string_view name) {
  auto it = Registry().find(name);
  return it == Registry().end() ? nullptr : &it->second;
}

const FlagSpec* FindFlag(const Command& command, std::string_view name) {
  for (const FlagSpec& flag : command.flags) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

void SetCurrentCommand(std::string_view name) {
  CurrentCommand() = std::string(name);
}

int UsageError(const std::string& message) {
  std::cerr << "schedtrace: " << message << "\n";
  if (CurrentCommand().empty()) {
    std::cerr << "run 'schedtrace help' for the commands\n";
  } else {
    std::cerr << "run 'schedtrace " << CurrentCommand()
              << " --help' for its flags\n";
  }
  return 2;
}

}  // namespace schedtrace::cli
