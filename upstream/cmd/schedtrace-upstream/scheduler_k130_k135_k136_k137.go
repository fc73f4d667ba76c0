//go:build k8s_1_30 || k8s_1_35 || k8s_1_36 || k8s_1_37

package main

// The scheduler layer's calls that v1.30 and later make alike: plugin
// factories and scheduler.New take a context (its cancellation stops what
// New started), ScheduleOne is exported, and the FailureHandler is given a
// Status of which it makes the reason itself. The framework's types are the
// era's aliases (fwHandle, fwStatus, ...).

import (
	"context"
	"time"

	v1 "k8s.io/api/core/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// pluginFactory is a PluginFactory of a plugin that takes no arguments.
func pluginFactory(newPlugin func(fwHandle) fwPlugin) frameworkruntime.PluginFactory {
	return func(_ context.Context, _ kruntime.Object, h fwHandle) (fwPlugin, error) {
		return newPlugin(h), nil
	}
}

// newScheduler is scheduler.New on the capturing informer factory, with
// the layer's event recorder (recorderFactory) and context.
func newScheduler(l *schedulerLayer, client clientset.Interface, opts ...scheduler.Option) (*scheduler.Scheduler, error) {
	return scheduler.New(l.ctx, client,
		capturingFactory{l.informer, l.handlers}, nil,
		recorderFactory(l), opts...)
}

// watchFailureHandler makes the FailureHandler record what it is given,
// with the reason handleSchedulingFailure makes of the status.
func watchFailureHandler(l *schedulerLayer) {
	failureHandler := l.sched.FailureHandler
	l.sched.FailureHandler = func(ctx context.Context, fwk framework.Framework, podInfo *framework.QueuedPodInfo, status *fwStatus, nominatingInfo *fwNominatingInfo, start time.Time) {
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
