// The model with some switches of model/upstream.h set against its version:
// each trace runs on the profile its header names (UpstreamFor, refusals
// included), with the named switches overridden. `upstream/revert-check`
// judges a scratch build of upstream with one change reverted against it
// (`--sut=model:queueing_hints=off`).
//
//   absl::StatusOr<std::vector<SwitchSetting>> s =
//       ParseSwitchSettings("move_request_cycle_removed=off");
//   std::unique_ptr<System> m = NewSystemWithSwitches(*s);
#ifndef SCHEDTRACE_MODEL_SWITCHED_SYSTEM_H_
#define SCHEDTRACE_MODEL_SWITCHED_SYSTEM_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "core/system.h"
#include "model/upstream.h"

namespace schedtrace::model {

struct SwitchSetting {
  const UpstreamSwitch* which;
  bool value;
};

// "NAME=on|off[,NAME=on|off]...", NAME a switch of UpstreamSwitches();
// InvalidArgument naming the part that is not.
absl::StatusOr<std::vector<SwitchSetting>> ParseSwitchSettings(
    std::string_view spec);

std::unique_ptr<System> NewSystemWithSwitches(
    std::vector<SwitchSetting> settings);

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_SWITCHED_SYSTEM_H_
