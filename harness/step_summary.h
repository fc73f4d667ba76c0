// A step in one line, for a reader: its op and what it names (pods by key,
// nodes by name, plugins, the event, the nominated node). The divergence
// shows the divergent step and the few before it this way; `explain` heads
// each row of a pod's timeline with it.
//
//   StepSummary(step)  // "pod_update default/p node n1 [NodeResourcesFit]"
#ifndef SCHEDTRACE_HARNESS_STEP_SUMMARY_H_
#define SCHEDTRACE_HARNESS_STEP_SUMMARY_H_

#include <string>
#include <vector>

#include "harness/trace.h"

namespace schedtrace {

// The keys (`ns/name`) of the pods a step names as arguments, in argument
// order, each once.
std::vector<std::string> StepPodKeys(const Step& step);

// The step in one line (no `t`, no line number).
std::string StepSummary(const Step& step);

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_STEP_SUMMARY_H_
