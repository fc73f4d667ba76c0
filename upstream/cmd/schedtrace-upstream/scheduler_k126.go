//go:build k8s_1_26

package main

// The scheduler layer's calls of v1.26 alone.

import (
	"context"
	"time"

	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// watchFailureHandler makes the FailureHandler record what it is given;
// v1.26's is given the reason the scheduling cycle chose.
func watchFailureHandler(l *schedulerLayer) {
	failureHandler := l.sched.FailureHandler
	l.sched.FailureHandler = func(ctx context.Context, fwk framework.Framework, podInfo *framework.QueuedPodInfo, err error, reason string, nominatingInfo *framework.NominatingInfo, start time.Time) {
		l.failing(podInfo.Pod, reason)
		failureHandler(ctx, fwk, podInfo, err, reason, nominatingInfo, start)
	}
}
