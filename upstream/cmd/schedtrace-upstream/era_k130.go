//go:build k8s_1_30

package main

// What is v1.30's alone: PodSchedulingReadiness is GA and locked on, and
// SchedulerQueueingHints stays at its default, off.

import (
	"context"
	"fmt"

	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
)

// checkFeatures refuses a header setting a gate away from what this binary
// runs: PodSchedulingReadiness off (locked on), SchedulerQueueingHints on.
func checkFeatures(c *config) error {
	if on, ok := c.Features["PodSchedulingReadiness"]; ok && !on {
		return fmt.Errorf("features.PodSchedulingReadiness: false is refused: the gate is GA and locked on in %s", upstreamVersion)
	}
	if c.Features["SchedulerQueueingHints"] {
		return fmt.Errorf("features.SchedulerQueueingHints: true is refused: %s runs with the gate at its default, off", upstreamVersion)
	}
	return nil
}

// setFeatureGates sets nothing: every gate stays at v1.30's default, which
// checkFeatures has checked the header against.
func setFeatureGates(*config) error { return nil }

// podSchedulingReadiness is true: the gate is locked on.
func podSchedulingReadiness(*config) bool { return true }

// schedulingGates is upstream's SchedulingGates, always on.
func schedulingGates(*config) (framework.Plugin, error) {
	return schedulinggates.New(context.Background(), nil, nil)
}
