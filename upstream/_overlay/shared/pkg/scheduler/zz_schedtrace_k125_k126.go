//go:build k8s_1_25 || k8s_1_26

package scheduler

// Added to upstream's scheduler package at build time by schedtrace-upstream
// (go build -overlay) for v1.25 and v1.26, whose scheduleOne is unexported
// (v1.30 exports it as ScheduleOne): one scheduling cycle on demand, which
// Run would otherwise loop over. Nothing here changes what the scheduler
// does.

import "context"

// SchedtraceScheduleOne is scheduleOne: one pop and its scheduling cycle,
// with the binding goroutine it starts.
func (sched *Scheduler) SchedtraceScheduleOne(ctx context.Context) {
	sched.scheduleOne(ctx)
}
