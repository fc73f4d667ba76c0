#include "core/objects.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace schedtrace {

// The date is H. Hinnant's civil_from_days (proleptic Gregorian calendar).
std::string K8sTime(int64_t unix_seconds) {
  int64_t days = unix_seconds / 86400;
  int64_t secs = unix_seconds % 86400;
  if (secs < 0) {
    secs += 86400;
    --days;
  }
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return absl::StrFormat("%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day,
                         secs / 3600, secs / 60 % 60, secs % 60);
}

absl::Status CheckRequestsSummable(const Pod& pod) {
  // `field` names the list only for a quantity out of range: the systems
  // check every pod they count.
  auto check = [&](const ResourceList& list, auto field) -> absl::Status {
    for (const auto& [name, q] : list) {
      if (WithinExactSumRange(q)) continue;
      return absl::InvalidArgumentError(absl::StrCat(
          "pod ", pod.Key(), ": field ", field(), ".", name, ": quantity \"",
          q.text(), "\" is beyond what schedtrace sums exactly (10^-",
          kExactSumDigits, " to 10^", kExactSumDigits,
          "): from v1.27 a pod's requests are summed as exact quantities "
          "(kubernetes#115367)"));
    }
    return absl::OkStatus();
  };
  for (size_t i = 0; i < pod.containers.size(); ++i) {
    absl::Status s = check(pod.containers[i].requests, [i] {
      return absl::StrCat("spec.containers[", i, "].resources.requests");
    });
    if (!s.ok()) return s;
  }
  for (size_t i = 0; i < pod.init_containers.size(); ++i) {
    absl::Status s = check(pod.init_containers[i].requests, [i] {
      return absl::StrCat("spec.initContainers[", i, "].resources.requests");
    });
    if (!s.ok()) return s;
  }
  return check(pod.overhead, [] { return "spec.overhead"; });
}

}  // namespace schedtrace
