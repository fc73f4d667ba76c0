package queue

// Added to upstream's queue package at build time by schedtrace-upstream
// (go build -overlay): the two periodic flushes Run would start, so that a
// trace can call them at its own time, with the logger Run would be given.

import "k8s.io/klog/v2"

// SchedtraceFlushBackoff is flushBackoffQCompleted.
func (p *PriorityQueue) SchedtraceFlushBackoff() { p.flushBackoffQCompleted(klog.Background()) }

// SchedtraceFlushUnschedulable is flushUnschedulablePodsLeftover.
func (p *PriorityQueue) SchedtraceFlushUnschedulable() {
	p.flushUnschedulablePodsLeftover(klog.Background())
}
