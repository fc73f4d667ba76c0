// Package schedtrace is added to upstream's scheduler at build time by
// schedtrace-upstream (go build -overlay): it names, for a program outside
// k8s.io/kubernetes, the parts of pkg/scheduler that Go keeps internal.
package schedtrace

import (
	"k8s.io/kubernetes/pkg/scheduler/internal/cache"
	"k8s.io/kubernetes/pkg/scheduler/internal/queue"
)

// The queue (internal/queue).
type (
	PriorityQueue   = queue.PriorityQueue
	QueueOption     = queue.Option
	PreEnqueueCheck = queue.PreEnqueueCheck
	QueueState      = queue.SchedtraceState
)

var (
	NewPriorityQueue                      = queue.NewPriorityQueue
	WithClock                             = queue.WithClock
	WithPodInitialBackoffDuration         = queue.WithPodInitialBackoffDuration
	WithPodMaxBackoffDuration             = queue.WithPodMaxBackoffDuration
	WithPodMaxInUnschedulablePodsDuration = queue.WithPodMaxInUnschedulablePodsDuration
	WithPodLister                         = queue.WithPodLister
	WithClusterEventMap                   = queue.WithClusterEventMap
	WithPreEnqueuePluginMap               = queue.WithPreEnqueuePluginMap
)

// The cache (internal/cache).
type (
	Cache      = cache.Cache
	CacheState = cache.SchedtraceState
)

var (
	NewCache           = cache.SchedtraceNewCache
	FinishBindingAt    = cache.SchedtraceFinishBinding
	CacheStateOf       = cache.SchedtraceStateOf
	CleanupAssumedPods = cache.SchedtraceCleanupAssumedPods
)
