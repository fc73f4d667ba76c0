//go:build k8s_1_37

package main

// The calls of v1.37 whose signatures differ in v1.35 or v1.36.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
)

// PriorityQueue.Add.
func (l *queueLayer) add(pod *v1.Pod) { l.q.Add(l.ctx, pod) }

// PriorityQueue.Update.
func (l *queueLayer) update(old, pod *v1.Pod) { l.q.Update(l.ctx, old, pod) }

// PriorityQueue.Delete, which takes a logger since v1.37.
func (l *queueLayer) delete(pod *v1.Pod) { l.q.Delete(l.logger, pod) }

// PriorityQueue.Pop, never waiting.
func (l *queueLayer) tryPop() (*framework.QueuedPodInfo, error) {
	return l.q.SchedtraceTryPop(l.logger)
}

// PriorityQueue.AddUnschedulablePodIfNotPresent, the v1.37 name of
// AddUnschedulableIfNotPresent.
func (l *queueLayer) addUnschedulable(pInfo *framework.QueuedPodInfo, cycle int64) error {
	return l.q.AddUnschedulablePodIfNotPresent(l.logger, pInfo, cycle)
}

// The events updatePodInCache moves pods with:
// PodSchedulingPropertiesChange(new, old, false), false as the pod updated is
// not the pod being requeued.
func assignedPodEvents(pod, old *v1.Pod) []fwk.ClusterEvent {
	return framework.PodSchedulingPropertiesChange(pod, old, false)
}

// cache.New as scheduler.New calls it; its goroutine only updates metrics.
func newCache(*config) cache.Cache {
	return cache.New(context.Background(), nil,
		utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload),
		utilfeature.DefaultFeatureGate.Enabled(features.CompositePodGroup))
}

// The cache has no FinishBinding since v1.36: nothing is called, nothing
// changes.
func (l *cacheLayer) finishBinding(*v1.Pod) error { return nil }

// The cache has no cleanupAssumedPods since v1.36: assumed pods never
// expire.
func (l *cacheLayer) cleanup() {}

// The features SchedulingGates is built with: it reads none since v1.37
// (SchedulerQueueingHints is no longer a gate).
func schedulingGatesFeatures() feature.Features { return feature.Features{} }

// hasPreQueueingHintsGate is true: SchedulerPreQueueingHints (alpha, off by
// default) came with v1.37.
const hasPreQueueingHintsGate = true

// failureHandlerPatchesInformerPod: handleSchedulingFailure computes its
// status patch from the informer's pod that replaced the failed one (from v1.36).
const failureHandlerPatchesInformerPod = true
