// Checks that the pods and nodes of a trace are Kubernetes JSON: that
// json.Unmarshal into upstream's v1.Pod / v1.Node (k8s.io/api v0.26) would
// take them, so that an implementation in Go can read every trace we write.
//
// The checker mirrors the Go types of the fields traces use (and the common
// ones around them) and reports, with the field's path:
//   - a JSON type Go refuses: a string where the field is an int32, a float
//     or an out-of-range number for an integer, a number for a bool, ...;
//   - a timestamp (metav1.Time: creationTimestamp, deletionTimestamp,
//     lastTransitionTime, ...) that time.Parse(time.RFC3339, ...) refuses
//     (core/go_rfc3339.h: "2023-01-01T00:00:07Z", a fraction, a one-digit
//     hour, "Z" or an offset up to "+24:60");
//   - a quantity (resources, overhead, capacity, allocatable) that is not a
//     string in resource.ParseQuantity's grammar. Upstream also accepts a bare
//     JSON number; we require the string Go itself writes;
//   - a condition status other than True, False or Unknown;
//   - a key v1.Pod / v1.Node has no field for (Go ignores those, the
//     apiserver's strict field validation does not, and a misspelt key is a
//     silent no-op in Go).
// `null` is accepted anywhere, as json.Unmarshal accepts it.
//
//   std::vector<std::string> problems = CheckTraceK8sJson(text, "gen.jsonl");
//   // gen.jsonl:7: pod.metadata.deletionTimestamp: "2026" is not an RFC 3339
//   // time
#ifndef SCHEDTRACE_TESTKIT_K8S_JSON_CHECK_H_
#define SCHEDTRACE_TESTKIT_K8S_JSON_CHECK_H_

#include <string>
#include <string_view>
#include <vector>

#include "nlohmann/json.hpp"

namespace schedtrace {

// time.Parse(time.RFC3339, s) succeeds (as metav1.Time.UnmarshalJSON).
bool IsRfc3339(std::string_view s);

// s is a quantity in resource.ParseQuantity's documented grammar:
// [+-] (digits [. [digits]] | . digits) [suffix], the suffix one of
// Ki Mi Gi Ti Pi Ei, n u m k M G T P E, or e/E and a signed int32 exponent.
bool IsK8sQuantity(std::string_view s);

// The problems of one object; `path` prefixes every message ("pod").
std::vector<std::string> CheckPodJson(const nlohmann::json& pod,
                                      const std::string& path);
std::vector<std::string> CheckNodeJson(const nlohmann::json& node,
                                       const std::string& path);

// Every pod and node a trace's step lines carry (pod, old, new, node; a
// `$ref` stands for a pod written in full earlier and is skipped). The header
// and `#`/blank lines are skipped; an unparsable line is a problem.
// Messages are "path:line: field: what is wrong".
std::vector<std::string> CheckTraceK8sJson(std::string_view text,
                                           const std::string& path);

}  // namespace schedtrace

#endif  // SCHEDTRACE_TESTKIT_K8S_JSON_CHECK_H_
