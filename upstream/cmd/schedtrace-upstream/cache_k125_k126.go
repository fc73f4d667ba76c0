//go:build k8s_1_25 || k8s_1_26

package main

// The cache calls of v1.25 and v1.26, which take no logger.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

// eraCache is the cache with the ops' calls of this era.
type eraCache struct{ schedtrace.Cache }

func (c eraCache) assume(pod *v1.Pod) error         { return c.AssumePod(pod) }
func (c eraCache) forget(pod *v1.Pod) error         { return c.ForgetPod(pod) }
func (c eraCache) addPod(pod *v1.Pod) error         { return c.AddPod(pod) }
func (c eraCache) updatePod(old, pod *v1.Pod) error { return c.UpdatePod(old, pod) }
func (c eraCache) removePod(pod *v1.Pod) error      { return c.RemovePod(pod) }
func (c eraCache) addNode(node *v1.Node)            { c.AddNode(node) }
func (c eraCache) updateNode(old, node *v1.Node)    { c.UpdateNode(old, node) }
func (c eraCache) removeNode(node *v1.Node) error   { return c.RemoveNode(node) }
