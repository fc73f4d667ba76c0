//go:build k8s_1_35 || k8s_1_36 || k8s_1_37

package main

// The cache layer on the scheduler cache of v1.35 and later
// (pkg/scheduler/backend/cache/cache.go), one call per op as docs/FORMAT.md's
// "Layer cache" table maps them. Since v1.36 the cache has neither
// FinishBinding nor the expiry of assumed pods (no ttl, no
// cleanupAssumedPods): there c_finish_binding and c_cleanup call nothing and
// change nothing, and no pod is ever bindingFinished (calls_k13N.go).

import (
	"fmt"

	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
)

type cacheLayer struct {
	c      cache.Cache
	logger klog.Logger
}

func newCacheLayer(c *config) (layerSystem, error) {
	// The scheduler registers its metrics before it builds the cache, whose
	// cleanup updates the cache-size gauges Register creates.
	metrics.Register()
	return &cacheLayer{c: newCache(c), logger: klog.Background()}, nil
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
			return errOut(l.c.AssumePod(l.logger, pod)), nil
		case "c_finish_binding":
			return errOut(l.finishBinding(pod)), nil
		case "c_forget":
			return errOut(l.c.ForgetPod(l.logger, pod)), nil
		case "c_add_pod":
			return errOut(l.c.AddPod(l.logger, pod)), nil
		default:
			return errOut(l.c.RemovePod(l.logger, pod)), nil
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
		return errOut(l.c.UpdatePod(l.logger, old, pod)), nil
	case "c_add_node", "c_remove_node":
		node, err := st.nodeArg("node")
		if err != nil {
			return nil, err
		}
		if st.Op == "c_add_node" {
			l.c.AddNode(l.logger, node)
			return out{}, nil
		}
		return errOut(l.c.RemoveNode(l.logger, node)), nil
	case "c_update_node":
		old, err := st.nodeArg("old")
		if err != nil {
			return nil, err
		}
		node, err := st.nodeArg("new")
		if err != nil {
			return nil, err
		}
		l.c.UpdateNode(l.logger, old, node)
		return out{}, nil
	case "c_cleanup":
		l.cleanup()
		return out{}, nil
	}
	return nil, fmt.Errorf("not an op of the cache layer")
}

func (l *cacheLayer) state() map[string]any {
	return map[string]any{"cache": cacheState(cache.SchedtraceStateOf(l.c))}
}

// cacheState is the snapshot's cache part.
func cacheState(s cache.SchedtraceState) map[string]any {
	nodes := []map[string]any{}
	for i, ni := range s.Nodes {
		var pods []string
		for _, pi := range ni.Pods {
			pods = append(pods, podKey(pi.GetPod()))
		}
		nodes = append(nodes, map[string]any{
			"name": s.NodeNames[i], "present": ni.Node() != nil,
			"pods": sortedStrings(pods), "requested": requested(ni.Requested),
		})
	}
	sortByName(nodes)
	return map[string]any{
		"nodes": nodes, "assumed": sortedKeys(s.Assumed),
		"bindingFinished": sortedKeys(s.BindingFinished),
	}
}
