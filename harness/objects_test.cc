#include "harness/objects.h"

#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/quantity.h"

namespace schedtrace {
namespace {

Pod BasePod() {
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
  c.requests["cpu"] = *ParseQuantity("100m");
  p.containers = {c};
  p.nominated_node_name = "n1";
  return p;
}

TEST(PodSpecOrMetaChangedTest, IdenticalPodsAreNotUpdated) {
  EXPECT_FALSE(PodSpecOrMetaChanged(BasePod(), BasePod()));
}

// upstream isPodUpdated ignores resourceVersion and status.
TEST(PodSpecOrMetaChangedTest, IgnoresResourceVersionAndStatus) {
  Pod b = BasePod();
  b.resource_version = "2";
  EXPECT_FALSE(PodSpecOrMetaChanged(BasePod(), b));
  b.nominated_node_name = "";
  EXPECT_FALSE(PodSpecOrMetaChanged(BasePod(), b));
  b.nominated_node_name = "n2";
  EXPECT_FALSE(PodSpecOrMetaChanged(BasePod(), b));
}

TEST(PodSpecOrMetaChangedTest, EveryOtherFieldCounts) {
  struct Case {
    std::string what;
    std::function<void(Pod&)> mutate;
  };
  const std::vector<Case> cases = {
      {"namespace", [](Pod& p) { p.namespace_ = "other"; }},
      {"name", [](Pod& p) { p.name = "q"; }},
      {"uid", [](Pod& p) { p.uid = "uid-2"; }},
      {"labels", [](Pod& p) { p.labels["tier"] = "x"; }},
      {"label removed", [](Pod& p) { p.labels.clear(); }},
      {"annotations", [](Pod& p) { p.annotations["a"] = "b"; }},
      {"deletionTimestamp",
       [](Pod& p) { p.deletion_timestamp = "2023-01-01T00:00:00Z"; }},
      {"schedulerName", [](Pod& p) { p.scheduler_name = "other"; }},
      {"priority", [](Pod& p) { p.priority = 11; }},
      {"priority nil", [](Pod& p) { p.priority.reset(); }},
      {"nodeName", [](Pod& p) { p.node_name = "n1"; }},
      {"nodeSelector", [](Pod& p) { p.node_selector["zone"] = "a"; }},
      {"tolerations",
       [](Pod& p) {
         p.tolerations.push_back(
             {"k", "Exists", "", "NoSchedule", std::nullopt});
       }},
      {"schedulingGates", [](Pod& p) { p.scheduling_gates = {"g"}; }},
      {"container image", [](Pod& p) { p.containers[0].image = "img2"; }},
      {"container request",
       [](Pod& p) {
         p.containers[0].requests["cpu"] = *ParseQuantity("200m");
       }},
      {"request text only",
       [](Pod& p) { p.containers[0].requests["cpu"] = *ParseQuantity("0.1"); }},
      {"initContainers", [](Pod& p) { p.init_containers = p.containers; }},
      {"overhead", [](Pod& p) { p.overhead["cpu"] = *ParseQuantity("10m"); }},
      {"nodeAffinity present",
       [](Pod& p) { p.required_node_affinity.emplace(); }},
      {"podAffinity", [](Pod& p) { p.required_pod_affinity.emplace_back(); }},
  };
  for (const Case& c : cases) {
    Pod b = BasePod();
    c.mutate(b);
    EXPECT_TRUE(PodSpecOrMetaChanged(BasePod(), b)) << c.what;
    EXPECT_TRUE(PodSpecOrMetaChanged(b, BasePod())) << c.what;
    // A status-only difference on top does not hide the change.
    b.resource_version = "9";
    b.nominated_node_name = "";
    EXPECT_TRUE(PodSpecOrMetaChanged(BasePod(), b)) << c.what;
  }
}

}  // namespace
}  // namespace schedtrace
