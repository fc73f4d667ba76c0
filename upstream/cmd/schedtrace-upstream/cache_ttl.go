//go:build k8s_1_35 || (k8s_1_36 && revert_assumed_pods_never_expire)

package main

// The cache with the assumed pods' ttl: v1.35's, and v1.36's in a build that
// gives it back (upstream/reverts/v1.36.3/assumed_pods_never_expire.patch,
// built by upstream/revert-check with the tag
// revert_assumed_pods_never_expire). cache_k136.go and calls_k137.go serve
// the cache without one.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
)

// The cache with the header's ttl, without its own goroutine.
func newCache(c *config) cache.Cache { return cache.SchedtraceNewCache(ms(c.AssumedPodTTLMs)) }

// cache.FinishBinding at the step's time.
func (l *cacheLayer) finishBinding(pod *v1.Pod) error {
	return cache.SchedtraceFinishBinding(l.c, l.logger, pod, now())
}

// cache.cleanupAssumedPods at the step's time.
func (l *cacheLayer) cleanup() { cache.SchedtraceCleanupAssumedPods(l.c, l.logger, now()) }
