#include "cli/upstream_flag.h"

#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"

namespace schedtrace::cli {

absl::StatusOr<std::optional<std::string>> UpstreamFlag(const CommandLine& cl) {
  if (!cl.Has("upstream")) return std::nullopt;
  const std::string v = cl.Last("upstream", "");
  if (v.empty() || !IsKnownUpstream(v)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--upstream takes ", KnownUpstreamsText(), ", not \"", v, "\""));
  }
  return v;
}

void OverrideUpstream(const std::optional<std::string>& upstream,
                      TraceHeader& header) {
  if (upstream) header.upstream = *upstream;
}

}  // namespace schedtrace::cli
