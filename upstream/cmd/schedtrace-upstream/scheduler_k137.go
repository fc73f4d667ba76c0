//go:build k8s_1_37

package main

import (
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// watchNextPod makes NextEntity the queue's Pop that never waits
// (SchedtraceTryPop; scheduler.New sets NextEntity to Pop), recording what
// it popped. A trace has no pod groups: every entity is a pod.
func watchNextPod(l *schedulerLayer) {
	l.sched.NextEntity = func(logger klog.Logger) (framework.QueuedEntityInfo, error) {
		pInfo, err := l.queue.SchedtraceTryPop(logger)
		l.popped(pInfo)
		if pInfo == nil {
			return nil, err
		}
		return pInfo, err
	}
}
