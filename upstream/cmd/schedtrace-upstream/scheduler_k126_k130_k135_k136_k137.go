//go:build k8s_1_26 || k8s_1_30 || k8s_1_35 || k8s_1_36 || k8s_1_37

package main

import "k8s.io/kubernetes/pkg/scheduler"

// allNodesToScore makes every node a candidate: from v1.26 the option takes
// a pointer (nil keeps the default).
func allNodesToScore() scheduler.Option {
	all := int32(100)
	return scheduler.WithPercentageOfNodesToScore(&all)
}
