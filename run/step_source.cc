#include "run/step_source.h"

#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "run/step_source_layers.h"

namespace schedtrace {

std::unique_ptr<StepSource> StepSource::New(Layer layer,
                                            const GenOptions& options) {
  switch (layer) {
    case Layer::kQueue:
      return step_source::NewQueueSource(options);
    case Layer::kCache:
      return step_source::NewCacheSource(options);
    case Layer::kScheduler:
      break;
  }
  return step_source::NewSchedulerSource(options);
}

namespace {

// How many endings corner names cycle through: "_c" in hostile traces only.
int Endings(bool hostile) { return hostile ? 4 : 3; }

// The endings of corner names (PoolNames).
const char* Ending(int k, bool hostile) {
  static const char* const kEndings[] = {"", "-a", ".b", "_c"};
  return kEndings[k % Endings(hostile)];
}

}  // namespace

std::string PoolNames::Namespace(int i) const {
  if (corners) return i % 2 == 0 ? "default" : "default-x";
  if (layer == Layer::kCache) return "default";
  return i % 2 == 0 ? "default" : "team";
}

std::string PoolNames::Name(int i) const {
  if (!corners) return absl::StrCat("p", i);
  const int k = i / 2;
  return absl::StrCat("p", k / Endings(hostile), Ending(k, hostile));
}

std::string PoolNames::Uid(int i, int n) const {
  if (!corners && layer == Layer::kCache)
    return absl::StrCat("uid-p", i, "-", n);
  return absl::StrCat("uid-", Namespace(i), "-", Name(i), "-", n);
}

std::string PoolNames::Node(int j) const {
  if (!corners) return absl::StrCat("n", j);
  return absl::StrCat("n", j / Endings(hostile), Ending(j, hostile));
}

PodPtr RecreatedPod(const Pod& pod, int incarnation) {
  auto p = std::make_shared<Pod>(pod);
  p->uid =
      absl::StrCat("uid-", pod.namespace_, "-", pod.name, "-", incarnation);
  p->resource_version = "1";
  p->node_name.clear();
  p->nominated_node_name.clear();
  p->deletion_timestamp.reset();
  return p;
}

NodePtr RecreatedNode(const Node& node, int incarnation) {
  auto again = std::make_shared<Node>(node);
  again->uid = absl::StrCat(again->uid, "-", incarnation);
  return again;
}

NodePtr NoOpNodeUpdate(const Node& node) {
  auto next = std::make_shared<Node>(node);
  int64_t rv = 0;
  (void)absl::SimpleAtoi(next->resource_version, &rv);
  next->resource_version = absl::StrCat(rv + 1);
  return next;
}

TraceHeader SchedulerHeader(const std::string& name) {
  TraceHeader h;
  h.name = name;
  h.layer = Layer::kScheduler;
  h.upstream = "v1.26.7";
  Config& c = h.config;
  c.profiles = {"default-scheduler"};
  c.features = {{"PodSchedulingReadiness", true}};
  c.percentage_of_nodes_to_score = 100;
  const std::vector<std::string> others = {"PrioritySort", "TraceBind",
                                           "TracePermit",  "TracePreBind",
                                           "TraceReserve", "TraceScore"};
  c.cluster_event_map = {
      {"CSINode", {"All"}, others},
      {"Node", {"Add", "UpdateNodeTaint"}, {"NodeUnschedulable"}},
      {"Node",
       {"Add", "Update"},
       {"NodeAffinity", "NodeName", "NodeResourcesFit", "TaintToleration"}},
      {"Node", {"All"}, others},
      {"PersistentVolume", {"All"}, others},
      {"PersistentVolumeClaim", {"All"}, others},
      {"Pod", {"Delete"}, {"NodeResourcesFit"}},
      {"Pod", {"Update"}, {"SchedulingGates"}},
      {"Pod", {"All"}, others},
      {"StorageClass", {"All"}, others},
  };
  c.plugins = {{"queueSort", {"PrioritySort"}},
               {"preEnqueue", {"SchedulingGates"}},
               {"preFilter", {"NodeAffinity", "NodeResourcesFit"}},
               {"filter",
                {"NodeUnschedulable", "NodeName", "TaintToleration",
                 "NodeAffinity", "NodeResourcesFit"}},
               {"score", {"TraceScore"}},
               {"reserve", {"TraceReserve"}},
               {"permit", {"TracePermit"}},
               {"preBind", {"TracePreBind"}},
               {"bind", {"TraceBind"}},
               {"postBind", {"TraceBind"}}};
  return h;
}

TraceHeader QueueHeader(const std::string& name) {
  TraceHeader h;
  h.name = name;
  h.layer = Layer::kQueue;
  h.upstream = "v1.26.7";
  Config& c = h.config;
  c.profiles = {"default-scheduler"};
  c.features = {{"PodSchedulingReadiness", true}};
  // The recordings' clusterEventMap, plus the volume plugin's rows.
  c.cluster_event_map = RecordedQueueEventMap();
  for (const char* resource : {"PersistentVolume", "PersistentVolumeClaim",
                               "StorageClass", "CSINode"}) {
    c.cluster_event_map.push_back(
        {resource, {"Add", "Update"}, {"VolumeBinding"}});
  }
  c.pre_enqueue_plugins = {{"default-scheduler", {"SchedulingGates"}}};
  c.nominator_pod_lister = "queue-ops";
  return h;
}

std::vector<ClusterEventMapEntry> RecordedQueueEventMap() {
  return {
      {"Node", {"Add", "UpdateNodeTaint"}, {"NodeUnschedulable"}},
      {"Node",
       {"Add", "Update"},
       {"NodeAffinity", "NodeName", "NodeResourcesFit", "TaintToleration"}},
      {"Pod", {"Delete"}, {"NodeResourcesFit"}},
      {"Pod", {"Update"}, {"SchedulingGates"}},
  };
}

}  // namespace schedtrace
