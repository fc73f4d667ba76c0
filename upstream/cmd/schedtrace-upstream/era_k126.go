//go:build k8s_1_26

package main

// What is v1.26's alone: the SchedulingGates plugin behind the
// PodSchedulingReadiness feature gate, which the header sets.

import (
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
)

// checkFeatures accepts any features: PodSchedulingReadiness is as given.
func checkFeatures(*config) error { return nil }

// setFeatureGates sets PodSchedulingReadiness as the header gives it (absent
// is off), for the plugins scheduler.New builds.
func setFeatureGates(c *config) error {
	return utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{
		"PodSchedulingReadiness": c.Features["PodSchedulingReadiness"],
	})
}

// podSchedulingReadiness is the header's PodSchedulingReadiness.
func podSchedulingReadiness(c *config) bool { return c.Features["PodSchedulingReadiness"] }

// schedulingGates is upstream's SchedulingGates with the header's gate.
func schedulingGates(c *config) (framework.Plugin, error) {
	return schedulinggates.New(nil, nil, feature.Features{
		EnablePodSchedulingReadiness: c.Features["PodSchedulingReadiness"],
	})
}
