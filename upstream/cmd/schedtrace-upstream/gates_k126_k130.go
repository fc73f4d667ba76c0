//go:build k8s_1_26 || k8s_1_30

package main

// PreEnqueue and the scheduling gates, which v1.26 added.

import (
	"context"

	v1 "k8s.io/api/core/v1"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
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

// preEnqueueNames is each profile's PreEnqueue plugins in the scheduler
// layer: the header's preEnqueuePlugins when given; otherwise
// plugins.preEnqueue for every profile; otherwise SchedulingGates when
// PodSchedulingReadiness is on (podSchedulingReadiness).
func preEnqueueNames(c *config) map[string][]string {
	if len(c.PreEnqueuePlugins) > 0 {
		return c.PreEnqueuePlugins
	}
	names, given := c.Plugins["preEnqueue"]
	if !given && podSchedulingReadiness(c) {
		names = []string{schedulinggates.Name}
	}
	m := map[string][]string{}
	for _, p := range c.Profiles {
		m[p] = names
	}
	return m
}

// setPreEnqueue enables each profile's PreEnqueue plugins (preEnqueueNames)
// and registers a namedPreEnqueue for each name upstream has no plugin for.
func setPreEnqueue(c *config, registry frameworkruntime.Registry, profiles []schedulerapi.KubeSchedulerProfile) {
	inTree := frameworkplugins.NewInTreeRegistry()
	pre := preEnqueueNames(c)
	for _, names := range pre {
		for _, name := range names {
			name := name
			if _, ok := inTree[name]; ok {
				continue
			}
			registry[name] = pluginFactory(func(framework.Handle) framework.Plugin {
				return namedPreEnqueue{name}
			})
		}
	}
	for i := range profiles {
		profiles[i].Plugins.PreEnqueue = pluginSet(pre[profiles[i].SchedulerName]...)
	}
}
