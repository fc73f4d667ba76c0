//go:build k8s_1_26 || k8s_1_30

package main

// PreEnqueue and the scheduling gates, which v1.26 added.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

// namedPreEnqueue is a PreEnqueue plugin of a name upstream has no plugin
// for: it never gates.
type namedPreEnqueue struct{ name string }

func (p namedPreEnqueue) Name() string { return p.name }
func (p namedPreEnqueue) PreEnqueue(context.Context, *v1.Pod) *framework.Status {
	return nil
}

// withPreEnqueue adds the queue's PreEnqueue plugins per profile:
// SchedulingGates is upstream's plugin (schedulingGates), any other name a
// namedPreEnqueue.
func withPreEnqueue(c *config, opts []schedtrace.QueueOption) ([]schedtrace.QueueOption, error) {
	m := map[string][]framework.PreEnqueuePlugin{}
	for profile, names := range c.PreEnqueuePlugins {
		m[profile] = []framework.PreEnqueuePlugin{}
		for _, name := range names {
			if name == schedulinggates.Name {
				pl, err := schedulingGates(c)
				if err != nil {
					return nil, err
				}
				m[profile] = append(m[profile], pl.(framework.PreEnqueuePlugin))
				continue
			}
			m[profile] = append(m[profile], namedPreEnqueue{name})
		}
	}
	return append(opts, schedtrace.WithPreEnqueuePluginMap(m)), nil
}

// isGated is the QueuedPodInfo's Gated: whether PreEnqueue refused it.
func isGated(p *framework.QueuedPodInfo) bool { return p.Gated }

// newPodInfo is framework.NewPodInfo; its error (a bad affinity term) is
// ignored as the queue's newQueuedPodInfo ignores it.
func newPodInfo(pod *v1.Pod) *framework.PodInfo {
	pi, _ := framework.NewPodInfo(pod)
	return pi
}
