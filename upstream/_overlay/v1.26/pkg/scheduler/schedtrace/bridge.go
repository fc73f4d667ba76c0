// Package schedtrace is added to upstream's scheduler at build time by
// schedtrace-upstream (go build -overlay): it names, for a program outside
// k8s.io/kubernetes, the parts of pkg/scheduler that Go keeps internal.
// The names every era has alike are in _overlay/shared/.
package schedtrace

import (
	"k8s.io/kubernetes/pkg/scheduler/internal/queue"
)

// The queue (internal/queue): v1.26's event registrations and PreEnqueue.
var (
	WithClusterEventMap     = queue.WithClusterEventMap
	WithPreEnqueuePluginMap = queue.WithPreEnqueuePluginMap
)
