//go:build k8s_1_25

package main

// What v1.25 does not have: PreEnqueue, the scheduling gates and their
// feature gate.

import (
	v1 "k8s.io/api/core/v1"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

// checkFeatures accepts any features: no gate of the header exists here.
func checkFeatures(*config) error { return nil }

// setFeatureGates sets nothing: every gate stays at v1.25's default.
func setFeatureGates(*config) error { return nil }

// withPreEnqueue adds nothing: the header's PreEnqueue plugins are ignored.
func withPreEnqueue(_ *config, opts []schedtrace.QueueOption) ([]schedtrace.QueueOption, error) {
	return opts, nil
}

// setPreEnqueue enables nothing: v1.25's profiles have no PreEnqueue
// extension point.
func setPreEnqueue(*config, frameworkruntime.Registry, []schedulerapi.KubeSchedulerProfile) {}

// isGated is false: nothing is gated before v1.26.
func isGated(*framework.QueuedPodInfo) bool { return false }

// newPodInfo is framework.NewPodInfo.
func newPodInfo(pod *v1.Pod) *framework.PodInfo { return framework.NewPodInfo(pod) }
