package main

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// sortedKeys returns the pods' keys, sorted.
func sortedKeys(pods []*v1.Pod) []string {
	keys := make([]string, 0, len(pods))
	for _, p := range pods {
		keys = append(keys, podKey(p))
	}
	sort.Strings(keys)
	return keys
}

// nominatedState is the snapshot's nominated part: node name to the sorted
// keys of the pods nominated to it; a node without pods is left out.
func nominatedState(m map[string][]*v1.Pod) map[string][]string {
	s := map[string][]string{}
	for node, pods := range m {
		if len(pods) > 0 {
			s[node] = sortedKeys(pods)
		}
	}
	return s
}

// sortedStrings returns a sorted copy, never nil.
func sortedStrings(in []string) []string {
	out := append([]string{}, in...)
	sort.Strings(out)
	return out
}

// requested is a NodeInfo's Requested, resources at zero left out.
func requested(r *framework.Resource) map[string]int64 {
	m := map[string]int64{}
	if r.MilliCPU != 0 {
		m["cpu"] = r.MilliCPU
	}
	if r.Memory != 0 {
		m["memory"] = r.Memory
	}
	if r.EphemeralStorage != 0 {
		m["ephemeral-storage"] = r.EphemeralStorage
	}
	for name, v := range r.ScalarResources {
		if v != 0 {
			m[string(name)] = v
		}
	}
	return m
}
