package cache

// Added to upstream's cache package at build time by schedtrace-upstream
// (go build -overlay): a cache that does not start its own cleanup goroutine
// (a trace calls cleanupAssumedPods at its own time;
// shared/.../zz_schedtrace_ttl.go). Nothing here changes what the cache
// does.

import (
	"context"
	"time"
)

// SchedtraceNewCache is New without run(): no cleanup goroutine, and no API
// dispatcher (SchedulerAsyncAPICalls plays no part in the cache's ops).
func SchedtraceNewCache(ttl time.Duration) Cache {
	return newCache(context.Background(), ttl, cleanAssumedPeriod, nil)
}
