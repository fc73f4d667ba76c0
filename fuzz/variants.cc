#include "fuzz/variants.h"

#include "absl/strings/numbers.h"
#include "fuzz/byte_format.h"

namespace schedtrace::fuzz {

// PodVariant: byte 0 bits 0-1 priority, 2-4 cpu, 5 gated, 6 other
// scheduler, 7 annotated; byte 1 bits 0-1 node, 2-3 selector, 4 tolerates,
// 5 memory, 6 nominated, 7 deleting. NodeVariant: bits 0-1 cpu, 2
// unschedulable, 3 tainted, 4 zone b, 5 not ready, 6 few pods, 7 odd.

std::array<uint8_t, 2> PodVariant::Pack() const {
  uint8_t b0 = (priority & 3) | (cpu & 7) << 2 | (gated ? 32 : 0) |
               (other_scheduler ? 64 : 0) | (annotated ? 128 : 0);
  uint8_t b1 = (node & 3) | (selector & 3) << 2 | (tolerates ? 16 : 0) |
               (memory ? 32 : 0) | (nominated ? 64 : 0) | (deleting ? 128 : 0);
  return {b0, b1};
}

PodVariant PodVariant::Unpack(uint8_t b0, uint8_t b1) {
  PodVariant v;
  v.priority = b0 & 3;
  v.cpu = (b0 >> 2) & 7;
  v.gated = b0 & 32;
  v.other_scheduler = b0 & 64;
  v.annotated = b0 & 128;
  v.node = b1 & 3;
  v.selector = (b1 >> 2) & 3;
  v.tolerates = b1 & 16;
  v.memory = b1 & 32;
  v.nominated = b1 & 64;
  v.deleting = b1 & 128;
  return v;
}

PodVariant PodVariant::Of(
    const Pod& pod, const std::function<int(const std::string&)>& node_slot) {
  PodVariant v;
  if (pod.priority) {
    const int32_t p = *pod.priority;
    v.priority = p <= 0 ? 1 : p <= 10 ? 2 : 3;
  }
  int64_t milli = 0;
  bool mem = false;
  for (const Container& c : pod.containers) {
    if (auto it = c.requests.find("cpu"); it != c.requests.end()) {
      milli += it->second.MilliValue();
    }
    mem = mem || c.requests.contains("memory");
  }
  static constexpr std::array<int64_t, 8> kMilli = {0,    100,  250,  500,
                                                    1000, 1500, 2000, 4000};
  for (int i = 7; i >= 0; --i) {
    if (milli >= kMilli[i]) {
      v.cpu = i;
      break;
    }
  }
  v.gated = !pod.scheduling_gates.empty();
  v.other_scheduler =
      !pod.scheduler_name.empty() && pod.scheduler_name != "default-scheduler";
  v.annotated = !pod.annotations.empty();
  auto node_index = [&](const std::string& name) {
    return name.empty() ? 0 : 1 + node_slot(name) % kNodePool;
  };
  v.node = node_index(pod.node_name);
  if (pod.required_node_affinity) {
    v.selector = 3;
  } else if (!pod.node_selector.empty()) {
    auto it = pod.node_selector.find("zone");
    v.selector = it != pod.node_selector.end() && it->second == "b" ? 2 : 1;
  }
  v.tolerates = !pod.tolerations.empty();
  v.memory = mem;
  v.nominated = !pod.nominated_node_name.empty();
  v.deleting = pod.deletion_timestamp.has_value();
  return v;
}

uint8_t NodeVariant::Pack() const {
  return (cpu & 3) | (unschedulable ? 4 : 0) | (tainted ? 8 : 0) |
         (zone_b ? 16 : 0) | (not_ready ? 32 : 0) | (few_pods ? 64 : 0) |
         (odd ? 128 : 0);
}

NodeVariant NodeVariant::Unpack(uint8_t b) {
  NodeVariant v;
  v.cpu = b & 3;
  v.unschedulable = b & 4;
  v.tainted = b & 8;
  v.zone_b = b & 16;
  v.not_ready = b & 32;
  v.few_pods = b & 64;
  v.odd = b & 128;
  return v;
}

NodeVariant NodeVariant::Of(const Node& node) {
  NodeVariant v;
  if (auto it = node.allocatable.find("cpu"); it != node.allocatable.end()) {
    const int64_t m = it->second.MilliValue();
    v.cpu = m < 1000 ? 3 : m < 2000 ? 0 : m < 4000 ? 1 : 2;
  }
  v.unschedulable = node.unschedulable;
  v.tainted = !node.taints.empty();
  auto zone = node.labels.find("zone");
  v.zone_b = zone != node.labels.end() && zone->second == "b";
  for (const NodeCondition& c : node.conditions) {
    if (c.type == "Ready" && c.status != "True") v.not_ready = true;
  }
  if (auto it = node.allocatable.find("pods"); it != node.allocatable.end()) {
    v.few_pods = it->second.Value() <= 2;
  }
  if (v.tainted) {
    v.odd = node.taints.front().effect == "PreferNoSchedule";
  } else if (auto it = node.labels.find("schedtrace.io/score");
             it != node.labels.end()) {
    int64_t score = 0;
    v.odd = absl::SimpleAtoi(it->second, &score) && (score < 0 || score > 100);
  }
  return v;
}

}  // namespace schedtrace::fuzz
