//go:build k8s_1_30

package main

// The cache calls of v1.30, which take a logger.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/scheduler/schedtrace"
)

// eraCache is the cache with the ops' calls of this era.
type eraCache struct{ schedtrace.Cache }

func (c eraCache) assume(pod *v1.Pod) error         { return c.AssumePod(logger, pod) }
func (c eraCache) forget(pod *v1.Pod) error         { return c.ForgetPod(logger, pod) }
func (c eraCache) addPod(pod *v1.Pod) error         { return c.AddPod(logger, pod) }
func (c eraCache) updatePod(old, pod *v1.Pod) error { return c.UpdatePod(logger, old, pod) }
func (c eraCache) removePod(pod *v1.Pod) error      { return c.RemovePod(logger, pod) }
func (c eraCache) addNode(node *v1.Node)            { c.AddNode(logger, node) }
func (c eraCache) updateNode(old, node *v1.Node)    { c.UpdateNode(logger, old, node) }
func (c eraCache) removeNode(node *v1.Node) error   { return c.RemoveNode(logger, node) }
