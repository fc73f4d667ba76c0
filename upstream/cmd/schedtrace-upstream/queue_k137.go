//go:build k8s_1_37

package main

import (
	v1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// queueingHintsOn is true: SchedulerQueueingHints is no longer a gate.
func queueingHintsOn() bool { return true }

// assignedPodAdded is what Scheduler.addAssignedPodToCache calls.
func (l *queueLayer) assignedPodAdded(pod *v1.Pod) {
	l.q.MoveAllToActiveOrBackoffQueue(l.logger, framework.EventAssignedPodAdd, nil, pod, nil)
}

// assignedPodUpdated is what Scheduler.updateAssignedPodInCache calls for
// one event of the update.
func (l *queueLayer) assignedPodUpdated(old, pod *v1.Pod, ev fwk.ClusterEvent) {
	l.q.MoveAllToActiveOrBackoffQueue(l.logger, ev, old, pod, nil)
}
