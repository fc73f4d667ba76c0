// The Kubernetes objects a trace carries (pods and nodes, core/objects.h)
// as the JSON of their v1 types: read with every field named by its path in
// errors, written as Go's encoding/json writes them, empty fields omitted.
// Part of the codec's JSON layer (json_codec.h includes it).
//
//   absl::StatusOr<Pod> pod = PodFromJson(j, "t.jsonl:3: ", "pod");
//   nlohmann::json again = PodToJson(*pod);
#ifndef SCHEDTRACE_CORE_OBJECTS_JSON_H_
#define SCHEDTRACE_CORE_OBJECTS_JSON_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/objects.h"
#include "nlohmann/json.hpp"

namespace schedtrace {

nlohmann::json PodToJson(const Pod& pod);
nlohmann::json NodeToJson(const Node& node);

// `where` prefixes error messages ("file:line: "); `field` is the path of
// `j` in them ("pod", "old").
absl::StatusOr<Pod> PodFromJson(const nlohmann::json& j,
                                const std::string& where,
                                const std::string& field);
absl::StatusOr<Node> NodeFromJson(const nlohmann::json& j,
                                  const std::string& where,
                                  const std::string& field);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_OBJECTS_JSON_H_
