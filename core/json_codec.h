// The codec's JSON layer, for the few places that need JSON values rather
// than lines: the replayer's comparison, the report writers, the child
// process. Everything else uses codec.h. Here: the header and steps; the
// objects (objects_json.h) and the out and state (out_state_json.h) in
// their own files, included.
#ifndef SCHEDTRACE_CORE_JSON_CODEC_H_
#define SCHEDTRACE_CORE_JSON_CODEC_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/objects.h"
#include "core/objects_json.h"
#include "core/out_state_json.h"
#include "core/state.h"
#include "core/trace.h"
#include "nlohmann/json.hpp"

namespace schedtrace {

// A step's `expect`, as written in the trace.
struct Expect {
  std::optional<nlohmann::json> out;
  std::optional<nlohmann::json> state;
};

// A JSON object's members in the order a trace line writes them
// (nlohmann::json sorts its keys; codec.cc writes these in order).
using JsonMembers = std::vector<std::pair<std::string, nlohmann::json>>;

// schedtrace, name, layer, upstream, source, description, seed, config.
JsonMembers HeaderMembers(const TraceHeader& header);
// t, op, the op's arguments in their natural order (pod before node, old
// before new), then expect (out before state), so a step reads top-down.
JsonMembers StepMembers(const Step& step, bool with_expect);

// The same as JSON values (keys sorted, as nlohmann::json keeps them).
nlohmann::json HeaderToJson(const TraceHeader& header);
nlohmann::json StepToJson(const Step& step, bool with_expect);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_JSON_CODEC_H_
