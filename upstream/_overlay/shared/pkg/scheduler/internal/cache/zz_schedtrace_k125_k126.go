//go:build k8s_1_25 || k8s_1_26

package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay): a cache that does not start its own cleanup goroutine
// (a trace calls cleanupAssumedPods at its own time), and FinishBinding and
// the cleanup at the trace's clock.

import (
	"time"

	v1 "k8s.io/api/core/v1"
)

// SchedtraceNewCache is New without run(): no cleanup goroutine.
func SchedtraceNewCache(ttl time.Duration) Cache {
	return newCache(ttl, cleanAssumedPeriod, nil)
}

// SchedtraceFinishBinding is FinishBinding at the given time.
func SchedtraceFinishBinding(c Cache, pod *v1.Pod, now time.Time) error {
	return c.(*cacheImpl).finishBinding(pod, now)
}

// SchedtraceCleanupAssumedPods is cleanupAssumedPods(now).
func SchedtraceCleanupAssumedPods(c Cache, now time.Time) {
	c.(*cacheImpl).cleanupAssumedPods(now)
}
