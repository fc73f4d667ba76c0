// The cases both sides' reflect.DeepEqual (model/go_equal.h,
// impl/go_equal.h) are tested on: a base pod or node, a change, and whether
// upstream's check (isPodUpdated; nodeAllocatableChanged, nodeLabelsChanged,
// nodeTaintsChanged) sees a difference. Each expectation follows from Go's
// reflect.DeepEqual and the fields ParseQuantity leaves
// (apimachinery resource/quantity.go).
#ifndef SCHEDTRACE_TESTKIT_GO_EQUAL_CASES_TEST_UTIL_H_
#define SCHEDTRACE_TESTKIT_GO_EQUAL_CASES_TEST_UTIL_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/objects.h"
#include "core/quantity.h"

namespace schedtrace::test {

inline Quantity Q(const char* text) { return *ParseQuantity(text); }

inline Pod BasePod() {
  Pod p;
  p.namespace_ = "ns";
  p.name = "p";
  p.uid = "uid-ns-p";
  p.resource_version = "1";
  p.labels = {{"app", "web"}};
  p.scheduler_name = "default-scheduler";
  p.priority = 10;
  Container c;
  c.name = "c";
  c.image = "img";
  c.requests["cpu"] = Q("100m");
  p.containers = {c};
  p.nominated_node_name = "n1";
  return p;
}

struct PodCase {
  std::string what;
  std::function<void(Pod&)> change;
  bool updated;  // isPodUpdated(BasePod(), changed)
};

inline std::vector<PodCase> PodCases() {
  auto cpu = [](const char* text) {
    return [text](Pod& p) { p.containers[0].requests["cpu"] = Q(text); };
  };
  return {
      // Not compared: resourceVersion and status.
      {"resourceVersion", [](Pod& p) { p.resource_version = "2"; }, false},
      {"nominatedNodeName", [](Pod& p) { p.nominated_node_name = "n2"; },
       false},
      {"nothing", [](Pod&) {}, false},
      // Every other field counts.
      {"namespace", [](Pod& p) { p.namespace_ = "other"; }, true},
      {"name", [](Pod& p) { p.name = "q"; }, true},
      {"uid", [](Pod& p) { p.uid = "uid-2"; }, true},
      {"labels", [](Pod& p) { p.labels["tier"] = "x"; }, true},
      {"labels removed", [](Pod& p) { p.labels.clear(); }, true},
      {"annotations", [](Pod& p) { p.annotations["a"] = "b"; }, true},
      {"deletionTimestamp",
       [](Pod& p) { p.deletion_timestamp = "2023-01-01T00:00:00Z"; }, true},
      {"schedulerName", [](Pod& p) { p.scheduler_name = "other"; }, true},
      {"priority", [](Pod& p) { p.priority = 11; }, true},
      {"priority nil", [](Pod& p) { p.priority.reset(); }, true},
      {"nodeName", [](Pod& p) { p.node_name = "n1"; }, true},
      {"nodeSelector", [](Pod& p) { p.node_selector["zone"] = "a"; }, true},
      {"tolerations",
       [](Pod& p) {
         p.tolerations.push_back(
             {"k", "Exists", "", "NoSchedule", std::nullopt});
       },
       true},
      {"tolerationSeconds 0 vs nil",
       [](Pod& p) {
         p.tolerations.push_back({"k", "Exists", "", "NoExecute", 0});
       },
       true},
      {"schedulingGates", [](Pod& p) { p.scheduling_gates = {"g"}; }, true},
      {"container image", [](Pod& p) { p.containers[0].image = "img2"; }, true},
      {"container request", cpu("200m"), true},
      {"initContainers", [](Pod& p) { p.init_containers = p.containers; },
       true},
      {"overhead", [](Pod& p) { p.overhead["cpu"] = Q("10m"); }, true},
      {"nodeAffinity present",
       [](Pod& p) { p.required_node_affinity.emplace(); }, true},
      {"podAffinity", [](Pod& p) { p.required_pod_affinity.emplace_back(); },
       true},
      // nil against empty: absent against {} or [].
      {"annotations {}",
       [](Pod& p) { p.given_empty.Set(Nilable::kAnnotations); }, true},
      {"labels {} against absent",
       [](Pod& p) {
         p.labels.clear();
         p.given_empty.Set(Nilable::kLabels);
       },
       true},
      {"labels given empty while not empty",
       [](Pod& p) { p.given_empty.Set(Nilable::kLabels); }, false},
      {"nodeSelector {}",
       [](Pod& p) { p.given_empty.Set(Nilable::kNodeSelector); }, true},
      {"tolerations []",
       [](Pod& p) { p.given_empty.Set(Nilable::kTolerations); }, true},
      {"schedulingGates []",
       [](Pod& p) { p.given_empty.Set(Nilable::kSchedulingGates); }, true},
      {"initContainers []",
       [](Pod& p) { p.given_empty.Set(Nilable::kInitContainers); }, true},
      {"overhead {}", [](Pod& p) { p.given_empty.Set(Nilable::kOverhead); },
       true},
      {"requests {} against absent",
       [](Pod& p) {
         p.containers[0].requests.clear();
         p.containers[0].given_empty.Set(Nilable::kRequests);
       },
       true},
      {"affinity {}", [](Pod& p) { p.given_empty.Set(Nilable::kAffinity); },
       true},
      {"affinity.nodeAffinity {}",
       [](Pod& p) { p.given_empty.Set(Nilable::kNodeAffinity); }, true},
      {"affinity.podAffinity {}",
       [](Pod& p) { p.given_empty.Set(Nilable::kPodAffinity); }, true},
      {"podAffinity required []",
       [](Pod& p) { p.given_empty.Set(Nilable::kPodAffinityTerms); }, true},
      {"nodeSelectorTerms [] against absent",
       [](Pod& p) {
         p.required_node_affinity.emplace();
         p.given_empty.Set(Nilable::kNodeSelectorTerms);
       },
       true},
      // Quantities compare by their parsed fields, not their value.
      {"100m again", cpu("100m"), false},
      {"0.1 for 100m (same value)", cpu("0.1"), true},
      {"100000u for 100m (same value)", cpu("100000u"), true},
      {"0100m for 100m (s differs)", cpu("0100m"), true},
  };
}

// Pairs of quantity texts and whether reflect.DeepEqual holds for their
// ParseQuantity results.
// Two deletionTimestamps and whether the pods are deep-equal: the
// metav1.Times Go decoded are, exactly when they name the same instant.
struct TimestampCase {
  const char* a;
  const char* b;
  bool deep_equal;
};

inline std::vector<TimestampCase> TimestampCases() {
  return {
      {"2023-01-01T00:00:07Z", "2023-01-01T00:00:07Z", true},
      {"2023-01-01T00:00:07Z", "2023-01-01T01:00:07+01:00", true},
      {"2023-01-01T00:00:07Z", "2022-12-31T23:59:07-00:01", true},
      {"2023-01-01T00:00:07Z", "2023-01-01T00:00:07.000Z", true},
      {"2023-01-01T07:00:07Z", "2023-01-01T7:00:07Z", true},
      {"2023-01-01T00:00:07Z", "2023-01-01T00:00:07+00:00", true},
      {"2023-01-01T00:00:07.1234567891Z", "2023-01-01T00:00:07,123456789Z",
       true},
      {"2023-01-01T00:00:07Z", "2023-01-01T00:00:07.5Z", false},
      {"2023-01-01T00:00:07Z", "2023-01-01T00:00:07+01:00", false},
      {"2023-01-02T00:00:00+24:00", "2023-01-01T00:00:00Z", true},
  };
}

struct QuantityCase {
  const char* a;
  const char* b;
  bool deep_equal;
};

inline std::vector<QuantityCase> QuantityCases() {
  return {
      {"1", "1", true},
      // s = "1" for "1" and "01" for "01" (leading zeros are dropped
      // before the canonical check, so "01" caches its own text).
      {"1", "01", false},
      // "1000" and "01000" end in 000: neither caches; i = {1000, 0}.
      {"1000", "01000", true},
      {"1000", "1k", false},   // i = {1, 3}, s = "1k"
      {"1", "1000m", false},   // i = {1000, -3}
      {"1e3", "1k", false},    // DecimalExponent against DecimalSI
      {"1.0", "01.0", true},   // i = {10, -1}; scale -1 caches nothing
      {"1.0", "1.00", false},  // i = {100, -2}
      {"0", "0", true},        // s = "0"
      {"0", "00", false},      // "00" caches nothing
      {"00", "000", true},     // i = {0, 0}, s = ""
      {"0", "0m", false},      // i = {0, -3}
      {"1Ki", "1024", false},  // BinarySI against DecimalSI
      {"8Ki", "08Ki", true},   // 8 & 7 == 0: neither caches
      {"1Ki", "01Ki", false},  // both cache their text
      // inf.Dec: more than 18 digits. Equal values, equal fields.
      {"1000000000000000000000", "1000000000000000000000.0", true},
      {"1000000000000000000000", "1000000000000000000001", false},
      {"-1000000000000000000000", "1000000000000000000000", false},
      // int64Amount {1, 30} against an inf.Dec of the same value.
      {"1e30", "1000000000000000000000000000000", false},
  };
}

struct NodeCase {
  std::string what;
  std::function<void(Node&)> change;  // applied to BaseNode(): the new node
  bool allocatable_changed, labels_changed, taints_changed;
};

// Nil against empty needs a base without the field: the old node of each
// pair is BaseNode() with `before` applied.
struct NilPairCase {
  std::string what;
  std::function<void(Node&)> before, after;
  bool allocatable_changed, labels_changed, taints_changed;
};

inline Node BaseNode() {
  Node n;
  n.name = "n1";
  n.labels = {{"zone", "a"}};
  n.allocatable = {{"cpu", Q("4")}, {"memory", Q("8Gi")}};
  return n;
}

inline std::vector<NodeCase> NodeCases() {
  return {
      {"nothing", [](Node&) {}, false, false, false},
      {"allocatable 4 as 4000m",
       [](Node& n) { n.allocatable["cpu"] = Q("4000m"); }, true, false, false},
      {"allocatable 4 as 04", [](Node& n) { n.allocatable["cpu"] = Q("04"); },
       true, false, false},
      {"allocatable given empty while not empty",
       [](Node& n) { n.given_empty.Set(Nilable::kAllocatable); }, false, false,
       false},
      {"allocatable {}",
       [](Node& n) {
         n.allocatable.clear();
         n.given_empty.Set(Nilable::kAllocatable);
       },
       true, false, false},
      {"labels {} against absent",
       [](Node& n) {
         n.labels.clear();
         n.given_empty.Set(Nilable::kLabels);
       },
       false, true, false},
      {"taints [] against absent",
       [](Node& n) { n.given_empty.Set(Nilable::kTaints); }, false, false,
       true},
      {"taint added",
       [](Node& n) {
         n.taints.push_back({"k", "v", "NoSchedule"});
       },
       false, false, true},
      {"conditions [] (not a DeepEqual of the slice)",
       [](Node& n) { n.given_empty.Set(Nilable::kConditions); }, false, false,
       false},
  };
}

inline std::vector<NilPairCase> NodeNilPairCases() {
  auto none = [](Node& n) {
    n.labels.clear();
    n.allocatable.clear();
  };
  return {
      {"all nil", none, none, false, false, false},
      {"allocatable nil -> {}", none,
       [none](Node& n) {
         none(n);
         n.given_empty.Set(Nilable::kAllocatable);
       },
       true, false, false},
      {"labels {} -> nil",
       [none](Node& n) {
         none(n);
         n.given_empty.Set(Nilable::kLabels);
       },
       none, false, true, false},
      {"taints nil -> [] -> the same []",
       [none](Node& n) {
         none(n);
         n.given_empty.Set(Nilable::kTaints);
       },
       [none](Node& n) {
         none(n);
         n.given_empty.Set(Nilable::kTaints);
       },
       false, false, false},
  };
}

}  // namespace schedtrace::test

#endif  // SCHEDTRACE_TESTKIT_GO_EQUAL_CASES_TEST_UTIL_H_
