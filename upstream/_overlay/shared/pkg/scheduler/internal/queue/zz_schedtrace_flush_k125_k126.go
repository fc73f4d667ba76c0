//go:build k8s_1_25 || k8s_1_26

package queue

// Added to upstream's queue package at build time by schedtrace-upstream
// (go build -overlay): the two periodic flushes Run would start, so that a
// trace can call them at its own time.

// SchedtraceFlushBackoff is flushBackoffQCompleted.
func (p *PriorityQueue) SchedtraceFlushBackoff() { p.flushBackoffQCompleted() }

// SchedtraceFlushUnschedulable is flushUnschedulablePodsLeftover.
func (p *PriorityQueue) SchedtraceFlushUnschedulable() { p.flushUnschedulablePodsLeftover() }
