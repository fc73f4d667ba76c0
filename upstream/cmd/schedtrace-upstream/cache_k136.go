//go:build k8s_1_36 && !revert_assumed_pods_never_expire

package main

// The cache of v1.36 has no ttl (cache_ttl.go serves a build that reverts
// that change).

import (
	"context"

	v1 "k8s.io/api/core/v1"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
)

// cache.New as scheduler.New calls it; its goroutine only updates metrics.
// The ttl of assumed pods is gone, and with it assumedPodTtlMs.
func newCache(*config) cache.Cache {
	return cache.New(context.Background(), nil, utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload))
}

// The cache has no FinishBinding since v1.36: nothing is called, nothing
// changes.
func (l *cacheLayer) finishBinding(*v1.Pod) error { return nil }

// The cache has no cleanupAssumedPods since v1.36: assumed pods never
// expire.
func (l *cacheLayer) cleanup() {}
