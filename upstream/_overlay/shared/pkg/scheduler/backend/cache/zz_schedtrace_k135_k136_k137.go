//go:build k8s_1_35 || k8s_1_36 || k8s_1_37

package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay): reads of the cache's unexported state. Nothing here
// changes what the cache does. Whether a pod's binding finished is the
// era's: zz_schedtrace_ttl.go reads it where the cache has it,
// zz_schedtrace_k136_k137.go says none where it has not.

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
	s.BindingFinished = cache.schedtraceBindingFinished()
	return s
}
