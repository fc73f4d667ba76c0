// The pods and nodes a Decoder builds (decoder.h): from a variant, a new
// incarnation, an update the apiserver allows, a hostile pod.
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fuzz/decoder.h"

namespace schedtrace::fuzz {
namespace {

constexpr std::array<const char*, 4> kPriorities = {"", "0", "10", "100"};
constexpr std::array<const char*, 8> kCpus = {"",  "100m",  "250m", "500m",
                                              "1", "1500m", "2",    "4"};
constexpr std::array<const char*, 4> kNodeCpus = {"1", "2", "4", "500m"};

Quantity Q(const char* s) { return *ParseQuantity(s); }

}  // namespace

std::shared_ptr<Pod> Decoder::BuildPod(int slot, const PodVariant& v,
                                       std::string uid, std::string rv,
                                       std::string node_name) const {
  // Built in place (emplace rather than initializer lists, which copy):
  // this runs on most steps.
  auto p = std::make_shared<Pod>();
  p->namespace_ = PodNamespace(slot);
  p->name = PodName(slot);
  p->uid = std::move(uid);
  p->resource_version = std::move(rv);
  p->labels.emplace("app", slot < 3 ? "web" : "db");
  if (v.annotated) p->annotations.emplace("fuzz", "1");
  if (v.deleting) p->deletion_timestamp = "2026-01-01T00:00:00Z";
  p->scheduler_name =
      v.other_scheduler ? "other-scheduler" : "default-scheduler";
  if (v.priority != 0) p->priority = std::stoi(kPriorities[v.priority]);
  p->node_name = std::move(node_name);
  Container& c = p->containers.emplace_back();
  c.name = "c";
  c.image = "img";
  if (v.cpu != 0) c.requests.emplace("cpu", Q(kCpus[v.cpu]));
  if (v.memory) c.requests.emplace("memory", Q("1Gi"));
  if (v.node != 0) {
    const std::string node = NodeName((v.node - 1) % kNodePool);
    if (v.nominated) p->nominated_node_name = node;
  } else if (v.nominated) {
    p->nominated_node_name = NodeName(0);
  }
  switch (v.selector) {
    case 1:
      p->node_selector.emplace("zone", "a");
      break;
    case 2:
      p->node_selector.emplace("zone", "b");
      break;
    case 3: {
      NodeSelectorRequirement& r = p->required_node_affinity.emplace()
                                       .emplace_back()
                                       .match_expressions.emplace_back();
      r.key = "zone";
      r.op = "In";
      r.values.emplace_back("a");
      break;
    }
    default:
      break;
  }
  if (v.tolerates) {
    p->tolerations.push_back({"dedicated", "Exists", "", "NoSchedule", {}});
  }
  if (v.gated) p->scheduling_gates.emplace_back("example.com/wait");
  return p;
}

NodePtr Decoder::BuildNode(int slot, const NodeVariant& v, int rv) const {
  auto n = std::make_shared<Node>();
  n->name = NodeName(slot);
  // A node_recreate gave the node a new uid; its updates keep it.
  n->uid = node_uid_[slot].empty() ? absl::StrCat("uid-node-", n->name)
                                   : node_uid_[slot];
  n->resource_version = absl::StrCat(rv);
  n->labels.emplace("zone", v.zone_b ? "b" : "a");
  n->labels.emplace("schedtrace.io/score",
                    absl::StrCat(v.odd && !v.tainted ? 101 + slot : slot + 1));
  n->allocatable.emplace("cpu", Q(kNodeCpus[v.cpu]));
  n->allocatable.emplace("memory", Q("8Gi"));
  n->allocatable.emplace("pods", Q(v.few_pods ? "1" : "110"));
  n->unschedulable = v.unschedulable;
  if (v.tainted) {
    n->taints.push_back(
        {"dedicated", "x", v.odd ? "PreferNoSchedule" : "NoSchedule"});
  }
  n->conditions.push_back({"Ready", v.not_ready ? "False" : "True"});
  return n;
}

PodPtr Decoder::Fresh(int slot, const PodVariant& v, bool assigned) {
  Slot& s = slots_[slot];
  PodVariant w = v;
  w.deleting = false;
  return BuildPod(slot, w,
                  absl::StrCat("uid-", PodNamespace(slot), "-", PodName(slot),
                               "-", ++s.incarnation),
                  Rv(),
                  assigned ? NodeName(v.node != 0 ? (v.node - 1) % kNodePool
                                                  : slot % kNodePool)
                           : "");
}

PodPtr Decoder::Mutate(const Pod& old, const PodVariant& v, bool keep_node) {
  // Only what the apiserver lets change: labels/annotations, tolerations
  // (added), gates (removed), nodeName (set once, by binding), status,
  // deletionTimestamp (set once).
  auto p = std::make_shared<Pod>(old);
  p->resource_version = Rv();
  // Exactly {fuzz: 1} when annotated, else none (kept when it already is).
  const bool fuzz_only = p->annotations.size() == 1 &&
                         p->annotations.begin()->first == "fuzz" &&
                         p->annotations.begin()->second == "1";
  if (!v.annotated) {
    p->annotations.clear();
  } else if (!fuzz_only) {
    p->annotations.clear();
    p->annotations.emplace("fuzz", "1");
  }
  if (v.tolerates && p->tolerations.empty()) {
    p->tolerations.push_back({"dedicated", "Exists", "", "NoSchedule", {}});
  }
  if (!v.gated) p->scheduling_gates.clear();
  if (!keep_node && p->node_name.empty() && v.node != 0) {
    p->node_name = NodeName((v.node - 1) % kNodePool);
  }
  p->nominated_node_name.clear();
  if (v.nominated) {
    p->nominated_node_name =
        NodeName(v.node != 0 ? (v.node - 1) % kNodePool : 0);
  }
  if (v.deleting && !p->deletion_timestamp) {
    p->deletion_timestamp = "2026-01-01T00:00:00Z";
  }
  return p;
}

PodPtr Decoder::HostilePod(uint8_t slot_byte, const PodVariant& v) {
  const int slot = SlotOf(slot_byte);
  return BuildPod(slot, v,
                  absl::StrCat("uid-", PodNamespace(slot), "-", PodName(slot),
                               "-", (slot_byte >> 3) & 3),
                  absl::StrCat(((slot_byte >> 5) & 7) + 1),
                  v.node != 0 ? NodeName((v.node - 1) % kNodePool) : "");
}

PodPtr Decoder::LatestOrStub(int slot) const {
  if (slots_[slot].latest) return slots_[slot].latest;
  auto p = std::make_shared<Pod>();
  p->namespace_ = PodNamespace(slot);
  p->name = PodName(slot);
  return p;
}

}  // namespace schedtrace::fuzz
