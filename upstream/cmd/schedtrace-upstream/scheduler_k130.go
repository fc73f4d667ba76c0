//go:build k8s_1_30

package main

// The scheduler layer's calls of v1.30: plugin factories and scheduler.New
// take a context (its cancellation stops what New started), NextPod takes
// a logger, ScheduleOne is exported, and the FailureHandler is given a
// Status of which it makes the reason itself.

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// scheduleOneFunc is the name of the Scheduler's method that starts the
// binding goroutines.
const scheduleOneFunc = "ScheduleOne"

// pluginFactory is a PluginFactory of a plugin that takes no arguments.
func pluginFactory(newPlugin func(framework.Handle) framework.Plugin) frameworkruntime.PluginFactory {
	return func(_ context.Context, _ kruntime.Object, h framework.Handle) (framework.Plugin, error) {
		return newPlugin(h), nil
	}
}

// newScheduler is scheduler.New on the capturing informer factory, with
// the layer's event recorder and context.
func newScheduler(l *schedulerLayer, client clientset.Interface, opts ...scheduler.Option) (*scheduler.Scheduler, error) {
	return scheduler.New(l.ctx, client,
		capturingFactory{l.informer, l.handlers}, nil,
		func(string) events.EventRecorder { return eventCapture{l} },
		opts...)
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

// watchFailureHandler makes the FailureHandler record what it is given,
// with the reason handleSchedulingFailure makes of the status.
func watchFailureHandler(l *schedulerLayer) {
	failureHandler := l.sched.FailureHandler
	l.sched.FailureHandler = func(ctx context.Context, fwk framework.Framework, podInfo *framework.QueuedPodInfo, status *framework.Status, nominatingInfo *framework.NominatingInfo, start time.Time) {
		reason := v1.PodReasonSchedulerError
		if status.IsRejected() {
			reason = v1.PodReasonUnschedulable
		}
		l.failing(podInfo.Pod, reason)
		failureHandler(ctx, fwk, podInfo, status, nominatingInfo, start)
	}
}

// scheduleOnce is one ScheduleOne.
func scheduleOnce(l *schedulerLayer) { l.sched.ScheduleOne(l.ctx) }

// onAdd delivers an add to a handler, as an informer does for an object
// that was not in its initial list.
func onAdd(h cache.ResourceEventHandler, obj interface{}) { h.OnAdd(obj, false) }
