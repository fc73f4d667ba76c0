// Upstream's own violations of our properties: the registry, with the
// versions (core/upstream_versions.h) that commit each.
//
// The model follows upstream faithfully, bugs included, so a property can
// fire on it. Each entry names the property, the upstream issue, a minimal
// trace that shows it, and a matcher that recognizes it in an observation.
// A violation that an entry matches is reported apart from failures, and
// counted; any other violation is a failure.
#ifndef SCHEDTRACE_PROPERTIES_KNOWN_VIOLATIONS_H_
#define SCHEDTRACE_PROPERTIES_KNOWN_VIOLATIONS_H_

#include <string_view>
#include <vector>

#include "properties/properties.h"

namespace schedtrace::properties {

struct KnownViolation {
  std::string_view id;        // short stable name
  int property;               // numbered as in properties/properties.h
  std::string_view upstream;  // the upstream issue or PR
  std::string_view trace;     // a minimal trace showing it
  std::string_view summary;
  bool (*matches)(const Observation& o, const Violation& v);
  // The upstream versions that commit it, oldest first. On another version
  // the same violation is a failure.
  std::vector<std::string_view> versions;

  bool CommittedBy(std::string_view version) const;
};

const std::vector<KnownViolation>& KnownViolations();

// The entry that explains `v` on `version` (an effective version, e.g.
// "v1.26.7"), or null when `v` is a real failure there.
const KnownViolation* Classify(const Observation& o, const Violation& v,
                               std::string_view version);

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_KNOWN_VIOLATIONS_H_
