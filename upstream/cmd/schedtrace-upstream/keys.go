package main

import (
	"sort"

	v1 "k8s.io/api/core/v1"
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
