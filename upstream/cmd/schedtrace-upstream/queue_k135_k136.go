//go:build k8s_1_35 || k8s_1_36

package main

import (
	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// queueingHintsOn is SchedulerQueueingHints, GA and locked on in v1.35 and
// v1.36: only a build with its default reverted (upstream/revert-check)
// runs with it off.
func queueingHintsOn() bool {
	return utilfeature.DefaultFeatureGate.Enabled(features.SchedulerQueueingHints)
}

// assignedPodAdded is what Scheduler.addAssignedPodToCache calls:
// MoveAllToActiveOrBackoffQueue with EventAssignedPodAdd, or with
// SchedulerQueueingHints off AssignedPodAdded, which pre-filters.
func (l *queueLayer) assignedPodAdded(pod *v1.Pod) {
	if queueingHintsOn() {
		l.q.MoveAllToActiveOrBackoffQueue(l.logger, framework.EventAssignedPodAdd, nil, pod, nil)
		return
	}
	l.q.AssignedPodAdded(l.logger, pod)
}

// assignedPodUpdated is what Scheduler.updateAssignedPodInCache calls for
// one event of the update: MoveAllToActiveOrBackoffQueue, or with
// SchedulerQueueingHints off AssignedPodUpdated.
func (l *queueLayer) assignedPodUpdated(old, pod *v1.Pod, ev fwk.ClusterEvent) {
	if queueingHintsOn() {
		l.q.MoveAllToActiveOrBackoffQueue(l.logger, ev, old, pod, nil)
		return
	}
	l.q.AssignedPodUpdated(l.logger, old, pod, ev)
}
