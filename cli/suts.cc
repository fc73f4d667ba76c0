#include "cli/suts.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/child_process.h"
#include "impl/system.h"
#include "model/system.h"

namespace schedtrace::cli {
namespace {

ChildOptions& ExecOptions() {
  static ChildOptions options;
  return options;
}

}  // namespace

absl::StatusOr<std::unique_ptr<System>> MakeSystem(const std::string& name) {
  if (name == "model") return model::NewSystem();
  if (name == "impl") return impl::NewSystem();
  if (name.rfind("exec:", 0) == 0) {
    std::string command = name.substr(5);
    if (command.find_first_not_of(" \t") == std::string::npos) {
      return absl::InvalidArgumentError(
          "--sut=exec:CMD needs a command after \"exec:\"");
    }
    return std::make_unique<ChildProcess>(std::move(command), ExecOptions());
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown system \"", name, "\" (model, impl or exec:CMD)"));
}

absl::Status ApplySutFlags(const CommandLine& cl) {
  int timeout = kDefaultTimeoutMs;
  if (cl.Has("timeout-ms") &&
      (!absl::SimpleAtoi(cl.Last("timeout-ms", ""), &timeout) ||
       timeout <= 0)) {
    return absl::InvalidArgumentError(
        "--timeout-ms takes a positive whole number of milliseconds");
  }
  ExecOptions().timeout_ms = timeout;
  return absl::OkStatus();
}

ReportsState ReportsOf(System& system) {
  auto* child = dynamic_cast<ChildProcess*>(&system);
  if (child == nullptr) return nullptr;
  return [child](std::string_view path) {
    return child->capabilities().ReportsState(path);
  };
}

std::optional<std::string> DeclaredUpstream(System& system) {
  auto* child = dynamic_cast<ChildProcess*>(&system);
  if (child == nullptr) return std::nullopt;
  return child->capabilities().upstream;
}

}  // namespace schedtrace::cli
