//go:build k8s_1_25 || k8s_1_26 || k8s_1_30

package main

// The cache layer on upstream's scheduler cache (internal/cache/cache.go), one
// call per op as docs/FORMAT.md's "Layer cache" table maps them. The calls
// that differ between eras (v1.30's take a logger) are the era's eraCache
// (cache_k1*.go).

import (
	"fmt"

	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

type cacheLayer struct{ c eraCache }

func newCacheLayer(c *config) (layerSystem, error) {
	return &cacheLayer{c: eraCache{schedtrace.NewCache(ms(c.AssumedPodTTLMs))}}, nil
}

func (l *cacheLayer) close() {}

func (l *cacheLayer) apply(st *step) (out, error) {
	switch st.Op {
	case "c_assume", "c_finish_binding", "c_forget", "c_add_pod", "c_remove_pod":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		switch st.Op {
		case "c_assume":
			return errOut(l.c.assume(pod)), nil
		case "c_finish_binding":
			return errOut(schedtrace.FinishBindingAt(l.c.Cache, pod, now())), nil
		case "c_forget":
			return errOut(l.c.forget(pod)), nil
		case "c_add_pod":
			return errOut(l.c.addPod(pod)), nil
		default:
			return errOut(l.c.removePod(pod)), nil
		}
	case "c_update_pod":
		old, err := st.mustPod("old")
		if err != nil {
			return nil, err
		}
		pod, err := st.mustPod("new")
		if err != nil {
			return nil, err
		}
		return errOut(l.c.updatePod(old, pod)), nil
	case "c_add_node", "c_remove_node":
		node, err := st.nodeArg("node")
		if err != nil {
			return nil, err
		}
		if st.Op == "c_add_node" {
			l.c.addNode(node)
			return out{}, nil
		}
		return errOut(l.c.removeNode(node)), nil
	case "c_update_node":
		old, err := st.nodeArg("old")
		if err != nil {
			return nil, err
		}
		node, err := st.nodeArg("new")
		if err != nil {
			return nil, err
		}
		l.c.updateNode(old, node)
		return out{}, nil
	case "c_cleanup":
		schedtrace.CleanupAssumedPods(l.c.Cache, now())
		return out{}, nil
	}
	return nil, fmt.Errorf("not an op of the cache layer")
}

func (l *cacheLayer) state() map[string]any {
	return map[string]any{"cache": cacheState(schedtrace.CacheStateOf(l.c.Cache))}
}

// cacheState is the snapshot's cache part.
func cacheState(s schedtrace.CacheState) map[string]any {
	nodes := []map[string]any{}
	for i, ni := range s.Nodes {
		name := s.NodeNames[i]
		var pods []string
		for _, pi := range ni.Pods {
			pods = append(pods, podKey(pi.Pod))
		}
		nodes = append(nodes, map[string]any{
			"name": name, "present": ni.Node() != nil,
			"pods": sortedStrings(pods), "requested": requested(ni.Requested),
		})
	}
	sortByName(nodes)
	return map[string]any{
		"nodes": nodes, "assumed": sortedKeys(s.Assumed),
		"bindingFinished": sortedKeys(s.BindingFinished),
	}
}
