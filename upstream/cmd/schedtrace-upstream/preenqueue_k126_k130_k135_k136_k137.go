//go:build k8s_1_26 || k8s_1_30 || k8s_1_35 || k8s_1_36 || k8s_1_37

package main

// The scheduler layer's PreEnqueue plugins, in every era that has the
// extension point (v1.26 added it). namedPreEnqueue, the plugin of a name
// upstream has none for, is the era's (its Status type moved).

import (
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkplugins "k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)

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
			registry[name] = pluginFactory(func(fwHandle) fwPlugin {
				return namedPreEnqueue{name}
			})
		}
	}
	for i := range profiles {
		profiles[i].Plugins.PreEnqueue = pluginSet(pre[profiles[i].SchedulerName]...)
	}
}
