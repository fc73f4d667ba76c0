//go:build k8s_1_35 || k8s_1_36 || k8s_1_37

package main

import (
	"fmt"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

// checkFeatures refuses a header setting a gate away from what this binary
// runs: PodSchedulingReadiness off (GA, locked on) and SchedulerQueueingHints
// off (locked on in v1.35 and v1.36, no longer a gate in v1.37).
func checkFeatures(c *config) error {
	if on, ok := c.Features["PodSchedulingReadiness"]; ok && !on {
		return fmt.Errorf("features.PodSchedulingReadiness: false is refused: the gate is GA and locked on in %s", upstreamVersion)
	}
	if on, ok := c.Features["SchedulerQueueingHints"]; ok && !on {
		return fmt.Errorf("features.SchedulerQueueingHints: false is refused: QueueingHints always run in %s", upstreamVersion)
	}
	if c.Features["SchedulerAsyncAPICalls"] {
		return fmt.Errorf("features.SchedulerAsyncAPICalls: true is refused: not modelled (%s runs with the gate at its default, off)", upstreamVersion)
	}
	if c.Features["SchedulerPreQueueingHints"] && hasPreQueueingHintsGate {
		return fmt.Errorf("features.SchedulerPreQueueingHints: true is refused: not modelled (%s runs with the gate at its default, off)", upstreamVersion)
	}
	return nil
}

// setFeatureGates sets SchedulerPopFromBackoffQ as the header gives it;
// every other gate stays at the version's default, which checkFeatures has
// checked the header against.
func setFeatureGates(c *config) error {
	if on, ok := c.Features["SchedulerPopFromBackoffQ"]; ok {
		return utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{"SchedulerPopFromBackoffQ": on})
	}
	return nil
}

// podSchedulingReadiness is true: the gate is locked on.
func podSchedulingReadiness(*config) bool { return true }
