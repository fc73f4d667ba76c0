//go:build k8s_1_35 || k8s_1_36

package queue

// Added to upstream's queue package at build time by schedtrace-upstream
// (go build -overlay): reads of the PriorityQueue's unexported state, a Pop
// that does not wait, and the two periodic flushes its Run would start, so
// that a trace can take a snapshot and call them. Nothing here changes what
// the queue does.

import (
	"time"

	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// SchedtraceState is what a snapshot reads of a PriorityQueue.
type SchedtraceState struct {
	Active, Backoff, Unschedulable []*framework.QueuedPodInfo
	// BackoffExpiry[i] is getBackoffTime(Backoff[i]).
	BackoffExpiry                     []time.Time
	SchedulingCycle, MoveRequestCycle int64
	// Nominated maps a node name to the keys (namespace/name) of the pods
	// nominated to it.
	Nominated map[string][]string
}

// SchedtraceState returns the queue's state. backoffQ is podBackoffQ and
// podErrorBackoffQ together, as backoffQueue.list reads it.
func (p *PriorityQueue) SchedtraceState() SchedtraceState {
	p.lock.RLock()
	defer p.lock.RUnlock()
	aq := p.activeQ.(*activeQueue)
	bq := p.backoffQ.(*backoffQueue)
	s := SchedtraceState{MoveRequestCycle: p.moveRequestCycle}
	aq.lock.RLock()
	s.SchedulingCycle = aq.schedCycle
	s.Active = append(s.Active, aq.queue.List()...)
	aq.lock.RUnlock()
	bq.lock.RLock()
	for _, pInfo := range append(bq.podBackoffQ.List(), bq.podErrorBackoffQ.List()...) {
		s.Backoff = append(s.Backoff, pInfo)
		s.BackoffExpiry = append(s.BackoffExpiry, bq.getBackoffTime(pInfo))
	}
	bq.lock.RUnlock()
	for _, pInfo := range p.unschedulablePods.podInfoMap {
		s.Unschedulable = append(s.Unschedulable, pInfo)
	}
	s.Nominated = p.nominator.schedtraceNominated()
	return s
}

func (npm *nominator) schedtraceNominated() map[string][]string {
	npm.nLock.RLock()
	defer npm.nLock.RUnlock()
	m := map[string][]string{}
	for node, refs := range npm.nominatedPods {
		for _, r := range refs {
			m[node] = append(m[node], r.namespace+"/"+r.name)
		}
	}
	return m
}

// schedtraceNothingToPop is the condition on which activeQueue.unlockedPop
// waits: activeQ empty and, when Pop may take from backoffQ
// (SchedulerPopFromBackoffQ), no pod in podBackoffQ. aq.lock is held.
func (aq *activeQueue) schedtraceNothingToPop() bool {
	return aq.queue.Len() == 0 && (aq.backoffQPopper == nil || aq.backoffQPopper.lenBackoff() == 0)
}

// SchedtraceTryPop is Pop, except that where Pop would wait for a pod it
// returns nil. Pop runs as it is; when it discards what it could pop (a pod
// already in flight) and is left waiting, it is woken the way Close wakes
// it, and the queue is reopened.
func (p *PriorityQueue) SchedtraceTryPop(logger klog.Logger) (*framework.QueuedPodInfo, error) {
	aq := p.activeQ.(*activeQueue)
	aq.lock.Lock()
	nothing := aq.schedtraceNothingToPop()
	aq.lock.Unlock()
	if nothing {
		return nil, nil
	}
	type popped struct {
		pInfo *framework.QueuedPodInfo
		err   error
	}
	done := make(chan popped, 1)
	go func() {
		pInfo, err := p.Pop(logger)
		done <- popped{pInfo, err}
	}()
	for {
		select {
		case r := <-done:
			return r.pInfo, r.err
		case <-time.After(time.Millisecond):
		}
		aq.lock.Lock()
		if aq.schedtraceNothingToPop() {
			// Pop holds aq.lock until it returns or waits on aq.cond, and
			// the queue was not empty when it started: it is waiting.
			aq.closed = true
			aq.cond.Broadcast()
			aq.lock.Unlock()
			r := <-done
			aq.lock.Lock()
			aq.closed = false
			aq.lock.Unlock()
			return r.pInfo, r.err
		}
		aq.lock.Unlock()
	}
}

// SchedtraceFlushBackoff is flushBackoffQCompleted.
func (p *PriorityQueue) SchedtraceFlushBackoff(logger klog.Logger) { p.flushBackoffQCompleted(logger) }

// SchedtraceFlushUnschedulable is flushUnschedulablePodsLeftover.
func (p *PriorityQueue) SchedtraceFlushUnschedulable(logger klog.Logger) {
	p.flushUnschedulablePodsLeftover(logger)
}
