//go:build k8s_1_25 || k8s_1_26

package main

// The scheduler layer's calls that v1.25 and v1.26 make alike: plugin
// factories without a context, scheduler.New with a stop channel, a NextPod
// without a logger, and the unexported scheduleOne (reached through the
// overlay's SchedtraceScheduleOne).

import (
	kruntime "k8s.io/apimachinery/pkg/runtime"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

// scheduleOneFunc is the name of the Scheduler's method that starts the
// binding goroutines.
const scheduleOneFunc = "scheduleOne"

// pluginFactory is a PluginFactory of a plugin that takes no arguments.
func pluginFactory(newPlugin func(framework.Handle) framework.Plugin) frameworkruntime.PluginFactory {
	return func(_ kruntime.Object, h framework.Handle) (framework.Plugin, error) {
		return newPlugin(h), nil
	}
}

// newScheduler is scheduler.New on the capturing informer factory, with
// the layer's event recorder and stop channel.
func newScheduler(l *schedulerLayer, client clientset.Interface, opts ...scheduler.Option) (*scheduler.Scheduler, error) {
	return scheduler.New(client,
		capturingFactory{l.informer, l.handlers}, nil,
		func(string) events.EventRecorder { return eventCapture{l} },
		l.stop, opts...)
}

// watchNextPod makes NextPod record what it popped.
func watchNextPod(l *schedulerLayer) {
	nextPod := l.sched.NextPod
	l.sched.NextPod = func() *framework.QueuedPodInfo {
		pInfo := nextPod()
		l.popped(pInfo)
		return pInfo
	}
}

// scheduleOnce is one scheduleOne.
func scheduleOnce(l *schedulerLayer) { l.sched.SchedtraceScheduleOne(l.ctx) }

// onAdd delivers an add to a handler.
func onAdd(h cache.ResourceEventHandler, obj interface{}) { h.OnAdd(obj) }
