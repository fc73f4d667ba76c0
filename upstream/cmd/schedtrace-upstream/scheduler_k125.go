//go:build k8s_1_25

package main

// The scheduler layer's calls of v1.25 alone.

import (
	"context"

	"k8s.io/kubernetes/pkg/scheduler"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// allNodesToScore makes every node a candidate: v1.25's option takes the
// percentage itself.
func allNodesToScore() scheduler.Option { return scheduler.WithPercentageOfNodesToScore(100) }

// watchFailureHandler makes the FailureHandler record what it is given;
// v1.25's takes no start time.
func watchFailureHandler(l *schedulerLayer) {
	failureHandler := l.sched.FailureHandler
	l.sched.FailureHandler = func(ctx context.Context, fwk framework.Framework, podInfo *framework.QueuedPodInfo, err error, reason string, nominatingInfo *framework.NominatingInfo) {
		l.failing(podInfo.Pod, reason)
		failureHandler(ctx, fwk, podInfo, err, reason, nominatingInfo)
	}
}
