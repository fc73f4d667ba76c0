#include "cli/suts.h"

#include <sys/stat.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cli/default_paths.h"
#include "impl/system.h"
#include "model/switched_system.h"
#include "model/system.h"
#include "run/child_process.h"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

ChildOptions& ExecOptions() {
  static ChildOptions options;
  return options;
}

// The header refusals of the system named `name` in this process's run
// (run/header_refusals.h), one per name, made on first use.
std::shared_ptr<HeaderRefusals> RefusalsOf(const std::string& name) {
  static std::mutex mu;
  static auto* by_name =
      new std::map<std::string, std::shared_ptr<HeaderRefusals>>();
  std::lock_guard<std::mutex> lock(mu);
  std::shared_ptr<HeaderRefusals>& r = (*by_name)[name];
  if (r == nullptr) r = std::make_shared<HeaderRefusals>();
  return r;
}

// The child options of the system named `name`.
ChildOptions OptionsFor(const std::string& name) {
  ChildOptions options = ExecOptions();
  options.refusals = RefusalsOf(name);
  return options;
}

// `path` quoted for /bin/sh.
std::string ShellQuoted(const std::string& path) {
  std::string q = "'";
  for (char c : path) {
    if (c == '\'') {
      q += "'\\''";
    } else {
      q += c;
    }
  }
  return q + "'";
}

absl::StatusOr<std::unique_ptr<System>> MakeUpstream(
    const std::string& version) {
  static const std::regex kVersion(R"(v1\.[0-9]+\.[0-9]+)");
  if (!std::regex_match(version, kVersion)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--sut=upstream:VERSION needs a kube-scheduler version such as "
        "v1.26.7, got \"",
        version, "\""));
  }
  const std::string binary = UpstreamBinary(
      std::getenv("SCHEDTRACE_UPSTREAM_DIR"), ExecutableDir(), version);
  struct stat st;
  if (stat(binary.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return absl::NotFoundError(absl::StrCat(
        "upstream:", version, ": ", binary,
        " is not built (build it from the source tree: upstream/build ",
        version, "; or set SCHEDTRACE_UPSTREAM_DIR to where it is)"));
  }
  return std::make_unique<ChildProcess>(ShellQuoted(binary),
                                        OptionsFor("upstream:" + version));
}

}  // namespace

std::string UpstreamBinary(const char* env, std::string_view exe_dir,
                           std::string_view version) {
  std::string dir = env != nullptr && *env != '\0'
                        ? std::string(env)
                        : absl::StrCat(std::string(exe_dir), "/upstream");
  return absl::StrCat(dir, "/schedtrace-upstream-", std::string(version));
}

absl::StatusOr<std::unique_ptr<System>> MakeSystem(const std::string& name) {
  if (name == "model") return model::NewSystem();
  if (name.rfind("model:", 0) == 0) {
    absl::StatusOr<std::vector<model::SwitchSetting>> settings =
        model::ParseSwitchSettings(name.substr(6));
    if (!settings.ok()) return settings.status();
    return model::NewSystemWithSwitches(*std::move(settings));
  }
  if (name == "impl") return impl::NewSystem();
  if (name.rfind("upstream:", 0) == 0) return MakeUpstream(name.substr(9));
  if (name.rfind("exec:", 0) == 0) {
    std::string command = name.substr(5);
    if (command.find_first_not_of(" \t") == std::string::npos) {
      return absl::InvalidArgumentError(
          "--sut=exec:CMD needs a command after \"exec:\"");
    }
    return std::make_unique<ChildProcess>(std::move(command), OptionsFor(name));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown system \"", name,
                   "\" (model, model:SWITCH=on|off, impl, exec:CMD or "
                   "upstream:VERSION)"));
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

std::string RefusalsSaved(const std::string& sut) {
  if (sut.rfind("exec:", 0) != 0 && sut.rfind("upstream:", 0) != 0) return "";
  std::string out;
  for (const auto& [reason, n] : RefusalsOf(sut)->TakeSaved()) {
    absl::StrAppend(&out, SanitizeLine(sut), ": not started for ", n, " more ",
                    n == 1 ? "trace" : "traces",
                    ", skipped as its earlier header reply answered: ",
                    SanitizeLine(reason), "\n");
  }
  return out;
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
