//go:build k8s_1_25 || k8s_1_26 || k8s_1_30

package main

// The queue layer on upstream's PriorityQueue
// (internal/queue/scheduling_queue.go), one call per op as docs/FORMAT.md's
// "Layer queue" table maps them. What the eras call differently (a logger, the
// event registrations, PreEnqueue) is the era's eraQueue (queue_k1*.go).

import (
	"encoding/json"
	"fmt"
	"sort"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

type queueLayer struct {
	q       *eraQueue
	less    func(a, b *framework.QueuedPodInfo) bool
	objects *podObjects
	lister  cache.Indexer // the nominator's pod lister with "queue-ops"; nil without
	lastPop map[string]*framework.QueuedPodInfo
}

// actionBits is upstream's ActionType of an action name; 0 for one the era
// does not have.
func actionBits(name string) framework.ActionType {
	switch name {
	case "Add":
		return framework.Add
	case "Delete":
		return framework.Delete
	case "UpdateNodeAllocatable":
		return framework.UpdateNodeAllocatable
	case "UpdateNodeLabel":
		return framework.UpdateNodeLabel
	case "UpdateNodeTaint":
		return framework.UpdateNodeTaint
	case "UpdateNodeCondition":
		return framework.UpdateNodeCondition
	case "Update":
		return framework.Update
	case "All":
		return framework.All
	}
	return eraActionBits(name)
}

// registeredEvent is the event of one clusterEventMap entry: its actions' bits
// together.
func registeredEvent(e eventMapEntry) framework.ClusterEvent {
	var bits framework.ActionType
	for _, a := range e.Actions {
		bits |= actionBits(a)
	}
	return framework.ClusterEvent{Resource: framework.GVK(e.Resource), ActionType: bits}
}

func newQueueLayer(c *config) (layerSystem, error) {
	client := fake.NewSimpleClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	sort := &queuesort.PrioritySort{}
	l := &queueLayer{
		less:    sort.Less,
		objects: newPodObjects(),
		lastPop: map[string]*framework.QueuedPodInfo{},
	}
	opts := []schedtrace.QueueOption{
		schedtrace.WithClock(fakeClock),
		schedtrace.WithPodInitialBackoffDuration(ms(c.PodInitialBackoffMs)),
		schedtrace.WithPodMaxBackoffDuration(ms(c.PodMaxBackoffMs)),
		schedtrace.WithPodMaxInUnschedulablePodsDuration(ms(c.PodMaxInUnschedulableMs)),
	}
	if c.NominatorPodLister == "queue-ops" {
		l.lister = factory.Core().V1().Pods().Informer().GetIndexer()
	} else {
		opts = append(opts, schedtrace.WithPodLister(nil))
	}
	q, err := newEraQueue(c, l.less, factory, opts)
	if err != nil {
		return nil, err
	}
	l.q = q
	return l, nil
}

func (l *queueLayer) close() { l.q.Close() }

// carry remembers the pods a step carries (nil ones are skipped) and tells the
// era's queue of them.
func (l *queueLayer) carry(pods ...*v1.Pod) {
	for _, pod := range pods {
		if pod != nil {
			l.objects.carry(pod)
			l.q.carries(pod)
		}
	}
}

// listed keeps the "queue-ops" pod lister current, as an informer's store is
// before its handlers run.
func (l *queueLayer) listed(pod *v1.Pod) {
	if l.lister != nil {
		_ = l.lister.Update(pod)
	}
}

func (l *queueLayer) apply(st *step) (out, error) {
	switch st.Op {
	case "q_add":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		l.carry(pod)
		l.listed(pod)
		return errOut(l.q.add(pod)), nil
	case "q_update":
		old, err := st.podArg("old")
		if err != nil {
			return nil, err
		}
		pod, err := st.mustPod("new")
		if err != nil {
			return nil, err
		}
		l.carry(old, pod)
		l.listed(pod)
		return errOut(l.q.update(old, pod)), nil
	case "q_delete":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		l.carry(pod)
		if l.lister != nil {
			_ = l.lister.Delete(pod)
		}
		return errOut(l.q.Delete(pod)), nil
	case "q_pop":
		if l.q.SchedtraceActiveLen() == 0 {
			return out{"popped": nil}, nil
		}
		pInfo, err := l.q.pop()
		if err != nil {
			return nil, err
		}
		key := podKey(pInfo.Pod)
		l.lastPop[key] = pInfo
		return out{"popped": key, "attempts": pInfo.Attempts}, nil
	case "q_add_unschedulable":
		pInfo, err := lastPopped(l.lastPop, st.Pod)
		if err != nil {
			return nil, err
		}
		cycle, err := cycleArg(st.Cycle, l.q.SchedulingCycle())
		if err != nil {
			return nil, err
		}
		return errOut(l.q.addUnschedulable(pInfo, st.Plugins, cycle)), nil
	case "q_done":
		pInfo, err := lastPopped(l.lastPop, st.Pod)
		if err != nil {
			return nil, err
		}
		if err := l.q.done(pInfo); err != nil {
			return nil, err
		}
		return out{}, nil
	case "q_activate":
		pods := map[string]*v1.Pod{}
		for _, key := range st.Pods {
			pods[key] = l.objects.latest(key)
		}
		l.q.activate(pods)
		return out{}, nil
	case "q_move_all":
		if st.Event == nil {
			return nil, fmt.Errorf("field \"event\": missing")
		}
		ev := framework.ClusterEvent{
			Resource:   framework.GVK(st.Event.Resource),
			ActionType: actionBits(st.Event.Action),
			Label:      st.Event.Label,
		}
		var check schedtrace.PreEnqueueCheck
		if st.Precheck != nil {
			pass := map[string]bool{}
			for _, key := range *st.Precheck {
				pass[key] = true
			}
			check = func(pod *v1.Pod) bool { return pass[podKey(pod)] }
		}
		l.q.moveAll(ev, check)
		return out{}, nil
	case "q_assigned_pod_added", "q_assigned_pod_updated":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		old := l.objects.byKey[podKey(pod)] // the previous version carried; nil for none
		l.carry(pod)
		l.listed(pod)
		if st.Op == "q_assigned_pod_added" {
			l.q.assignedPodAdded(pod)
		} else {
			l.q.assignedPodUpdated(old, pod)
		}
		return out{}, nil
	case "q_nominate":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		var node string
		if err := json.Unmarshal(st.Node, &node); err != nil {
			return nil, fmt.Errorf("field \"node\": %v", err)
		}
		l.carry(pod)
		l.q.nominate(pod, &framework.NominatingInfo{
			NominatingMode: framework.ModeOverride, NominatedNodeName: node,
		})
		return out{}, nil
	case "flush_backoff":
		l.q.SchedtraceFlushBackoff()
		return out{}, nil
	case "flush_unschedulable":
		l.q.SchedtraceFlushUnschedulable()
		return out{}, nil
	}
	return nil, fmt.Errorf("not an op of the queue layer")
}

func (l *queueLayer) state() map[string]any {
	s := l.q.SchedtraceState()
	return map[string]any{
		"queue":     queueState(s, l.less),
		"nominated": nominatedState(s.Nominated),
	}
}

// queueState is the snapshot's queue part.
func queueState(s schedtrace.QueueState, less func(a, b *framework.QueuedPodInfo) bool) map[string]any {
	active := append([]*framework.QueuedPodInfo{}, s.Active...)
	sort.SliceStable(active, func(i, j int) bool { return less(active[i], active[j]) })
	activeOut := []map[string]any{}
	for _, p := range active {
		activeOut = append(activeOut, map[string]any{"pod": podKey(p.Pod), "attempts": p.Attempts})
	}
	backoffOut := []map[string]any{}
	for i, p := range s.Backoff {
		backoffOut = append(backoffOut, map[string]any{
			"pod": podKey(p.Pod), "attempts": p.Attempts,
			"backoffExpiresAt": millis(s.BackoffExpiry[i]),
		})
	}
	sortByPod(backoffOut)
	unschedOut := []map[string]any{}
	for _, p := range s.Unschedulable {
		unschedOut = append(unschedOut, map[string]any{
			"pod": podKey(p.Pod), "attempts": p.Attempts,
			"plugins": sortedStrings(p.UnschedulablePlugins.UnsortedList()), "gated": isGated(p),
		})
	}
	sortByPod(unschedOut)
	return map[string]any{
		"active": activeOut, "backoff": backoffOut, "unschedulable": unschedOut,
		"schedulingCycle": s.SchedulingCycle, "moveRequestCycle": s.MoveRequestCycle,
	}
}
