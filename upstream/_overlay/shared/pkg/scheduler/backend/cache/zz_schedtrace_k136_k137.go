//go:build (k8s_1_36 || k8s_1_37) && !revert_assumed_pods_never_expire

package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay). Since v1.36 the cache keeps no deadline and no
// bindingFinished for assumed pods (an assumed pod stays until it is added,
// forgotten or removed), so there is nothing of the trace's clock to pass.

import v1 "k8s.io/api/core/v1"

// schedtraceBindingFinished is empty: podState has no bindingFinished.
func (cache *cacheImpl) schedtraceBindingFinished() []*v1.Pod { return nil }
