#include "harness/objects.h"

namespace schedtrace {

// upstream: isPodUpdated (internal/queue/scheduling_queue.go) strips
// resourceVersion, generation, status, managedFields and finalizers, then
// compares with reflect.DeepEqual. Our Pod carries no generation, managed
// fields or finalizers, and of the status only nominatedNodeName.
bool PodSpecOrMetaChanged(const Pod& old_pod, const Pod& new_pod) {
  Pod a = old_pod;
  Pod b = new_pod;
  a.resource_version.clear();
  b.resource_version.clear();
  a.nominated_node_name.clear();
  b.nominated_node_name.clear();
  return !(a == b);
}

}  // namespace schedtrace
