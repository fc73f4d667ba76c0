package main

// The scheduler layer on a whole Scheduler from scheduler.New
// (docs/FORMAT.md, "Layer scheduler"): upstream's event handlers, queue,
// cache, scheduling cycle and binding cycle, with the scripted plugins
// TraceScore, TraceReserve, TracePermit, TracePreBind and TraceBind. It is
// wired as docs/ADDING-A-VERSION.md section 1 describes the recorder:
//
//   - the informers are never started; each pod or node op updates the real
//     informer's store, then calls the handlers addAllEventHandlers
//     registered, in their order (the cache's, then the queue's), on this
//     goroutine (informers.go);
//   - a binding goroutine that a handler releases (a waiting pod rejected by
//     a deletion) runs once the handlers have returned: TraceReserve's
//     Unreserve, the first thing its failure path calls, waits for them;
//   - the binding goroutine of a scheduled pod parks in TracePreBind until a
//     `bind` step; after every step the layer waits until every binding
//     goroutine is parked there, blocked in WaitOnPermit, or gone, so that a
//     step's results never depend on the Go scheduler;
//   - events come from a recorder of our own, status patches from a reactor
//     of the fake clientset, both synchronous.
//
// Every era runs this file. What the eras call differently (scheduler.New,
// the plugin factories, the signatures of NextPod, SchedulePod and
// FailureHandler, scheduleOne, PreEnqueue, Score, the queue's and the
// cache's reads) is in scheduler_k1*.go, and the framework's types this file
// names (fwStatus, fwCycleState, ...) are aliases each era file gives: the
// plugin API moved to k8s.io/kube-scheduler/framework in later versions.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	configv1 "k8s.io/kube-scheduler/config/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// The scripted plugins' names (docs/FORMAT.md, "Layer scheduler").
const (
	traceScore   = "TraceScore"
	traceReserve = "TraceReserve"
	tracePermit  = "TracePermit"
	tracePreBind = "TracePreBind"
	traceBind    = "TraceBind"
)

// scoreLabel is the node label TraceScore reads.
const scoreLabel = "schedtrace.io/score"

// permitWait is the timeout TracePermit asks for with "wait": the
// framework's maximum (15 minutes), far beyond any trace's run.
const permitWait = 15 * time.Minute

// settleTimeout bounds the wait for the binding goroutines after a step.
const settleTimeout = 10 * time.Second

// stepOut collects what a step emits, from this goroutine and the binding
// goroutines, in the order it happens.
type stepOut struct {
	mu                              sync.Mutex
	bindings, statusUpdates, events []map[string]any
}

func (o *stepOut) add(list *[]map[string]any, entry map[string]any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	*list = append(*list, entry)
}

// drain moves what was collected into the step's out and starts afresh.
func (o *stepOut) drain(into out) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.bindings) > 0 {
		into["bindings"] = o.bindings
	}
	if len(o.statusUpdates) > 0 {
		into["statusUpdates"] = o.statusUpdates
	}
	if len(o.events) > 0 {
		into["events"] = o.events
	}
	o.bindings, o.statusUpdates, o.events = nil, nil, nil
}

// cycleRecord is what one schedule_one's scheduling cycle did, as the
// wrapped NextPod, SchedulePod and FailureHandler saw it.
type cycleRecord struct {
	popped      *v1.Pod
	scheduled   bool   // SchedulePod ran
	host        string // its SuggestedHost, when it returned no error
	scheduleErr error
	failed      bool   // the FailureHandler ran in the cycle
	reason      string // the reason it gave the pod's PodScheduled condition
}

// bindAnswer is what a `bind` step scripts for TracePreBind and TraceBind;
// TracePreBind writes it into the cycle state for TraceBind.
type bindAnswer struct{ prebind, bind string }

func (a *bindAnswer) Clone() fwStateData { return a }

const bindAnswerKey fwStateKey = "schedtrace.io/bind-answer"

// parkedCycle is a binding goroutine parked in TracePreBind.
type parkedCycle struct {
	pod     *v1.Pod
	release chan *bindAnswer
}

type schedulerLayer struct {
	sched    *scheduler.Scheduler
	queue    *schedQueue
	less     fwLessFunc
	informer informers.SharedInformerFactory // the real factory: its stores
	handlers *handlerSet
	ctx      context.Context
	cancel   context.CancelFunc
	stop     chan struct{}
	out      stepOut

	// What the current schedule_one step scripts for Reserve and Permit.
	reserve, permit string

	mu sync.Mutex
	// cycle records the scheduling cycle of the running schedule_one step.
	cycle *cycleRecord
	// parked holds the goroutines parked before PreBind, in parking order.
	parked []*parkedCycle
	// gate, while a delivery runs, holds back binding goroutines that its
	// handlers released; closed when they have returned.
	gate chan struct{}
	// patchBase is the pod object the latest failure handler of each key
	// was given: the object whose status it patches.
	patchBase map[string]*v1.Pod
	// stack is settle's buffer for the goroutine dump, kept between steps.
	stack []byte
}

// pluginSet enables the named plugins, in order.
func pluginSet(names ...string) schedulerapi.PluginSet {
	ps := schedulerapi.PluginSet{}
	for _, n := range names {
		ps.Enabled = append(ps.Enabled, schedulerapi.Plugin{Name: n})
	}
	return ps
}

// defaultPluginConfig is the defaulted arguments of NodeAffinity and
// NodeResourcesFit, as scheduler.New's default profile has them.
func defaultPluginConfig() ([]schedulerapi.PluginConfig, error) {
	var versioned configv1.KubeSchedulerConfiguration
	scheme.Scheme.Default(&versioned)
	var cfg schedulerapi.KubeSchedulerConfiguration
	if err := scheme.Scheme.Convert(&versioned, &cfg, nil); err != nil {
		return nil, err
	}
	var out []schedulerapi.PluginConfig
	for _, pc := range cfg.Profiles[0].PluginConfig {
		if pc.Name == "NodeAffinity" || pc.Name == "NodeResourcesFit" {
			out = append(out, pc)
		}
	}
	return out, nil
}

func newSchedulerLayer(c *config) (layerSystem, error) {
	if c.AssumedPodTTLMs != 0 {
		return nil, fmt.Errorf("assumedPodTtlMs %d: scheduler.New fixes the assumed pods' ttl at 0 (durationToExpireAssumedPod)", c.AssumedPodTTLMs)
	}
	if c.PodInitialBackoffMs%1000 != 0 || c.PodMaxBackoffMs%1000 != 0 {
		return nil, fmt.Errorf("podInitialBackoffMs and podMaxBackoffMs must be whole seconds: scheduler.New takes seconds")
	}
	if c.Features["SchedulerQueueingHints"] && !queueingHintsAlwaysOn {
		return nil, fmt.Errorf("SchedulerQueueingHints: true is refused (not modelled)")
	}
	if err := setFeatureGates(c); err != nil {
		return nil, err
	}

	l := &schedulerLayer{handlers: newHandlerSet(), stop: make(chan struct{}), patchBase: map[string]*v1.Pod{}}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	client := fake.NewSimpleClientset()
	client.PrependReactor("patch", "pods", l.onPatch)
	l.informer = informers.NewSharedInformerFactory(client, 0)

	// The scripted plugins.
	registry := frameworkruntime.Registry{}
	for _, name := range []string{traceScore, traceReserve, tracePermit, tracePreBind, traceBind} {
		name := name
		registry[name] = pluginFactory(func(h fwHandle) fwPlugin {
			return &tracePlugin{name: name, l: l, h: h}
		})
	}

	pluginConfig, err := defaultPluginConfig()
	if err != nil {
		return nil, err
	}
	var profiles []schedulerapi.KubeSchedulerProfile
	for _, name := range c.Profiles {
		profiles = append(profiles, schedulerapi.KubeSchedulerProfile{
			SchedulerName: name,
			Plugins: &schedulerapi.Plugins{
				QueueSort: pluginSet("PrioritySort"),
				PreFilter: pluginSet("NodeAffinity", "NodeResourcesFit"),
				Filter: pluginSet("NodeUnschedulable", "NodeName", "TaintToleration",
					"NodeAffinity", "NodeResourcesFit"),
				Score:    schedulerapi.PluginSet{Enabled: []schedulerapi.Plugin{{Name: traceScore, Weight: 1}}},
				Reserve:  pluginSet(traceReserve),
				Permit:   pluginSet(tracePermit),
				PreBind:  pluginSet(tracePreBind),
				Bind:     pluginSet(traceBind),
				PostBind: pluginSet(traceBind),
			},
			PluginConfig: pluginConfig,
		})
	}
	setPreEnqueue(c, registry, profiles)

	opts := append([]scheduler.Option{
		scheduler.WithProfiles(profiles...),
		scheduler.WithFrameworkOutOfTreeRegistry(registry),
		allNodesToScore(),
		scheduler.WithPodInitialBackoffSeconds(c.PodInitialBackoffMs / 1000),
		scheduler.WithPodMaxBackoffSeconds(c.PodMaxBackoffMs / 1000),
		scheduler.WithPodMaxInUnschedulablePodsDuration(ms(c.PodMaxInUnschedulableMs)),
	}, eraSchedulerOptions()...)
	sched, err := newScheduler(l, client, opts...)
	if err != nil {
		return nil, err
	}
	l.sched = sched
	l.queue = sched.SchedulingQueue.(*schedQueue)
	l.eraSetClock()
	l.less = sched.Profiles[c.Profiles[0]].QueueSortFunc()

	// Watch the scheduling cycle: what was popped (the era's NextPod
	// wrapper), whether SchedulePod ran and chose a node (the era's
	// SchedulePod wrapper), and whether the cycle failed (the era's
	// FailureHandler wrapper).
	watchNextPod(l)
	watchSchedulePod(l)
	watchFailureHandler(l)
	return l, nil
}

// scheduled records what SchedulePod returned.
func (l *schedulerLayer) scheduled(res scheduler.ScheduleResult, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cycle != nil {
		l.cycle.scheduled, l.cycle.host, l.cycle.scheduleErr = true, res.SuggestedHost, err
	}
}

// popped records the pod the scheduling cycle popped (nil: none).
func (l *schedulerLayer) popped(pInfo *framework.QueuedPodInfo) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cycle != nil && pInfo != nil {
		l.cycle.popped = pInfo.Pod
	}
}

// failing records what the failure handler is given: the pod object whose
// status its patch applies to and, in the scheduling cycle, the failure's
// reason (v1.PodReasonUnschedulable or v1.PodReasonSchedulerError). That is
// the object updatePod computes the patch from: the one given, or from
// v1.36 the informer's unassigned object of the same uid, which
// handleSchedulingFailure puts in its place (`pod = podInfo.Pod`) before
// the patch.
func (l *schedulerLayer) failing(pod *v1.Pod, reason string) {
	base := pod
	if failureHandlerPatchesInformerPod {
		podStore := l.informer.Core().V1().Pods().Informer().GetStore()
		if obj, ok, _ := podStore.GetByKey(podKey(pod)); ok {
			if cached, isPod := obj.(*v1.Pod); isPod &&
				cached.Spec.NodeName == "" && cached.UID == pod.UID {
				base = cached
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.patchBase[podKey(pod)] = base
	if l.cycle != nil && goroutineID() == mainGoroutine {
		l.cycle.failed, l.cycle.reason = true, reason
	}
}

func (l *schedulerLayer) close() {
	l.cancel()
	close(l.stop)
}

// onPatch is the fake clientset's reactor for pod patches: a status patch
// (handleSchedulingFailure's updatePod) is applied to the status of the
// object the failure handler was given, and recorded with the reason and
// nominatedNodeName the patched status has. It succeeds also for a pod the
// informer no longer holds.
func (l *schedulerLayer) onPatch(action k8stesting.Action) (bool, kruntime.Object, error) {
	pa, ok := action.(k8stesting.PatchAction)
	if !ok || pa.GetSubresource() != "status" {
		return false, nil, nil
	}
	key := pa.GetNamespace() + "/" + pa.GetName()
	l.mu.Lock()
	base := l.patchBase[key]
	l.mu.Unlock()
	if base == nil {
		base = &v1.Pod{}
	}
	orig, err := json.Marshal(v1.Pod{Status: base.Status})
	if err != nil {
		return true, nil, err
	}
	patched, err := strategicpatch.StrategicMergePatch(orig, pa.GetPatch(), &v1.Pod{})
	if err != nil {
		return true, nil, err
	}
	pod := &v1.Pod{}
	if err := json.Unmarshal(patched, pod); err != nil {
		return true, nil, err
	}
	reason := ""
	for _, cond := range pod.Status.Conditions {
		if cond.Type == v1.PodScheduled {
			reason = cond.Reason
		}
	}
	l.out.add(&l.out.statusUpdates, map[string]any{
		"pod": key, "reason": reason, "nominatedNodeName": pod.Status.NominatedNodeName,
	})
	pod.Namespace, pod.Name = pa.GetNamespace(), pa.GetName()
	return true, pod, nil
}

// eventCapture is every profile's event recorder: it records the reason of
// each event about a pod, synchronously.
type eventCapture struct{ l *schedulerLayer }

func (e eventCapture) Eventf(regarding kruntime.Object, _ kruntime.Object, _, reason, _, _ string, _ ...interface{}) {
	if pod, ok := regarding.(*v1.Pod); ok {
		e.l.out.add(&e.l.out.events, map[string]any{"pod": podKey(pod), "reason": reason})
	}
}

// tracePlugin is each of the scripted plugins; the framework calls it only
// at the extension points its name is enabled for.
type tracePlugin struct {
	name string
	l    *schedulerLayer
	h    fwHandle
}

func (p *tracePlugin) Name() string { return p.name }

// labelScore is TraceScore's score of a node: the integer in its label
// schedtrace.io/score as strconv.Atoi reads it (one optional sign, decimal
// digits, leading zeros allowed: "+5" is 5, "-0" is 0, "007" is 7), 0 when
// absent or not an integer (" 5", "+-5", "5.0", beyond int64). The framework
// refuses a score outside [0, 100] (RunScorePlugins). The era's Score reads
// the node.
func labelScore(node *v1.Node) int64 {
	v, err := strconv.Atoi(node.Labels[scoreLabel])
	if err != nil {
		return 0
	}
	return int64(v)
}

func (p *tracePlugin) ScoreExtensions() fwScoreExtensions { return nil }

// Reserve is TraceReserve: it answers as the schedule_one step says.
func (p *tracePlugin) Reserve(context.Context, fwCycleState, *v1.Pod, string) *fwStatus {
	if p.l.reserve == "error" {
		return newStatus(codeError, "TraceReserve: error scripted by the trace")
	}
	return nil
}

// Unreserve is TraceReserve's: it runs first on every failure path, and
// holds a binding goroutine that a delivery's handler released until the
// handlers have returned.
func (p *tracePlugin) Unreserve(context.Context, fwCycleState, *v1.Pod, string) {
	if goroutineID() == mainGoroutine {
		return
	}
	p.l.mu.Lock()
	gate := p.l.gate
	p.l.mu.Unlock()
	if gate != nil {
		<-gate
	}
}

// Permit is TracePermit: it answers as the schedule_one step says.
func (p *tracePlugin) Permit(context.Context, fwCycleState, *v1.Pod, string) (*fwStatus, time.Duration) {
	switch p.l.permit {
	case "wait":
		return newStatus(codeWait), permitWait
	case "reject":
		return newStatus(codeUnschedulable, "TracePermit: rejected by the trace"), 0
	}
	return nil, 0
}

// PreBind is TracePreBind: the binding goroutine parks here until a `bind`
// step releases it, then answers as that step says.
func (p *tracePlugin) PreBind(_ context.Context, state fwCycleState, pod *v1.Pod, _ string) *fwStatus {
	ans := parkBeforePreBind(p.l, pod)
	state.Write(bindAnswerKey, ans)
	if ans.prebind == "error" {
		return newStatus(codeError, "TracePreBind: error scripted by the trace")
	}
	return nil
}

// parkBeforePreBind blocks until a `bind` step for the pod; settle finds
// parked goroutines by this function's name.
//
//go:noinline
func parkBeforePreBind(l *schedulerLayer, pod *v1.Pod) *bindAnswer {
	pc := &parkedCycle{pod: pod, release: make(chan *bindAnswer)}
	l.mu.Lock()
	l.parked = append(l.parked, pc)
	l.mu.Unlock()
	return <-pc.release
}

// Bind is TraceBind: it answers as the `bind` step says; a success is a
// binding of the step's out.
func (p *tracePlugin) Bind(_ context.Context, state fwCycleState, pod *v1.Pod, nodeName string) *fwStatus {
	ans := &bindAnswer{}
	if data, err := state.Read(bindAnswerKey); err == nil {
		ans = data.(*bindAnswer)
	}
	if ans.bind == "error" {
		return newStatus(codeError, "TraceBind: error scripted by the trace")
	}
	p.l.out.add(&p.l.out.bindings, map[string]any{"pod": podKey(pod), "node": nodeName})
	return nil
}

// PostBind is TraceBind's, and does nothing.
func (p *tracePlugin) PostBind(context.Context, fwCycleState, *v1.Pod, string) {}

// deliver runs the handlers registered for kind, in order, with the gate
// closed to binding goroutines they release.
func (l *schedulerLayer) deliver(kind string, call func(cache.ResourceEventHandler)) {
	gate := make(chan struct{})
	l.mu.Lock()
	l.gate = gate
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.gate = nil
		l.mu.Unlock()
		close(gate)
	}()
	for _, h := range l.handlers.of(kind) {
		call(h)
	}
}

// otherKindObject is an object of a kind the scheduler only watches, for a
// cluster_event; a StorageClass binds on first consumer when the step says.
func otherKindObject(resource string, waitForFirstConsumer bool) kruntime.Object {
	switch resource {
	case "PersistentVolume":
		return &v1.PersistentVolume{}
	case "PersistentVolumeClaim":
		return &v1.PersistentVolumeClaim{}
	case "StorageClass":
		sc := &storagev1.StorageClass{}
		if waitForFirstConsumer {
			mode := storagev1.VolumeBindingWaitForFirstConsumer
			sc.VolumeBindingMode = &mode
		}
		return sc
	case "CSINode":
		return &storagev1.CSINode{}
	case "CSIDriver":
		return &storagev1.CSIDriver{}
	case "CSIStorageCapacity":
		return &storagev1.CSIStorageCapacity{}
	}
	return nil
}

func (l *schedulerLayer) apply(st *step) (out, error) {
	o, err := l.applyOp(st)
	if err != nil {
		return nil, err
	}
	if err := l.settle(); err != nil {
		return nil, err
	}
	l.out.drain(o)
	return o, nil
}

func (l *schedulerLayer) applyOp(st *step) (out, error) {
	podStore := l.informer.Core().V1().Pods().Informer().GetStore()
	nodeStore := l.informer.Core().V1().Nodes().Informer().GetStore()
	switch st.Op {
	case "pod_add":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		_ = podStore.Add(pod)
		l.deliver("Pod", func(h cache.ResourceEventHandler) { onAdd(h, pod) })
		return out{}, nil
	case "pod_update":
		old, err := st.mustPod("old")
		if err != nil {
			return nil, err
		}
		pod, err := st.mustPod("new")
		if err != nil {
			return nil, err
		}
		_ = podStore.Update(pod)
		l.deliver("Pod", func(h cache.ResourceEventHandler) { h.OnUpdate(old, pod) })
		return out{}, nil
	case "pod_delete":
		pod, err := st.mustPod("pod")
		if err != nil {
			return nil, err
		}
		_ = podStore.Delete(pod)
		var obj interface{} = pod
		if st.Tombstone {
			obj = cache.DeletedFinalStateUnknown{Key: podKey(pod), Obj: pod}
		}
		l.deliver("Pod", func(h cache.ResourceEventHandler) { h.OnDelete(obj) })
		return out{}, nil
	case "node_add":
		node, err := st.nodeArg("node")
		if err != nil {
			return nil, err
		}
		_ = nodeStore.Add(node)
		l.deliver("Node", func(h cache.ResourceEventHandler) { onAdd(h, node) })
		return out{}, nil
	case "node_update":
		old, err := st.nodeArg("old")
		if err != nil {
			return nil, err
		}
		node, err := st.nodeArg("new")
		if err != nil {
			return nil, err
		}
		_ = nodeStore.Update(node)
		l.deliver("Node", func(h cache.ResourceEventHandler) { h.OnUpdate(old, node) })
		return out{}, nil
	case "node_delete":
		node, err := st.nodeArg("node")
		if err != nil {
			return nil, err
		}
		_ = nodeStore.Delete(node)
		var obj interface{} = node
		if st.Tombstone {
			obj = cache.DeletedFinalStateUnknown{Key: node.Name, Obj: node}
		}
		l.deliver("Node", func(h cache.ResourceEventHandler) { h.OnDelete(obj) })
		return out{}, nil
	case "cluster_event":
		obj := otherKindObject(st.Resource, st.WaitForFirstConsumer)
		if obj == nil {
			return nil, fmt.Errorf("field \"resource\": %q is not a kind the scheduler only watches", st.Resource)
		}
		switch st.Action {
		case "Add":
			l.deliver(st.Resource, func(h cache.ResourceEventHandler) { onAdd(h, obj) })
		case "Update":
			l.deliver(st.Resource, func(h cache.ResourceEventHandler) { h.OnUpdate(obj, obj) })
		case "Delete":
			l.deliver(st.Resource, func(h cache.ResourceEventHandler) { h.OnDelete(obj) })
		default:
			return nil, fmt.Errorf("field \"action\": %q is not Add, Update or Delete", st.Action)
		}
		return out{}, nil
	case "flush_backoff":
		l.flushBackoff()
		return out{}, nil
	case "flush_unschedulable":
		l.flushUnschedulable()
		return out{}, nil
	case "schedule_one":
		return l.scheduleOne(st)
	case "permit_allow", "permit_reject":
		var key string
		if err := json.Unmarshal(st.Pod, &key); err != nil {
			return nil, fmt.Errorf("field \"pod\": %v", err)
		}
		if wp := l.waitingPod(key); wp != nil {
			if st.Op == "permit_allow" {
				wp.Allow(tracePermit)
			} else {
				wp.Reject(tracePermit, "TracePermit: rejected by the trace")
			}
		}
		return out{}, nil
	case "bind":
		var key string
		if err := json.Unmarshal(st.Pod, &key); err != nil {
			return nil, fmt.Errorf("field \"pod\": %v", err)
		}
		l.mu.Lock()
		var pc *parkedCycle
		for i, c := range l.parked {
			if podKey(c.pod) == key {
				pc = c
				l.parked = append(l.parked[:i:i], l.parked[i+1:]...)
				break
			}
		}
		l.mu.Unlock()
		if pc != nil {
			pc.release <- &bindAnswer{prebind: st.Prebind, bind: st.Bind}
		}
		return out{}, nil
	}
	return nil, fmt.Errorf("not an op of the scheduler layer")
}

// scheduleOne is one scheduleOne that never blocks: with nothing to pop
// nothing happens (the era's nothingToPop, or its NextPod popping nothing
// where Pop would wait).
func (l *schedulerLayer) scheduleOne(st *step) (out, error) {
	if l.nothingToPop() {
		return out{"popped": nil}, nil
	}
	l.reserve, l.permit = st.Reserve, st.Permit
	rec := &cycleRecord{}
	l.mu.Lock()
	l.cycle = rec
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.cycle = nil
		l.mu.Unlock()
	}()
	scheduleOnce(l)
	if rec.popped == nil {
		if popMayFindNothing {
			return out{"popped": nil}, nil
		}
		return nil, fmt.Errorf("activeQ was not empty, yet nothing was popped")
	}
	o := out{"popped": podKey(rec.popped)}
	if _, ours := l.sched.Profiles[rec.popped.Spec.SchedulerName]; !ours {
		return o, nil
	}
	result := map[string]any{"pod": podKey(rec.popped)}
	switch {
	case rec.failed:
		result["outcome"] = "error"
		if rec.reason == v1.PodReasonUnschedulable {
			result["outcome"] = "unschedulable"
		}
		// The filters' FitError, from SchedulePod; not the one v1.30 makes
		// of a Reserve or Permit rejection.
		if fitErr, ok := rec.scheduleErr.(*framework.FitError); ok {
			result["plugins"] = sortedStrings(fitErr.Diagnosis.UnschedulablePlugins.UnsortedList())
		}
	case !rec.scheduled:
		result["outcome"] = "skipped"
	default:
		result["outcome"] = "scheduled"
	}
	if rec.scheduled && rec.scheduleErr == nil {
		result["node"] = rec.host
	}
	o["result"] = result
	return o, nil
}

// waitingPod is the pod of that key waiting on Permit; with several (two
// uids of one key), the first by profile name, then uid.
func (l *schedulerLayer) waitingPod(key string) fwWaitingPod {
	var found []fwWaitingPod
	for _, name := range l.waitingProfiles() {
		var here []fwWaitingPod
		l.sched.Profiles[name].IterateOverWaitingPods(func(wp fwWaitingPod) {
			if podKey(wp.GetPod()) == key {
				here = append(here, wp)
			}
		})
		sort.Slice(here, func(i, j int) bool { return here[i].GetPod().UID < here[j].GetPod().UID })
		found = append(found, here...)
	}
	if len(found) == 0 {
		return nil
	}
	return found[0]
}

// waitingProfiles are the profiles whose waiting pods a read goes through:
// every profile, or one where scheduler.New gives all profiles the same
// waiting-pods map (waitingPodsShared).
func (l *schedulerLayer) waitingProfiles() []string {
	names := l.profileNames()
	if waitingPodsShared {
		return names[:1]
	}
	return names
}

func (l *schedulerLayer) profileNames() []string {
	var names []string
	for name := range l.sched.Profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// settle waits until every binding goroutine (each started by scheduleOne)
// is blocked in WaitOnPermit, parked before PreBind, or gone. An exit of
// upstream on one of them makes the step fatal.
func (l *schedulerLayer) settle() error {
	start, startCPU := time.Now(), threadCPU()
	defer func() {
		settleTime += time.Since(start)
		settleCPU += threadCPU() - startCPU
	}()
	deadline := start.Add(settleTimeout)
	if l.stack == nil {
		l.stack = make([]byte, 1<<20)
	}
	buf := l.stack
	for {
		if exitedElsewhere.Load() {
			panic(fatalExit{1})
		}
		n := runtime.Stack(buf, true)
		if n == len(buf) {
			buf = make([]byte, 2*len(buf))
			l.stack = buf
			continue
		}
		if settled(buf[:n]) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("a binding goroutine did not settle within %v", settleTimeout)
		}
		time.Sleep(20 * time.Microsecond)
	}
}

// settled reads a dump of every goroutine: each one scheduleOne created
// (scheduleOneFunc, the era's name of it) must be blocked on a channel in
// WaitOnPermit or in parkBeforePreBind.
func settled(dump []byte) bool {
	for _, g := range bytes.Split(dump, []byte("\n\n")) {
		if !bytes.Contains(g, []byte("created by k8s.io/kubernetes/pkg/scheduler.(*Scheduler)."+scheduleOneFunc)) {
			continue
		}
		header, _, _ := strings.Cut(string(g), "\n")
		_, status, _ := strings.Cut(header, "[")
		blocked := strings.HasPrefix(status, "chan receive") || strings.HasPrefix(status, "select")
		if !blocked {
			return false
		}
		if !bytes.Contains(g, []byte("(*frameworkImpl).WaitOnPermit(")) &&
			!bytes.Contains(g, []byte("main.parkBeforePreBind(")) {
			return false
		}
	}
	return true
}

func (l *schedulerLayer) state() map[string]any {
	queue, nominated := l.queueSnapshot()
	waiting := []string{}
	for _, name := range l.waitingProfiles() {
		l.sched.Profiles[name].IterateOverWaitingPods(func(wp fwWaitingPod) {
			waiting = append(waiting, podKey(wp.GetPod()))
		})
	}
	parked := []string{}
	l.mu.Lock()
	for _, pc := range l.parked {
		parked = append(parked, podKey(pc.pod))
	}
	l.mu.Unlock()
	return map[string]any{
		"queue":     queue,
		"nominated": nominated,
		"cache":     l.cacheSnapshot(),
		"waiting":   sortedStrings(waiting),
		"parked":    sortedStrings(parked),
	}
}
