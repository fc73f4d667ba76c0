//go:build k8s_1_25 || k8s_1_26 || k8s_1_30

package queue

// Added to upstream's queue package at build time by schedtrace-upstream
// (go build -overlay), in every era: reads of the PriorityQueue's unexported
// state, so that a trace can take a snapshot. The two periodic flushes its Run
// would start are named by the era's zz_schedtrace_flush file. Nothing here
// changes what the queue does but SchedtraceSetClock, which gives a queue
// scheduler.New made the clock WithClock would have given it.

import (
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/utils/clock"
)

// SchedtraceState is what a snapshot reads of a PriorityQueue.
type SchedtraceState struct {
	Active, Backoff, Unschedulable []*framework.QueuedPodInfo
	// BackoffExpiry[i] is getBackoffTime(Backoff[i]).
	BackoffExpiry                     []time.Time
	SchedulingCycle, MoveRequestCycle int64
	// Nominated maps a node name to the pods nominated to it.
	Nominated map[string][]*v1.Pod
}

// SchedtraceState returns the queue's state.
func (p *PriorityQueue) SchedtraceState() SchedtraceState {
	p.lock.RLock()
	defer p.lock.RUnlock()
	s := SchedtraceState{SchedulingCycle: p.schedulingCycle, MoveRequestCycle: p.moveRequestCycle}
	for _, obj := range p.activeQ.List() {
		s.Active = append(s.Active, obj.(*framework.QueuedPodInfo))
	}
	for _, obj := range p.podBackoffQ.List() {
		pInfo := obj.(*framework.QueuedPodInfo)
		s.Backoff = append(s.Backoff, pInfo)
		s.BackoffExpiry = append(s.BackoffExpiry, p.getBackoffTime(pInfo))
	}
	for _, pInfo := range p.unschedulablePods.podInfoMap {
		s.Unschedulable = append(s.Unschedulable, pInfo)
	}
	s.Nominated = p.nominator.schedtraceNominated()
	return s
}

func (npm *nominator) schedtraceNominated() map[string][]*v1.Pod {
	npm.lock.RLock()
	defer npm.lock.RUnlock()
	m := map[string][]*v1.Pod{}
	for node, pis := range npm.nominatedPods {
		for _, pi := range pis {
			m[node] = append(m[node], pi.Pod)
		}
	}
	return m
}

// SchedtraceActiveLen is the length of activeQ (Pop blocks when it is 0).
func (p *PriorityQueue) SchedtraceActiveLen() int {
	p.lock.RLock()
	defer p.lock.RUnlock()
	return p.activeQ.Len()
}

// SchedtraceSetClock makes the queue read the given clock from now on, as
// WithClock would have made it from the start (scheduler.New offers no clock
// option). Call it before the queue holds any pod.
func (p *PriorityQueue) SchedtraceSetClock(c clock.Clock) {
	p.lock.Lock()
	defer p.lock.Unlock()
	p.clock = c
}
