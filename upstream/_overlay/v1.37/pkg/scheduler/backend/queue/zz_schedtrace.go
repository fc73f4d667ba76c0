package queue

// Added to upstream's queue package at build time by schedtrace-upstream
// (go build -overlay): reads of the PriorityQueue's unexported state, a Pop
// that does not wait, and the two periodic flushes its Run would start, so
// that a trace can take a snapshot and call them. Nothing here changes what
// the queue does. Since v1.37 the queues hold entities (a pod, or a pod
// group of GenericWorkload); a trace has no pod groups, and each entity is
// read as the pods it holds.

import (
	"reflect"
	"time"

	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// SchedtraceState is what a snapshot reads of a PriorityQueue.
type SchedtraceState struct {
	Active, Backoff, Unschedulable []*framework.QueuedPodInfo
	// BackoffExpiry[i] is getBackoffTime of the entity holding Backoff[i].
	BackoffExpiry []time.Time
	// MoveRequestCycle is -1: v1.37 has no moveRequestCycle (it served
	// only the queue without QueueingHints, which v1.37 no longer has). A
	// build that restores the field (upstream/reverts/) reports its value.
	SchedulingCycle, MoveRequestCycle int64
	// Nominated maps a node name to the keys (namespace/name) of the pods
	// nominated to it.
	Nominated map[string][]string
}

func schedtracePods(entity framework.QueuedEntityInfo) []*framework.QueuedPodInfo {
	var pods []*framework.QueuedPodInfo
	entity.ForEachPodInfo(func(pInfo *framework.QueuedPodInfo) bool {
		pods = append(pods, pInfo)
		return true
	})
	return pods
}

// SchedtraceState returns the queue's state. backoffQ is entityBackoffQ and
// entityErrorBackoffQ together, as backoffQueue.list reads it.
func (p *PriorityQueue) SchedtraceState() SchedtraceState {
	p.lock.RLock()
	defer p.lock.RUnlock()
	aq := p.activeQ.(*activeQueue)
	bq := p.backoffQ.(*backoffQueue)
	s := SchedtraceState{MoveRequestCycle: schedtraceMoveRequestCycle(p)}
	aq.lock.RLock()
	s.SchedulingCycle = aq.schedCycle
	for _, entity := range aq.queue.List() {
		s.Active = append(s.Active, schedtracePods(entity)...)
	}
	aq.lock.RUnlock()
	bq.lock.RLock()
	for _, entity := range append(bq.entityBackoffQ.List(), bq.entityErrorBackoffQ.List()...) {
		for _, pInfo := range schedtracePods(entity) {
			s.Backoff = append(s.Backoff, pInfo)
			s.BackoffExpiry = append(s.BackoffExpiry, bq.getBackoffTime(entity))
		}
	}
	bq.lock.RUnlock()
	for _, entity := range p.unschedulableEntities.entityInfoMap {
		s.Unschedulable = append(s.Unschedulable, schedtracePods(entity)...)
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
// (SchedulerPopFromBackoffQ), nothing in entityBackoffQ. aq.lock is held.
func (aq *activeQueue) schedtraceNothingToPop() bool {
	return aq.queue.Len() == 0 && (aq.backoffQPopper == nil || aq.backoffQPopper.lenBackoff() == 0)
}

// SchedtraceTryPop is Pop, except that where Pop would wait it returns nil.
// Pop runs as it is; when it discards what it could pop (a pod already in
// flight) and is left waiting, it is woken the way Close wakes it, and the
// queue is reopened. The entity popped is the pod itself: a trace has no pod
// groups.
func (p *PriorityQueue) SchedtraceTryPop(logger klog.Logger) (*framework.QueuedPodInfo, error) {
	aq := p.activeQ.(*activeQueue)
	aq.lock.Lock()
	nothing := aq.schedtraceNothingToPop()
	aq.lock.Unlock()
	if nothing {
		return nil, nil
	}
	type popped struct {
		entity framework.QueuedEntityInfo
		err    error
	}
	done := make(chan popped, 1)
	go func() {
		entity, err := p.Pop(logger)
		done <- popped{entity, err}
	}()
	var r popped
	for waiting := true; waiting; {
		select {
		case r = <-done:
			waiting = false
			continue
		case <-time.After(time.Millisecond):
		}
		aq.lock.Lock()
		if aq.schedtraceNothingToPop() {
			// Pop holds aq.lock until it returns or waits on aq.cond, and
			// the queue was not empty when it started: it is waiting.
			aq.closed = true
			aq.cond.Broadcast()
			aq.lock.Unlock()
			r = <-done
			aq.lock.Lock()
			aq.closed = false
			aq.lock.Unlock()
			break
		}
		aq.lock.Unlock()
	}
	if r.err != nil || r.entity == nil {
		return nil, r.err
	}
	pInfo, _ := r.entity.(*framework.QueuedPodInfo)
	return pInfo, nil
}

// SchedtraceFlushBackoff is flushBackoffQCompleted.
func (p *PriorityQueue) SchedtraceFlushBackoff(logger klog.Logger) { p.flushBackoffQCompleted(logger) }

// SchedtraceFlushUnschedulable is flushUnschedulableEntitiesLeftover.
func (p *PriorityQueue) SchedtraceFlushUnschedulable(logger klog.Logger) {
	p.flushUnschedulableEntitiesLeftover(logger)
}

// schedtraceMoveRequestCycle reads the PriorityQueue's moveRequestCycle if
// the build has one, and is -1 otherwise. Reflection reads it so that this
// file compiles against v1.37's queue and against a revert that adds it.
func schedtraceMoveRequestCycle(p *PriorityQueue) int64 {
	field := reflect.ValueOf(p).Elem().FieldByName("moveRequestCycle")
	if !field.IsValid() {
		return -1
	}
	return field.Int()
}
