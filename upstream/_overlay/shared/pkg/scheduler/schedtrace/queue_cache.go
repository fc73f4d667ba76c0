//go:build k8s_1_25 || k8s_1_26 || k8s_1_30

package schedtrace

// The names of the queue and the cache that every era has alike; the era's
// bridge.go adds the ones that differ.

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
