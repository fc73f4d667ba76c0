//go:build k8s_1_35

package main

// The scheduler layer's calls of v1.35 alone.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// scheduleOneFunc is the name of the Scheduler's method that starts the
// binding goroutines.
const scheduleOneFunc = "ScheduleOne"

// recorderFactory gives every profile the layer's event recorder.
func recorderFactory(l *schedulerLayer) func(string) events.EventRecorder {
	return func(string) events.EventRecorder { return eventCapture{l} }
}

// watchSchedulePod makes SchedulePod record what it returned; v1.35's is
// given the pod.
func watchSchedulePod(l *schedulerLayer) {
	schedulePod := l.sched.SchedulePod
	l.sched.SchedulePod = func(ctx context.Context, f framework.Framework, state fwk.CycleState, pod *v1.Pod) (scheduler.ScheduleResult, error) {
		res, err := schedulePod(ctx, f, state, pod)
		l.scheduled(res, err)
		return res, err
	}
}

// PreBindPreFlight is TracePreBind's: Success, as its PreBind always works
// (it parks until a `bind` step).
func (p *tracePlugin) PreBindPreFlight(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ string) *fwk.Status {
	p.l.prebinding(pod)
	return nil
}
