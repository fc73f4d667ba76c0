//go:build k8s_1_36 || k8s_1_37

package main

// The scheduler layer's calls of v1.36 and v1.37: the binding goroutine is
// started by scheduleOnePod, SchedulePod is given the QueuedPodInfo,
// PreBindPreFlight returns a result, and the event recorder is an
// EventRecorderLogger.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// scheduleOneFunc is the name of the Scheduler's method that starts the
// binding goroutines.
const scheduleOneFunc = "scheduleOnePod"

// recorderFactory gives every profile the layer's event recorder.
func recorderFactory(l *schedulerLayer) func(string) events.EventRecorderLogger {
	return func(string) events.EventRecorderLogger { return eventCapture{l} }
}

// WithLogger is the recorder itself: it logs nothing.
func (e eventCapture) WithLogger(klog.Logger) events.EventRecorderLogger { return e }

// watchSchedulePod makes SchedulePod record what it returned.
func watchSchedulePod(l *schedulerLayer) {
	schedulePod := l.sched.SchedulePod
	l.sched.SchedulePod = func(ctx context.Context, f framework.Framework, state fwk.CycleState, podInfo *framework.QueuedPodInfo) (scheduler.ScheduleResult, error) {
		res, err := schedulePod(ctx, f, state, podInfo)
		l.scheduled(res, err)
		return res, err
	}
}

// PreBindPreFlight is TracePreBind's: Success, as its PreBind always works
// (it parks until a `bind` step), not run in parallel with other plugins.
func (p *tracePlugin) PreBindPreFlight(_ context.Context, _ fwk.CycleState, pod *v1.Pod, _ string) (*fwk.PreBindPreFlightResult, *fwk.Status) {
	p.l.prebinding(pod)
	return &fwk.PreBindPreFlightResult{}, nil
}
