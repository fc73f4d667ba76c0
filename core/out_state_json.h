// A step's out (core/trace.h StepOut) and a system's state
// (core/state.h) as the JSON a trace's `expect` and the child-process
// protocol carry (docs/FORMAT.md): the replayer compares them as JSON, the
// reports print them. Part of the codec's JSON layer (json_codec.h
// includes it).
//
//   nlohmann::json j = StateToJson(system.Snapshot());
//   absl::StatusOr<State> back = StateFromJson(j);
#ifndef SCHEDTRACE_CORE_OUT_STATE_JSON_H_
#define SCHEDTRACE_CORE_OUT_STATE_JSON_H_

#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/trace.h"
#include "nlohmann/json.hpp"

namespace schedtrace {

nlohmann::json OutToJson(const StepOut& out);
nlohmann::json StateToJson(const State& state);

// Errors name the field by its path ("out.result.pod", "state.queue...").
absl::StatusOr<StepOut> OutFromJson(const nlohmann::json& j);
absl::StatusOr<State> StateFromJson(const nlohmann::json& j);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_OUT_STATE_JSON_H_
