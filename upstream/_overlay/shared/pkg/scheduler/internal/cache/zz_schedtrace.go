//go:build k8s_1_25 || k8s_1_26 || k8s_1_30

package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay), in every era: reads of the cache's unexported state.
// The era's zz_schedtrace file adds a cache without its cleanup goroutine and
// the calls at the trace's clock. Nothing here changes what the cache does.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

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
