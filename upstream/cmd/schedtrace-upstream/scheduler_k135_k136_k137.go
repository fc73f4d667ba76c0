//go:build k8s_1_35 || k8s_1_36 || k8s_1_37

package main

// The scheduler layer's names and reads from v1.35 on: the plugin API is
// k8s.io/kube-scheduler/framework (fwk; a NodeInfo is an interface, a
// CycleState too), the queue and the cache are pkg/scheduler/backend/{queue,
// cache}. The gates are the version's defaults (checkFeatures), which
// changes what the layer wires, each noted where it is wired:
//
//   - SchedulerQueueingHints is on (and no longer a gate in v1.37): the
//     queue keeps in-flight pods and the events seen meanwhile. The Trace*
//     plugins register events with a hint (EventsToRegister).
//   - SchedulerPopFromBackoffQ is on: Pop takes from backoffQ when activeQ is
//     empty, so "nothing to pop" is the queue's to say (the era's NextPod is
//     the overlay's SchedtraceTryPop: Pop, except that where Pop would wait
//     it pops nothing).
//   - SchedulerAsyncAPICalls is off (Beta, default false, in all three
//     versions): scheduler.New makes no APIDispatcher, and every status
//     patch is the client's synchronous call, on the goroutine that makes
//     it; nothing is left in flight after a step for the settle to wait for.
//   - NominatedNodeNameForExpectation is on: the binding cycle runs the
//     PreBind plugins' PreBindPreFlight, and when one of them will work
//     patches the pod's nominatedNodeName to its node before WaitOnPermit
//     (bindingCycle). TracePreBind always works (it parks), so its
//     PreBindPreFlight answers Success, and every binding cycle makes that
//     patch, inside the step that started the binding goroutine: a
//     statusUpdate with reason "" (prebinding).
//   - OpportunisticBatching is on, but a profile batches only when every
//     PreFilter, Filter, PreScore and Score plugin implements SignPlugin;
//     TraceScore does not (it implements what the older eras' plugins did),
//     so signatures, and with them the batch's node hints, are off.
//   - DynamicResourceAllocation is on: scheduler.New builds its claim cache
//     and slice tracker on the real factory's informers, which are never
//     started; no trace event reaches them.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// The framework's types and calls that scheduler_common.go names.
type (
	schedQueue        = queue.PriorityQueue
	fwLessFunc        = fwk.LessFunc
	fwHandle          = fwk.Handle
	fwPlugin          = fwk.Plugin
	fwStatus          = fwk.Status
	fwCycleState      = fwk.CycleState
	fwStateData       = fwk.StateData
	fwStateKey        = fwk.StateKey
	fwWaitingPod      = fwk.WaitingPod
	fwScoreExtensions = fwk.ScoreExtensions
	fwNominatingInfo  = fwk.NominatingInfo
)

const (
	codeError         = fwk.Error
	codeWait          = fwk.Wait
	codeUnschedulable = fwk.Unschedulable
)

var newStatus = fwk.NewStatus

// queueingHintsAlwaysOn is true: checkFeatures refuses the gate off.
const queueingHintsAlwaysOn = true

// popMayFindNothing is true: the era's NextPod pops nothing where Pop would
// wait, which a schedule_one answers {"popped": null}.
const popMayFindNothing = true

// waitingPodsShared is true: scheduler.New gives every profile one waiting-pods map
// (frameworkruntime.WithWaitingPods).
const waitingPodsShared = true

// eraSchedulerOptions gives the queue the fake clock (scheduler.WithClock,
// which these versions have).
func eraSchedulerOptions() []scheduler.Option {
	return []scheduler.Option{scheduler.WithClock(fakeClock)}
}

// eraSetClock does nothing: the queue has the clock from scheduler.New.
func (l *schedulerLayer) eraSetClock() {}

// nothingToPop is false: whether Pop finds a pod (activeQ, or backoffQ) is
// the era's NextPod's to say.
func (l *schedulerLayer) nothingToPop() bool { return false }

func (l *schedulerLayer) logger() klog.Logger { return klog.FromContext(l.ctx) }

func (l *schedulerLayer) flushBackoff()       { l.queue.SchedtraceFlushBackoff(l.logger()) }
func (l *schedulerLayer) flushUnschedulable() { l.queue.SchedtraceFlushUnschedulable(l.logger()) }

// queueSnapshot is the snapshot's queue and nominated parts.
func (l *schedulerLayer) queueSnapshot() (map[string]any, map[string][]string) {
	qs := l.queue.SchedtraceState()
	return queueState(qs, l.less), nominatedKeys(qs.Nominated)
}

// cacheSnapshot is the snapshot's cache part.
func (l *schedulerLayer) cacheSnapshot() map[string]any {
	return cacheState(cache.SchedtraceStateOf(l.sched.Cache))
}

// Score is TraceScore (labelScore) of the node the framework gives.
func (p *tracePlugin) Score(_ context.Context, _ fwk.CycleState, _ *v1.Pod, ni fwk.NodeInfo) (int64, *fwk.Status) {
	return labelScore(ni.Node()), nil
}

// EventsToRegister registers, for each Trace* plugin, what the older eras
// registered for it by implementing no EnqueueExtensions: the framework's
// defaultEnqueueExtension, every event of framework.UnrollWildCardResource.
// Its hint answers Queue whatever the event, as the framework's
// defaultQueueingHintFn does for an event registered without one: the
// faithful equivalent of the older eras' static map.
func (p *tracePlugin) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	events := framework.UnrollWildCardResource()
	for i := range events {
		events[i].QueueingHintFn = defaultQueueingHint
	}
	return events, nil
}

// prebinding records the object whose status the binding cycle patches
// next (bindingCycle's updatePod of the assumed pod, which sets its
// nominatedNodeName), as failing does for the failure handler's pod: onPatch
// applies the patch to it. The object is the pod's status without its
// conditions: the patch sets no condition, so its statusUpdate's reason is
// "" whatever conditions the trace's pod carries (a field the format does
// not read).
func (l *schedulerLayer) prebinding(pod *v1.Pod) {
	base := &v1.Pod{Status: *pod.Status.DeepCopy()}
	base.Status.Conditions = nil
	l.mu.Lock()
	defer l.mu.Unlock()
	l.patchBase[podKey(pod)] = base
}
