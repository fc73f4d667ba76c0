//go:build k8s_1_30

package main

// The queue calls of v1.30, which take a logger, and its event registrations:
// QueueingHint maps per profile.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

// logger is the logger every call of upstream is given.
var logger = klog.Background()

// eraQueue is the PriorityQueue with the ops' calls of this era.
type eraQueue struct {
	*schedtrace.PriorityQueue
	// hints is the queue's QueueingHint map per profile; hintMap is the one
	// every scheduler name gets.
	hints   schedtrace.QueueingHintMapPerProfile
	hintMap schedtrace.QueueingHintMap
}

// eraActionBits is the ActionType of the actions v1.30 added to those of
// actionBits.
func eraActionBits(name string) framework.ActionType {
	if name == "UpdateNodeAnnotation" {
		return framework.UpdateNodeAnnotation
	}
	return 0
}

// queueAlways is the default QueueingHint a plugin without its own gets
// (scheduler.go's defaultQueueingHintFn): always Queue.
func queueAlways(klog.Logger, *v1.Pod, interface{}, interface{}) (framework.QueueingHint, error) {
	return framework.Queue, nil
}

// queueingHintMap is the header's clusterEventMap as a QueueingHint map: one
// key per entry, each plugin of equal keys once, every hint the default one.
func queueingHintMap(entries []eventMapEntry) schedtrace.QueueingHintMap {
	m := schedtrace.QueueingHintMap{}
	seen := map[framework.ClusterEvent]sets.Set[string]{}
	for _, e := range entries {
		ev := registeredEvent(e)
		if seen[ev] == nil {
			seen[ev] = sets.New[string]()
		}
		for _, plugin := range e.Plugins {
			if seen[ev].Has(plugin) {
				continue
			}
			seen[ev].Insert(plugin)
			m[ev] = append(m[ev], &schedtrace.QueueingHintFunction{PluginName: plugin, QueueingHintFn: queueAlways})
		}
	}
	return m
}

func newEraQueue(c *config, less framework.LessFunc, factory informers.SharedInformerFactory, opts []schedtrace.QueueOption) (*eraQueue, error) {
	q := &eraQueue{hints: schedtrace.QueueingHintMapPerProfile{}, hintMap: queueingHintMap(c.ClusterEventMap)}
	for _, profile := range c.Profiles {
		q.hints[profile] = q.hintMap
	}
	opts = append(opts, schedtrace.WithQueueingHintMapPerProfile(q.hints))
	opts, err := withPreEnqueue(c, opts)
	if err != nil {
		return nil, err
	}
	q.PriorityQueue = schedtrace.NewPriorityQueue(less, factory, opts...)
	return q, nil
}

// carries registers the hint map for the pod's scheduler name, as for the
// header's profiles: the queue keeps the map it was given, so a profile added
// here is one it reads (isEventOfInterest reads them all, isPodWorthRequeuing
// the pod's own).
func (q *eraQueue) carries(pod *v1.Pod) {
	if _, ok := q.hints[pod.Spec.SchedulerName]; !ok {
		q.hints[pod.Spec.SchedulerName] = q.hintMap
	}
}

func (q *eraQueue) add(pod *v1.Pod) error         { return q.Add(logger, pod) }
func (q *eraQueue) update(old, pod *v1.Pod) error { return q.Update(logger, old, pod) }

func (q *eraQueue) pop() (*framework.QueuedPodInfo, error) { return q.Pop(logger) }

// addUnschedulable is AddUnschedulableIfNotPresent of the pod's last pop, its
// UnschedulablePlugins set to plugins.
func (q *eraQueue) addUnschedulable(pInfo *framework.QueuedPodInfo, plugins []string, cycle int64) error {
	pInfo.UnschedulablePlugins = sets.New(plugins...)
	return q.AddUnschedulableIfNotPresent(logger, pInfo, cycle)
}

// done is Done for the pod of the pod's last pop, which returns at once
// with SchedulerQueueingHints off.
func (q *eraQueue) done(pInfo *framework.QueuedPodInfo) error {
	q.Done(pInfo.Pod.UID)
	return nil
}

func (q *eraQueue) activate(pods map[string]*v1.Pod) { q.Activate(logger, pods) }

// moveAll is MoveAllToActiveOrBackoffQueue without the event's objects (the
// default hints do not read them).
func (q *eraQueue) moveAll(ev framework.ClusterEvent, check schedtrace.PreEnqueueCheck) {
	q.MoveAllToActiveOrBackoffQueue(logger, ev, nil, nil, check)
}

func (q *eraQueue) assignedPodAdded(pod *v1.Pod) { q.AssignedPodAdded(logger, pod) }

func (q *eraQueue) assignedPodUpdated(old, pod *v1.Pod) { q.AssignedPodUpdated(logger, old, pod) }

func (q *eraQueue) nominate(pod *v1.Pod, ni *framework.NominatingInfo) {
	q.AddNominatedPod(logger, newPodInfo(pod), ni)
}
