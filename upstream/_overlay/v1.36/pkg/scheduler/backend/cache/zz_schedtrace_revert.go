//go:build revert_assumed_pods_never_expire

package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay), in a build of upstream/revert-check that gives the
// cache back its ttl, FinishBinding and cleanupAssumedPods
// (upstream/reverts/v1.36.3/assumed_pods_never_expire.patch): a cache with
// the trace's ttl and no goroutine (shared/.../zz_schedtrace_ttl.go reads
// and calls it). Without that tag, shared/.../zz_schedtrace_k136_k137.go
// serves v1.36. Nothing here changes what the cache does.

import (
	"context"
	"time"
)

// SchedtraceNewCache is New with a ttl and without run(): no goroutine, and
// no API dispatcher (SchedulerAsyncAPICalls plays no part in the cache's
// ops).
func SchedtraceNewCache(ttl time.Duration) Cache {
	c := newCache(context.Background(), updateMetricsPeriod, nil, false)
	c.ttl = ttl
	return c
}
