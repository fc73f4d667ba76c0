//go:build k8s_1_35

package main

// The calls of v1.35 whose signatures later versions change.

import (
	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
)

// PriorityQueue.Add.
func (l *queueLayer) add(pod *v1.Pod) { l.q.Add(l.logger, pod) }

// PriorityQueue.Update.
func (l *queueLayer) update(old, pod *v1.Pod) { l.q.Update(l.logger, old, pod) }

// PriorityQueue.Delete.
func (l *queueLayer) delete(pod *v1.Pod) { l.q.Delete(pod) }

// PriorityQueue.Pop, never waiting.
func (l *queueLayer) tryPop() (*framework.QueuedPodInfo, error) {
	return l.q.SchedtraceTryPop(l.logger)
}

// PriorityQueue.AddUnschedulableIfNotPresent.
func (l *queueLayer) addUnschedulable(pInfo *framework.QueuedPodInfo, cycle int64) error {
	return l.q.AddUnschedulableIfNotPresent(l.logger, pInfo, cycle)
}

// The events updatePodInCache moves pods with: PodSchedulingPropertiesChange.
func assignedPodEvents(pod, old *v1.Pod) []fwk.ClusterEvent {
	return framework.PodSchedulingPropertiesChange(pod, old)
}

// The features SchedulingGates is built with: SchedulerQueueingHints at its
// default, on.
func schedulingGatesFeatures() feature.Features {
	return feature.Features{EnableSchedulingQueueHint: true}
}

// hasPreQueueingHintsGate is false: SchedulerPreQueueingHints is v1.37's; a
// header naming it here names no gate and is ignored.
const hasPreQueueingHintsGate = false

// failureHandlerPatchesInformerPod: handleSchedulingFailure computes its
// status patch from the informer's pod that replaced the failed one (v1.35 patches the object it was given).
const failureHandlerPatchesInformerPod = false
