//go:build k8s_1_25 || k8s_1_26 || k8s_1_30

package main

// The scheduler layer's names and reads in the eras whose plugin API is
// pkg/scheduler/framework and whose queue and cache are internal (reached
// through the overlay's package schedtrace).

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

// The framework's types and calls that scheduler_common.go names.
type (
	schedQueue        = schedtrace.PriorityQueue
	fwLessFunc        = framework.LessFunc
	fwHandle          = framework.Handle
	fwPlugin          = framework.Plugin
	fwStatus          = framework.Status
	fwCycleState      = *framework.CycleState
	fwStateData       = framework.StateData
	fwStateKey        = framework.StateKey
	fwWaitingPod      = framework.WaitingPod
	fwScoreExtensions = framework.ScoreExtensions
	fwNominatingInfo  = framework.NominatingInfo
)

const (
	codeError         = framework.Error
	codeWait          = framework.Wait
	codeUnschedulable = framework.Unschedulable
)

var newStatus = framework.NewStatus

// queueingHintsAlwaysOn is false: SchedulerQueueingHints is a gate these
// eras keep off, and the layer refuses it on.
const queueingHintsAlwaysOn = false

// popMayFindNothing is false: scheduleOne pops only when activeQ holds a pod
// (nothingToPop), and Pop then returns it.
const popMayFindNothing = false

// waitingPodsShared is false: each profile keeps its own waiting pods.
const waitingPodsShared = false

// eraSchedulerOptions adds nothing: the clock is set after scheduler.New
// (eraSetClock).
func eraSchedulerOptions() []scheduler.Option { return nil }

// eraSetClock gives the queue the fake clock, before it holds any pod.
func (l *schedulerLayer) eraSetClock() { l.queue.SchedtraceSetClock(fakeClock) }

// nothingToPop is whether activeQ is empty, where Pop would block.
func (l *schedulerLayer) nothingToPop() bool { return l.queue.SchedtraceActiveLen() == 0 }

func (l *schedulerLayer) flushBackoff()       { l.queue.SchedtraceFlushBackoff() }
func (l *schedulerLayer) flushUnschedulable() { l.queue.SchedtraceFlushUnschedulable() }

// queueSnapshot is the snapshot's queue and nominated parts.
func (l *schedulerLayer) queueSnapshot() (map[string]any, map[string][]string) {
	qs := l.queue.SchedtraceState()
	return queueState(qs, l.less), nominatedState(qs.Nominated)
}

// cacheSnapshot is the snapshot's cache part.
func (l *schedulerLayer) cacheSnapshot() map[string]any {
	return cacheState(schedtrace.CacheStateOf(l.sched.Cache))
}

// watchSchedulePod makes SchedulePod record what it returned.
func watchSchedulePod(l *schedulerLayer) {
	schedulePod := l.sched.SchedulePod
	l.sched.SchedulePod = func(ctx context.Context, fwk framework.Framework, state *framework.CycleState, pod *v1.Pod) (scheduler.ScheduleResult, error) {
		res, err := schedulePod(ctx, fwk, state, pod)
		l.scheduled(res, err)
		return res, err
	}
}

// Score is TraceScore (labelScore) of the node of that name in the
// scheduling cycle's snapshot.
func (p *tracePlugin) Score(_ context.Context, _ *framework.CycleState, _ *v1.Pod, nodeName string) (int64, *framework.Status) {
	ni, err := p.h.SnapshotSharedLister().NodeInfos().Get(nodeName)
	if err != nil {
		return 0, framework.AsStatus(err)
	}
	return labelScore(ni.Node()), nil
}

// failureHandlerPatchesInformerPod: handleSchedulingFailure computes its
// status patch from the informer's pod that replaced the failed one (before v1.36).
const failureHandlerPatchesInformerPod = false
