#include "model/switched_system.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/delegating_system.h"
#include "model/system.h"

namespace schedtrace::model {

namespace {

// Configure picks the profile from the header, sets the switches and runs
// the trace on a model forced to that profile; the rest is the model's.
class SwitchedSystem : public DelegatingSystem {
 public:
  explicit SwitchedSystem(std::vector<SwitchSetting> settings)
      : DelegatingSystem("model"), settings_(std::move(settings)) {}

  absl::Status Configure(const TraceHeader& header) override {
    absl::StatusOr<Upstream> up = UpstreamFor(header);
    if (!up.ok()) return up.status();
    for (const SwitchSetting& s : settings_) (*up).*(s.which->field) = s.value;
    return Delegate(NewSystemOnProfile(*std::move(up)), header);
  }

 private:
  std::vector<SwitchSetting> settings_;
};

}  // namespace

absl::StatusOr<std::vector<SwitchSetting>> ParseSwitchSettings(
    std::string_view spec) {
  std::vector<SwitchSetting> out;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string_view::npos) end = spec.size();
    const std::string part(spec.substr(start, end - start));
    start = end + 1;
    const size_t eq = part.find('=');
    const std::string name = part.substr(0, eq);
    const std::string value =
        eq == std::string::npos ? "" : part.substr(eq + 1);
    const UpstreamSwitch* which = nullptr;
    for (const UpstreamSwitch& s : UpstreamSwitches()) {
      if (s.name == name) which = &s;
    }
    if (which == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("model: \"", part,
                       "\" names no switch of model/upstream.h (NAME=on|off)"));
    }
    if (value != "on" && value != "off") {
      return absl::InvalidArgumentError(absl::StrCat(
          "model: \"", part, "\" sets the switch to neither on nor off"));
    }
    out.push_back({which, value == "on"});
  }
  return out;
}

std::unique_ptr<System> NewSystemWithSwitches(
    std::vector<SwitchSetting> settings) {
  return std::make_unique<SwitchedSystem>(std::move(settings));
}

}  // namespace schedtrace::model
