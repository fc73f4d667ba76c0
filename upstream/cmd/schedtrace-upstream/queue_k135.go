//go:build k8s_1_35 || k8s_1_36 || k8s_1_37

package main

// The queue layer on the PriorityQueue of v1.35 and later
// (pkg/scheduler/backend/queue/scheduling_queue.go; out of internal/ since
// v1.33), one call per op as docs/FORMAT.md's "Layer queue" table maps them.
// The calls whose signatures differ between these versions are in
// queuecalls_k13N.go.
//
// The feature gates are at the version's defaults (SchedulerPopFromBackoffQ
// as the header gives it), so SchedulerQueueingHints and
// SchedulerPopFromBackoffQ are on: the queue keeps in-flight pods and the
// events seen while they are in flight, and Pop takes from backoffQ when
// activeQ is empty. The mapping of the ops, where it differs from v1.26.7's:
//
//   - The QueueingHint map (WithQueueingHintMapPerProfile) replaces
//     clusterEventMap: each (event, plugin) pair of the header's
//     clusterEventMap gets upstream's default hint, which always answers
//     Queue (defaultQueueingHintFn of the framework runtime), for every
//     profile, as the scheduler gives a plugin that registers an event without
//     a QueueingHintFn.
//   - q_pop is Pop, except that it never waits: with activeQ empty and nothing
//     in backoffQ that Pop may take, out is {"popped": null}.
//   - q_add_unschedulable is AddUnschedulableIfNotPresent (v1.37:
//     AddUnschedulablePodIfNotPresent), which itself calls Done for the pod,
//     ending its time in flight, as the scheduler's failure handler relies on.
//   - q_assigned_pod_added and q_assigned_pod_updated are what the
//     scheduler's event handlers (addAssignedPodToCache,
//     updatePodInCache) call with SchedulerQueueingHints on:
//     MoveAllToActiveOrBackoffQueue with EventAssignedPodAdd, or with each
//     event of PodSchedulingPropertiesChange(new, old). AssignedPodAdded and
//     AssignedPodUpdated, still in v1.35 and v1.36, are called only by a
//     build with the gate's default reverted (queue_k135_k136.go); v1.37
//     has none.
//   - q_move_all passes its old and new objects (nodes for a Node event,
//     pods otherwise), nil where the step has none.
//   - q_done is Done for the pod the latest q_pop of the key returned.
//   - A clusterEventMap entry's hint scripts each of its plugins' hint
//     functions: Queue (the default one), QueueSkip, or Error (a function
//     that fails, which the queue reads as Queue), or "plugin": the
//     plugin's own, from its EventsToRegister (pluginQueueingHint). With
//     SchedulerQueueingHints off (a reverted build) every function is the
//     default one, as buildQueueingHintMap gives them.
//   - SchedulerPopFromBackoffQ is the header's, at its default when absent.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	v1 "k8s.io/api/core/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
)

type queueLayer struct {
	q       *queue.PriorityQueue
	less    fwk.LessFunc
	objects *podObjects
	lister  cache.Indexer // the nominator's pod lister with "queue-ops"; nil without
	lastPop map[string]*framework.QueuedPodInfo
	stop    chan struct{}
	logger  klog.Logger
	ctx     context.Context
}

// actionBits is upstream's ActionType of an action name; 0 for an unknown one.
func actionBits(name string) fwk.ActionType {
	switch name {
	case "Add":
		return fwk.Add
	case "Delete":
		return fwk.Delete
	case "UpdateNodeAllocatable":
		return fwk.UpdateNodeAllocatable
	case "UpdateNodeLabel":
		return fwk.UpdateNodeLabel
	case "UpdateNodeTaint":
		return fwk.UpdateNodeTaint
	case "UpdateNodeCondition":
		return fwk.UpdateNodeCondition
	case "UpdateNodeAnnotation":
		return fwk.UpdateNodeAnnotation
	case "Update":
		return fwk.Update
	case "All":
		return fwk.All
	}
	return 0
}

// defaultQueueingHint answers Queue whatever the event, as the framework
// runtime's defaultQueueingHintFn does for a plugin without a
// QueueingHintFn.
func defaultQueueingHint(klog.Logger, *v1.Pod, interface{}, interface{}) (fwk.QueueingHint, error) {
	return fwk.Queue, nil
}

// skipQueueingHint is a scripted hint (docs/FORMAT.md, E14) that always
// answers QueueSkip.
func skipQueueingHint(klog.Logger, *v1.Pod, interface{}, interface{}) (fwk.QueueingHint, error) {
	return fwk.QueueSkip, nil
}

// errScriptedHint is the error of the scripted hint "Error".
var errScriptedHint = errors.New("scripted QueueingHint error")

// errorQueueingHint is the scripted hint "Error": it fails, answering
// QueueSkip with its error; isPodWorthRequeuing takes Queue whatever the
// answer.
func errorQueueingHint(klog.Logger, *v1.Pod, interface{}, interface{}) (fwk.QueueingHint, error) {
	return fwk.QueueSkip, errScriptedHint
}

// hintHandle is the framework handle the plugins behind a "plugin" hint are
// built with. Building them and their hint functions read only
// SharedDRAManager of it, which is nil: no DRA manager (the default
// profile's has no device classes, and the traces' requests are cpu,
// memory and extended resources of nodes).
type hintHandle struct{ fwk.Handle }

func (hintHandle) SharedDRAManager() fwk.SharedDRAManager { return nil }

// pluginArgs is the args the scheduler's defaults give a plugin.
func pluginArgs(name string) apiruntime.Object {
	switch name {
	case "NodeAffinity":
		return &schedconfig.NodeAffinityArgs{}
	case "NodeResourcesFit":
		return &schedconfig.NodeResourcesFitArgs{ScoringStrategy: &schedconfig.ScoringStrategy{
			Type:      schedconfig.LeastAllocated,
			Resources: []schedconfig.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}},
		}}
	}
	return nil
}

// pluginQueueingHint is the plugin's own hint function for a registered
// event (docs/FORMAT.md, E14): the plugin built as the in-tree registry
// builds it, and of its EventsToRegister the first registration of the
// event's resource whose actions meet the event's; none, or one without a
// function, is the default hint.
func pluginQueueingHint(name string, ev fwk.ClusterEvent) (fwk.QueueingHintFn, error) {
	factory, ok := frameworkplugins.NewInTreeRegistry()[name]
	if !ok {
		return nil, fmt.Errorf("hint \"plugin\": no in-tree plugin %q", name)
	}
	pl, err := factory(context.Background(), pluginArgs(name), hintHandle{})
	if err != nil {
		return nil, fmt.Errorf("hint \"plugin\": building %s: %v", name, err)
	}
	ext, ok := pl.(fwk.EnqueueExtensions)
	if !ok {
		return defaultQueueingHint, nil
	}
	events, err := ext.EventsToRegister(context.Background())
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if e.Event.Resource == ev.Resource && e.Event.ActionType&ev.ActionType != 0 {
			if e.QueueingHintFn == nil {
				return defaultQueueingHint, nil
			}
			return e.QueueingHintFn, nil
		}
	}
	return defaultQueueingHint, nil
}

// scriptedQueueingHint is the hint function of a clusterEventMap entry's
// hint: the default one for "" and "Queue".
func scriptedQueueingHint(hint string) fwk.QueueingHintFn {
	switch hint {
	case "QueueSkip":
		return skipQueueingHint
	case "Error":
		return errorQueueingHint
	}
	return defaultQueueingHint
}

// queueingHintMap is the QueueingHint map of the header's clusterEventMap:
// one key per entry (its actions' bits together), one hint function per
// plugin and distinct hint of equal keys (the entry's scripted hint, the
// default one when it has none), the same for every profile. A profile
// without any entry still gets its (empty) map, as the scheduler builds one
// per profile; the queue requeues a pod of a scheduler name it has no map
// for on any event.
func queueingHintMap(c *config) (queue.QueueingHintMapPerProfile, error) {
	type pluginHint struct{ plugin, hint string }
	perEvent := map[fwk.ClusterEvent]sets.Set[pluginHint]{}
	var order []fwk.ClusterEvent
	for _, e := range c.ClusterEventMap {
		var bits fwk.ActionType
		for _, a := range e.Actions {
			bits |= actionBits(a)
		}
		ev := fwk.ClusterEvent{Resource: fwk.EventResource(e.Resource), ActionType: bits}
		if perEvent[ev] == nil {
			perEvent[ev] = sets.New[pluginHint]()
			order = append(order, ev)
		}
		hint := e.Hint
		if hint == "" {
			hint = "Queue"
		}
		for _, plugin := range e.Plugins {
			perEvent[ev].Insert(pluginHint{plugin, hint})
		}
	}
	m := queue.QueueingHintMapPerProfile{}
	for _, profile := range c.Profiles {
		hints := queue.QueueingHintMap{}
		for _, ev := range order {
			list := perEvent[ev].UnsortedList()
			sort.Slice(list, func(i, j int) bool {
				if list[i].plugin != list[j].plugin {
					return list[i].plugin < list[j].plugin
				}
				return list[i].hint < list[j].hint
			})
			for _, ph := range list {
				fn := scriptedQueueingHint(ph.hint)
				if !queueingHintsOn() {
					// buildQueueingHintMap: with the gate off, every
					// registration gets the default hint.
					fn = defaultQueueingHint
				} else if ph.hint == "plugin" {
					var err error
					if fn, err = pluginQueueingHint(ph.plugin, ev); err != nil {
						return nil, err
					}
				}
				hints[ev] = append(hints[ev], &queue.QueueingHintFunction{
					PluginName: ph.plugin, QueueingHintFn: fn,
				})
			}
		}
		m[profile] = hints
	}
	return m, nil
}

// namedPreEnqueue is a PreEnqueue plugin of a name upstream has no plugin
// for: it never gates.
type namedPreEnqueue struct{ name string }

func (p namedPreEnqueue) Name() string { return p.name }
func (p namedPreEnqueue) PreEnqueue(context.Context, *v1.Pod) *fwk.Status {
	return nil
}

// preEnqueuePluginMap is the queue's PreEnqueue plugins per profile, keyed
// by plugin name as upstream keeps them. SchedulingGates is upstream's
// plugin; its gate, PodSchedulingReadiness, is locked on in these versions,
// so the header's value of it has no effect.
func preEnqueuePluginMap(c *config) (map[string]map[string]fwk.PreEnqueuePlugin, error) {
	m := map[string]map[string]fwk.PreEnqueuePlugin{}
	for profile, names := range c.PreEnqueuePlugins {
		m[profile] = map[string]fwk.PreEnqueuePlugin{}
		for _, name := range names {
			if name == schedulinggates.Name {
				pl, err := schedulinggates.New(context.Background(), nil, nil, schedulingGatesFeatures())
				if err != nil {
					return nil, err
				}
				m[profile][name] = pl.(fwk.PreEnqueuePlugin)
				continue
			}
			m[profile][name] = namedPreEnqueue{name}
		}
	}
	return m, nil
}

func newQueueLayer(c *config) (layerSystem, error) {
	// The scheduler registers its metrics before it builds the queue, which
	// observes several of them.
	metrics.Register()
	client := fake.NewSimpleClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	pre, err := preEnqueuePluginMap(c)
	if err != nil {
		return nil, err
	}
	// SchedulerPopFromBackoffQ as the header gives it: NewPriorityQueue
	// reads the gate.
	if err := setFeatureGates(c); err != nil {
		return nil, err
	}
	hintMap, err := queueingHintMap(c)
	if err != nil {
		return nil, err
	}
	prioritySort := &queuesort.PrioritySort{}
	l := &queueLayer{
		less:    prioritySort.Less,
		objects: newPodObjects(),
		lastPop: map[string]*framework.QueuedPodInfo{},
		stop:    make(chan struct{}),
		logger:  klog.Background(),
	}
	l.ctx = klog.NewContext(context.Background(), l.logger)
	opts := []queue.Option{
		queue.WithClock(fakeClock),
		queue.WithPodInitialBackoffDuration(ms(c.PodInitialBackoffMs)),
		queue.WithPodMaxBackoffDuration(ms(c.PodMaxBackoffMs)),
		queue.WithPodMaxInUnschedulablePodsDuration(ms(c.PodMaxInUnschedulableMs)),
		queue.WithQueueingHintMapPerProfile(hintMap),
		queue.WithPreEnqueuePluginMap(pre),
		// The scheduler always gives the queue a recorder; the queue calls
		// it unchecked.
		queue.WithMetricsRecorder(metrics.NewMetricsAsyncRecorder(1000, time.Second, l.stop)),
	}
	if c.NominatorPodLister == "queue-ops" {
		l.lister = factory.Core().V1().Pods().Informer().GetIndexer()
	} else {
		opts = append(opts, queue.WithPodLister(nil))
	}
	l.q = queue.NewPriorityQueue(l.less, factory, opts...)
	return l, nil
}

func (l *queueLayer) close() {
	l.q.Close()
	close(l.stop)
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
		l.objects.carry(pod)
		l.listed(pod)
		l.add(pod)
		return out{}, nil
	case "q_update":
		old, err := st.podArg("old")
		if err != nil {
			return nil, err
		}
		pod, err := st.mustPod("new")
		if err != nil {
			return nil, err
		}
		l.objects.carry(old)
		l.objects.carry(pod)
		l.listed(pod)
		l.update(old, pod)
		return out{}, nil
	case "q_delete":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		l.objects.carry(pod)
		if l.lister != nil {
			_ = l.lister.Delete(pod)
		}
		l.delete(pod)
		return out{}, nil
	case "q_pop":
		pInfo, err := l.tryPop()
		if err != nil {
			return nil, err
		}
		if pInfo == nil {
			return out{"popped": nil}, nil
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
		// The plugins are the pod's rejectors of this attempt; none were
		// Pending (Pop cleared what the last attempt left).
		pInfo.UnschedulablePlugins = sets.New(st.Plugins...)
		pInfo.PendingPlugins = sets.New[string]()
		return errOut(l.addUnschedulable(pInfo, cycle)), nil
	case "q_activate":
		pods := map[string]*v1.Pod{}
		for _, key := range st.Pods {
			pods[key] = l.objects.latest(key)
		}
		l.q.Activate(l.logger, pods)
		return out{}, nil
	case "q_move_all":
		if st.Event == nil {
			return nil, fmt.Errorf("field \"event\": missing")
		}
		ev := fwk.ClusterEvent{
			Resource:    fwk.EventResource(st.Event.Resource),
			ActionType:  actionBits(st.Event.Action),
			CustomLabel: st.Event.Label,
		}
		var check queue.PreEnqueueCheck
		if st.Precheck != nil {
			pass := sets.New(*st.Precheck...)
			check = func(pod *v1.Pod) bool { return pass.Has(podKey(pod)) }
		}
		oldObj, newObj, err := l.moveObjects(st)
		if err != nil {
			return nil, err
		}
		l.q.MoveAllToActiveOrBackoffQueue(l.logger, ev, oldObj, newObj, check)
		return out{}, nil
	case "q_done":
		pInfo, err := lastPopped(l.lastPop, st.Pod)
		if err != nil {
			return nil, err
		}
		// The scheduler's Done for a pod whose cycle succeeded.
		l.q.Done(pInfo.Pod.UID)
		return out{}, nil
	case "q_assigned_pod_added":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		l.objects.carry(pod)
		l.listed(pod)
		// Scheduler.addAssignedPodToCache.
		l.assignedPodAdded(pod)
		return out{}, nil
	case "q_assigned_pod_updated":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		// The old object is the latest the trace carried for the pod; for a
		// pod never carried, the pod itself (no change: the general Update).
		old := pod
		if _, ok := l.objects.byKey[podKey(pod)]; ok {
			old = l.objects.latest(podKey(pod))
		}
		l.objects.carry(pod)
		l.listed(pod)
		// Scheduler.updatePodInCache.
		for _, ev := range assignedPodEvents(pod, old) {
			l.assignedPodUpdated(old, pod, ev)
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
		l.objects.carry(pod)
		pi, _ := framework.NewPodInfo(pod)
		l.q.AddNominatedPod(l.logger, pi, &fwk.NominatingInfo{
			NominatingMode: fwk.ModeOverride, NominatedNodeName: node,
		})
		return out{}, nil
	case "flush_backoff":
		l.q.SchedtraceFlushBackoff(l.logger)
		return out{}, nil
	case "flush_unschedulable":
		l.q.SchedtraceFlushUnschedulable(l.logger)
		return out{}, nil
	}
	return nil, fmt.Errorf("not an op of the queue layer")
}

// moveObjects is q_move_all's old and new objects (docs/FORMAT.md, E14):
// nodes for a Node event, pods otherwise; an absent one is a nil
// interface, as a trace without objects passes.
func (l *queueLayer) moveObjects(st *step) (interface{}, interface{}, error) {
	var objs [2]interface{}
	for i, field := range []string{"old", "new"} {
		if st.moveCarriesNodes() {
			if isNull(st.raw(field)) && st.decoded[field] == nil {
				continue
			}
			node, err := st.nodeArg(field)
			if err != nil {
				return nil, nil, err
			}
			objs[i] = node
			continue
		}
		pod, err := st.podArg(field)
		if err != nil {
			return nil, nil, err
		}
		if pod != nil {
			objs[i] = pod
		}
	}
	return objs[0], objs[1], nil
}

func (l *queueLayer) state() map[string]any {
	s := l.q.SchedtraceState()
	return map[string]any{
		"queue":     queueState(s, l.less),
		"nominated": nominatedKeys(s.Nominated),
	}
}

// nominatedKeys is the snapshot's nominated part: node name to the sorted
// keys of the pods nominated to it; a node without pods is left out.
func nominatedKeys(m map[string][]string) map[string][]string {
	s := map[string][]string{}
	for node, keys := range m {
		if len(keys) > 0 {
			s[node] = sortedStrings(keys)
		}
	}
	return s
}

// queueState is the snapshot's queue part.
func queueState(s queue.SchedtraceState, less fwk.LessFunc) map[string]any {
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
			"plugins": sortedStrings(sets.List(p.UnschedulablePlugins)), "gated": p.Gated(),
		})
	}
	sortByPod(unschedOut)
	return map[string]any{
		"active": activeOut, "backoff": backoffOut, "unschedulable": unschedOut,
		"schedulingCycle": s.SchedulingCycle, "moveRequestCycle": s.MoveRequestCycle,
	}
}
