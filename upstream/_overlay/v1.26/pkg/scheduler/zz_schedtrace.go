package scheduler

// Added to upstream's scheduler package at build time by schedtrace-upstream
// (go build -overlay): one scheduling cycle on demand, which Run would
// otherwise loop over. Nothing here changes what the scheduler does.

import "context"

// SchedtraceScheduleOne is scheduleOne: one pop and its scheduling cycle,
// with the binding goroutine it starts.
func (sched *Scheduler) SchedtraceScheduleOne(ctx context.Context) {
	sched.scheduleOne(ctx)
}
