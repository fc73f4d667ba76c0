//go:build k8s_1_35 || (k8s_1_36 && revert_assumed_pods_never_expire)

package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay), for a cache with the assumed pods' ttl: v1.35's, and
// v1.36's in a build of upstream/revert-check that gives it back
// (upstream/reverts/v1.36.3/assumed_pods_never_expire.patch, the tag
// revert_assumed_pods_never_expire). FinishBinding and the cleanup at the
// trace's clock, and the read of bindingFinished; each era's
// SchedtraceNewCache builds the cache (v1.35/, v1.36/). Nothing here changes
// what the cache does.

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
)

// SchedtraceFinishBinding is FinishBinding at the given time.
func SchedtraceFinishBinding(c Cache, logger klog.Logger, pod *v1.Pod, now time.Time) error {
	return c.(*cacheImpl).finishBinding(logger, pod, now)
}

// SchedtraceCleanupAssumedPods is cleanupAssumedPods(now).
func SchedtraceCleanupAssumedPods(c Cache, logger klog.Logger, now time.Time) {
	c.(*cacheImpl).cleanupAssumedPods(logger, now)
}

// schedtraceBindingFinished returns the pods of the podStates whose
// bindingFinished is set. The caller holds cache.mu.
func (cache *cacheImpl) schedtraceBindingFinished() []*v1.Pod {
	var pods []*v1.Pod
	for _, ps := range cache.podStates {
		if ps.bindingFinished {
			pods = append(pods, ps.pod)
		}
	}
	return pods
}
