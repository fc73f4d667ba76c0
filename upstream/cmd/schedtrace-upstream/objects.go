package main

import (
	"sort"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// upstreamVersion is the version of k8s.io/kubernetes this binary is built
// against; upstream/build sets it (-ldflags -X).
var upstreamVersion = "unknown"

// podObjects remembers the latest object the trace carried for each pod key
// (q_activate names pods by key, as upstream's Activate is given them).
type podObjects struct{ byKey map[string]*v1.Pod }

func newPodObjects() *podObjects { return &podObjects{byKey: map[string]*v1.Pod{}} }

func (o *podObjects) carry(pod *v1.Pod) {
	if pod != nil {
		o.byKey[podKey(pod)] = pod
	}
}

// latest is the latest object for key, or a stub holding only its namespace
// and name for a key never carried.
func (o *podObjects) latest(key string) *v1.Pod {
	if pod, ok := o.byKey[key]; ok {
		return pod
	}
	ns, name := splitKey(key)
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func splitKey(key string) (string, string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

// sortByPod sorts snapshot entries by their "pod" key, stably.
func sortByPod(entries []map[string]any) {
	sort.SliceStable(entries, func(i, j int) bool {
		return entries[i]["pod"].(string) < entries[j]["pod"].(string)
	})
}

// sortByName sorts snapshot entries by their "name", stably.
func sortByName(entries []map[string]any) {
	sort.SliceStable(entries, func(i, j int) bool {
		return entries[i]["name"].(string) < entries[j]["name"].(string)
	})
}
