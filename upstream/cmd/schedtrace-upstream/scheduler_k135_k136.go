//go:build k8s_1_35 || k8s_1_36

package main

import (
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// watchNextPod makes NextPod the queue's Pop that never waits
// (SchedtraceTryPop; scheduler.New sets NextPod to Pop), recording what it
// popped.
func watchNextPod(l *schedulerLayer) {
	l.sched.NextPod = func(logger klog.Logger) (*framework.QueuedPodInfo, error) {
		pInfo, err := l.queue.SchedtraceTryPop(logger)
		l.popped(pInfo)
		return pInfo, err
	}
}
