//go:build k8s_1_25 || k8s_1_30

package main

import "fmt"

func newSchedulerLayer(*config) (layerSystem, error) {
	return nil, fmt.Errorf("the scheduler layer of %s is not wired yet", upstreamVersion)
}
