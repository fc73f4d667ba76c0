// What a step's out (as JSON, either side's) says about a pod: the pods it
// names, and the facts about one of them in a few words. The timeline
// (run/timeline.h) reads both sides' outs through these.
//
//   OutFacts(out, "d/a", {"d/a"});  // "cycle: scheduled on n1, bound to n1"
#ifndef SCHEDTRACE_RUN_OUT_FACTS_H_
#define SCHEDTRACE_RUN_OUT_FACTS_H_

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace schedtrace {

// Adds to `keys` (once each, in order) the pods an out names: popped, the
// cycle's pod, bindings, status updates, events.
void PodsOfOut(const nlohmann::json& out, std::vector<std::string>& keys);

// What a step's out says about `pod`, in a few words ("cycle: scheduled on
// n1, status Unschedulable"); `own` are the step's pod arguments, to which
// an `error` or `fatal` of the step belongs. "" when nothing.
std::string OutFacts(const nlohmann::json& out, const std::string& pod,
                     const std::vector<std::string>& own);

// The pod a step's out popped (`popped`, else `result.pod`), "" for none.
std::string PoppedBy(const nlohmann::json& out);

// `attempts` of an out as written.
std::optional<int> AttemptsIn(const nlohmann::json& out);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_OUT_FACTS_H_
