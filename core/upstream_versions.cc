#include "core/upstream_versions.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace schedtrace {

const std::vector<std::string>& KnownUpstreams() {
  static const auto* versions = new std::vector<std::string>{
      "v1.25.12", "v1.26.7", "v1.30.12", "v1.35.4", "v1.36.3", "v1.37.2"};
  return *versions;
}

bool IsKnownUpstream(std::string_view version) {
  if (version.empty()) return true;
  const std::vector<std::string>& known = KnownUpstreams();
  return std::find(known.begin(), known.end(), version) != known.end();
}

std::string_view EffectiveUpstream(std::string_view version) {
  return version.empty() ? kDefaultUpstream : version;
}

bool UpstreamHasSchedulingGates(std::string_view version) {
  return EffectiveUpstream(version) != "v1.25.12";
}

bool UpstreamSumsRequestQuantities(std::string_view version) {
  return UpstreamAtLeast(version, "v1.30.12");
}

bool UpstreamTracksPodsInFlight(std::string_view version) {
  return UpstreamAtLeast(version, "v1.35.4");
}

bool UpstreamAtLeast(std::string_view version, std::string_view since) {
  const std::vector<std::string>& known = KnownUpstreams();
  const auto at =
      std::find(known.begin(), known.end(), EffectiveUpstream(version));
  const auto from = std::find(known.begin(), known.end(), since);
  return at != known.end() && from != known.end() && at >= from;
}

std::string KnownUpstreamsText() {
  const std::vector<std::string>& known = KnownUpstreams();
  std::string text;
  for (size_t i = 0; i < known.size(); ++i) {
    if (i > 0) text += i + 1 == known.size() ? " or " : ", ";
    text += known[i];
  }
  return text;
}

}  // namespace schedtrace
