package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay): a cache that does not start its own cleanup goroutine
// (a trace calls cleanupAssumedPods at its own time), FinishBinding and the
// cleanup at the trace's clock, and reads of the cache's unexported state.
// Nothing here changes what the cache does.

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// SchedtraceNewCache is New without run(): no cleanup goroutine, and no API
// dispatcher (SchedulerAsyncAPICalls plays no part in the cache's ops).
func SchedtraceNewCache(ttl time.Duration) Cache {
	return newCache(context.Background(), ttl, cleanAssumedPeriod, nil)
}

// SchedtraceFinishBinding is FinishBinding at the given time.
func SchedtraceFinishBinding(c Cache, logger klog.Logger, pod *v1.Pod, now time.Time) error {
	return c.(*cacheImpl).finishBinding(logger, pod, now)
}

// SchedtraceCleanupAssumedPods is cleanupAssumedPods(now).
func SchedtraceCleanupAssumedPods(c Cache, logger klog.Logger, now time.Time) {
	c.(*cacheImpl).cleanupAssumedPods(logger, now)
}

// SchedtraceState is what a snapshot reads of the cache.
type SchedtraceState struct {
	// Nodes[i] is the NodeInfo the cache keeps under NodeNames[i].
	NodeNames []string
	Nodes     []*framework.NodeInfo
	// Assumed and BindingFinished hold the pods of assumedPods and of the
	// podStates whose bindingFinished is set.
	Assumed, BindingFinished []*v1.Pod
}

// SchedtraceStateOf returns the cache's state.
func SchedtraceStateOf(c Cache) SchedtraceState {
	cache := c.(*cacheImpl)
	cache.mu.RLock()
	defer cache.mu.RUnlock()
	var s SchedtraceState
	for name, item := range cache.nodes {
		s.NodeNames = append(s.NodeNames, name)
		s.Nodes = append(s.Nodes, item.info)
	}
	for key := range cache.assumedPods {
		if ps, ok := cache.podStates[key]; ok {
			s.Assumed = append(s.Assumed, ps.pod)
		}
	}
	for _, ps := range cache.podStates {
		if ps.bindingFinished {
			s.BindingFinished = append(s.BindingFinished, ps.pod)
		}
	}
	return s
}
