//go:build k8s_1_25 || k8s_1_26

package main

// The queue calls of v1.25 and v1.26, which take no logger, and their event
// registrations: a clusterEventMap.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

// eraQueue is the PriorityQueue with the ops' calls of this era.
type eraQueue struct{ *schedtrace.PriorityQueue }

// eraActionBits: every action of these eras is one of actionBits.
func eraActionBits(string) framework.ActionType { return 0 }

// clusterEventMap is upstream's clusterEventMap of the header's entries: one
// key per entry, the plugins of equal keys united.
func clusterEventMap(entries []eventMapEntry) map[framework.ClusterEvent]sets.String {
	m := map[framework.ClusterEvent]sets.String{}
	for _, e := range entries {
		ev := registeredEvent(e)
		if m[ev] == nil {
			m[ev] = sets.NewString()
		}
		m[ev].Insert(e.Plugins...)
	}
	return m
}

func newEraQueue(c *config, less framework.LessFunc, factory informers.SharedInformerFactory, opts []schedtrace.QueueOption) (*eraQueue, error) {
	opts = append(opts, schedtrace.WithClusterEventMap(clusterEventMap(c.ClusterEventMap)))
	opts, err := withPreEnqueue(c, opts)
	if err != nil {
		return nil, err
	}
	return &eraQueue{schedtrace.NewPriorityQueue(less, factory, opts...)}, nil
}

// carries: the clusterEventMap serves every scheduler name.
func (q *eraQueue) carries(*v1.Pod) {}

func (q *eraQueue) add(pod *v1.Pod) error         { return q.Add(pod) }
func (q *eraQueue) update(old, pod *v1.Pod) error { return q.Update(old, pod) }

func (q *eraQueue) pop() (*framework.QueuedPodInfo, error) { return q.Pop() }

// addUnschedulable is AddUnschedulableIfNotPresent of the pod's last pop, its
// UnschedulablePlugins set to plugins.
func (q *eraQueue) addUnschedulable(pInfo *framework.QueuedPodInfo, plugins []string, cycle int64) error {
	pInfo.UnschedulablePlugins = sets.NewString(plugins...)
	return q.AddUnschedulableIfNotPresent(pInfo, cycle)
}

// done: this queue has no Done, so q_done cannot be applied here.
func (q *eraQueue) done(*framework.QueuedPodInfo) error {
	return notApplicable{"the queue of " + upstreamVersion + " has no Done"}
}

func (q *eraQueue) activate(pods map[string]*v1.Pod) { q.Activate(pods) }

func (q *eraQueue) moveAll(ev framework.ClusterEvent, check schedtrace.PreEnqueueCheck) {
	q.MoveAllToActiveOrBackoffQueue(ev, check)
}

func (q *eraQueue) assignedPodAdded(pod *v1.Pod) { q.AssignedPodAdded(pod) }

// assignedPodUpdated: this era's AssignedPodUpdated takes the new pod only.
func (q *eraQueue) assignedPodUpdated(_, pod *v1.Pod) { q.AssignedPodUpdated(pod) }

func (q *eraQueue) nominate(pod *v1.Pod, ni *framework.NominatingInfo) {
	q.AddNominatedPod(newPodInfo(pod), ni)
}
