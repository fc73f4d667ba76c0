//go:build k8s_1_25 || k8s_1_26

package queue

// Added to upstream's queue package at build time by schedtrace-upstream
// (go build -overlay): the two periodic flushes Run would start, so that a
// trace can call them at its own time, and the clock of a queue
// scheduler.New made.

import "k8s.io/utils/clock"

// SchedtraceFlushBackoff is flushBackoffQCompleted.
func (p *PriorityQueue) SchedtraceFlushBackoff() { p.flushBackoffQCompleted() }

// SchedtraceFlushUnschedulable is flushUnschedulablePodsLeftover.
func (p *PriorityQueue) SchedtraceFlushUnschedulable() { p.flushUnschedulablePodsLeftover() }

// SchedtraceSetClock makes the queue read the given clock from now on, as
// WithClock would have made it from the start (scheduler.New offers no clock
// option). Call it before the queue holds any pod.
func (p *PriorityQueue) SchedtraceSetClock(c clock.Clock) {
	p.lock.Lock()
	defer p.lock.Unlock()
	p.clock = c
}
