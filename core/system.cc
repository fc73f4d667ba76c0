#include "core/system.h"

#include "absl/strings/cord.h"
#include "absl/types/optional.h"

namespace schedtrace {

absl::Status MarkNotApplicable(absl::Status status, std::string_view reason) {
  status.SetPayload(std::string(kNotApplicablePayload),
                    absl::Cord(std::string(reason)));
  return status;
}

std::optional<std::string> NotApplicableReason(const absl::Status& status) {
  absl::optional<absl::Cord> reason =
      status.GetPayload(std::string(kNotApplicablePayload));
  if (!reason) return std::nullopt;
  return std::string(*reason);
}

}  // namespace schedtrace
