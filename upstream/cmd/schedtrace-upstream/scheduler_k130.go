//go:build k8s_1_30

package main

// The scheduler layer's calls of v1.30 alone: NextPod takes a logger, and
// the event recorder is an EventRecorder.

import (
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// scheduleOneFunc is the name of the Scheduler's method that starts the
// binding goroutines.
const scheduleOneFunc = "ScheduleOne"

// recorderFactory gives every profile the layer's event recorder.
func recorderFactory(l *schedulerLayer) func(string) events.EventRecorder {
	return func(string) events.EventRecorder { return eventCapture{l} }
}

// watchNextPod makes NextPod record what it popped.
func watchNextPod(l *schedulerLayer) {
	nextPod := l.sched.NextPod
	l.sched.NextPod = func(logger klog.Logger) (*framework.QueuedPodInfo, error) {
		pInfo, err := nextPod(logger)
		l.popped(pInfo)
		return pInfo, err
	}
}
