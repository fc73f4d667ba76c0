// A step in one line, for a reader: its op and what it names, with the
// fields that decide what the step does. The divergence shows the divergent
// step and the few before it this way; `explain` heads each row of a pod's
// timeline with it.
//
//   StepSummary(step)
//   // "c_add_pod default/p(uid=u1 priority=10 nodeName=n1 requests=cpu:250m)"
//   // "pod_update default/p(uid=u1 rv=1) -> (rv=2 gates=g1)"
//   // "q_move_all Node/Add precheck=[default/p]"
//   // "schedule_one permit=wait"
//   StepLine(step, 7)  // "step 7 t=3000: q_pop"
//
// A pod argument shows, each only when set: uid, resourceVersion (updates
// only: equal on both sides is a resync), priority, schedulerName (when not
// "default-scheduler"), nodeName, status.nominatedNodeName, schedulingGates,
// its containers' requests as the trace writes them ("+" between
// containers), its initContainers' (`init=`) and overhead, its
// nodeSelector, nodeAffinity/podAffinity when it has required terms, how many
// tolerations, and `deleting` for a deletionTimestamp. A node shows
// resourceVersion (updates only), allocatable (as written), unschedulable,
// taints and its
// score label. An update of one object shows the old side whole and, after
// `->`, what changed: the fields that differ, `-name` for one dropped, "(same)"
// for a resync. Keys of other arguments (q_activate's pods, a pod key) are
// shown as written. Deterministic: argument order, then the fixed field order
// above; maps in key order.
#ifndef SCHEDTRACE_RUN_STEP_SUMMARY_H_
#define SCHEDTRACE_RUN_STEP_SUMMARY_H_

#include <string>
#include <vector>

#include "core/trace.h"

namespace schedtrace {

// The keys (`ns/name`) of the pods a step names as arguments, in argument
// order, each once.
std::vector<std::string> StepPodKeys(const Step& step);

// The step in one line (no `t`, no line number).
std::string StepSummary(const Step& step);

// "step N t=T: " + StepSummary(step): a step among others (the steps before
// a divergence).
std::string StepLine(const Step& step, int step_no);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_STEP_SUMMARY_H_
