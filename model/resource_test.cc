#include "model/resource.h"

#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/objects.h"
#include "core/quantity.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testkit/name_cases_test_util.h"

namespace schedtrace::model {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

ResourceList List(std::vector<std::pair<std::string, std::string>> entries) {
  ResourceList out;
  for (const auto& [name, text] : entries) {
    absl::StatusOr<Quantity> q = ParseQuantity(text);
    EXPECT_TRUE(q.ok()) << q.status();
    out[name] = q.ok() ? *q : Quantity();
  }
  return out;
}

Container WithRequests(ResourceList requests) {
  Container c;
  c.name = "c";
  c.image = "img";
  c.requests = std::move(requests);
  return c;
}

TEST(IsScalarResourceNameTest, MirrorsUpstreamHelpers) {
  for (const test::ScalarNameCase& c : test::ScalarNameCases()) {
    EXPECT_EQ(IsScalarResourceName(c.name), c.scalar) << c.name;
  }
}

TEST(ResourcesTest, AddAmountErasesZeros) {
  Resources r;
  AddAmount(r, "cpu", 100);
  AddAmount(r, "memory", 0);
  EXPECT_THAT(r, ElementsAre(Pair("cpu", 100)));
  AddAmount(r, "cpu", -100);
  EXPECT_THAT(r, IsEmpty());
  AddAmount(r, "cpu", -5);
  EXPECT_THAT(r, ElementsAre(Pair("cpu", -5)));
}

TEST(ResourcesTest, AddAndSubtract) {
  Resources a = {{"cpu", 100}, {"memory", 10}};
  const Resources b = {{"cpu", 50}, {"example.com/gpu", 1}};
  AddResources(a, b);
  EXPECT_THAT(a, ElementsAre(Pair("cpu", 150), Pair("example.com/gpu", 1),
                             Pair("memory", 10)));
  SubtractResources(a, b);
  EXPECT_THAT(a, ElementsAre(Pair("cpu", 100), Pair("memory", 10)));
  AddResources(a, a);  // aliasing is allowed
  EXPECT_THAT(a, ElementsAre(Pair("cpu", 200), Pair("memory", 20)));
  SubtractResources(a, a);
  EXPECT_THAT(a, IsEmpty());
}

TEST(ResourcesTest, AddWrapsLikeGo) {
  Resources a = {{"memory", std::numeric_limits<int64_t>::max()}};
  AddAmount(a, "memory", 1);
  EXPECT_THAT(a,
              ElementsAre(Pair("memory", std::numeric_limits<int64_t>::min())));
}

TEST(ResourcesTest, FromResourceListUnits) {
  const Resources r = FromResourceList(List({{"cpu", "1.1"},
                                             {"memory", "1Gi"},
                                             {"ephemeral-storage", "1G"},
                                             {"pods", "110"},
                                             {"example.com/gpu", "2"},
                                             {"hugepages-2Mi", "4Mi"},
                                             {"foo", "7"},
                                             {"requests.example.com/x", "3"},
                                             {"zero.example.com/x", "0"}}));
  EXPECT_THAT(
      r, ElementsAre(Pair("cpu", 1100), Pair("ephemeral-storage", 1000000000),
                     Pair("example.com/gpu", 2), Pair("hugepages-2Mi", 4194304),
                     Pair("memory", 1073741824), Pair("pods", 110)));
}

TEST(ResourcesTest, ScalarsRoundUpLikeValue) {
  // Extended resources are read with Value(): "500m" of a GPU is 1.
  EXPECT_THAT(FromResourceList(List({{"example.com/gpu", "500m"}})),
              ElementsAre(Pair("example.com/gpu", 1)));
  // cpu is read in millis, rounded up.
  EXPECT_THAT(FromResourceList(List({{"cpu", "0.5m"}})),
              ElementsAre(Pair("cpu", 1)));
}

// The golden case cache/resource-accounting (first pod): init container 700m
// against container 100m plus overhead 10m.
TEST(PodRequestsTest, GoldenResourceAccounting) {
  Pod pod;
  pod.namespace_ = "default";
  pod.name = "r";
  pod.init_containers = {WithRequests(List({{"cpu", "700m"}}))};
  pod.containers = {WithRequests(List({{"cpu", "100m"},
                                       {"ephemeral-storage", "1Gi"},
                                       {"example.com/gpu", "2"},
                                       {"memory", "64Mi"}}))};
  pod.overhead = List({{"cpu", "10m"}, {"memory", "8Mi"}});
  EXPECT_THAT(
      PodRequests(pod, Upstream{}),
      ElementsAre(Pair("cpu", 710), Pair("ephemeral-storage", 1073741824),
                  Pair("example.com/gpu", 2), Pair("memory", 75497472)));

  Pod r2;
  r2.init_containers = {WithRequests(List({{"cpu", "700m"}}))};
  r2.containers = {WithRequests(List({{"cpu", "1500m"}}))};
  EXPECT_THAT(PodRequests(r2, Upstream{}), ElementsAre(Pair("cpu", 1500)));
}

TEST(PodRequestsTest, SumsContainersThenMaxesInitContainersThenAddsOverhead) {
  Pod pod;
  pod.containers = {
      WithRequests(List({{"cpu", "100m"}, {"memory", "100Mi"}, {"pods", "1"}})),
      WithRequests(List({{"cpu", "200m"}, {"example.com/gpu", "1"}}))};
  pod.init_containers = {
      WithRequests(List({{"cpu", "250m"},
                         {"memory", "50Mi"},
                         {"example.com/gpu", "3"},
                         {"hugepages-1Gi", "1Gi"},
                         {"pods", "5"},    // ignored by SetMaxResource
                         {"foo", "9"}})),  // not a scalar: ignored
      WithRequests(List({{"cpu", "400m"}, {"ephemeral-storage", "1Ki"}}))};
  pod.overhead = List({{"cpu", "1"}, {"pods", "2"}, {"foo", "1"}});
  EXPECT_THAT(
      PodRequests(pod, Upstream{}),
      ElementsAre(Pair("cpu", 1400), Pair("ephemeral-storage", 1024),
                  Pair("example.com/gpu", 3), Pair("hugepages-1Gi", 1073741824),
                  Pair("memory", 104857600), Pair("pods", 3)));
}

TEST(PodRequestsTest, EmptyPodRequestsNothing) {
  Pod pod;
  pod.containers = {WithRequests({})};
  EXPECT_THAT(PodRequests(pod, Upstream{}), IsEmpty());
}

TEST(NodeAllocatableTest, ReadsAllocatable) {
  Node node;
  node.allocatable = List({{"cpu", "4"},
                           {"ephemeral-storage", "100Gi"},
                           {"example.com/gpu", "4"},
                           {"memory", "8Gi"},
                           {"pods", "110"}});
  EXPECT_THAT(
      NodeAllocatable(node),
      ElementsAre(Pair("cpu", 4000), Pair("ephemeral-storage", 107374182400),
                  Pair("example.com/gpu", 4), Pair("memory", 8589934592),
                  Pair("pods", 110)));
}

// Replays the pod adds and removes of the recorded golden trace with
// PodRequests (dropping "pods", as NodeInfo.update does) and compares each
// step's node `requested` with what upstream recorded.
TEST(PodRequestsTest, MatchesRecordedGoldenTrace) {
  const std::string path =
      std::string(SCHEDTRACE_SOURCE_DIR) +
      "/golden/upstream-v1.26.7/cache/resource-accounting.jsonl";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  auto to_list = [](const nlohmann::json& j) {
    ResourceList out;
    if (!j.is_object()) return out;
    for (const auto& [name, text] : j.items()) {
      absl::StatusOr<Quantity> q = ParseQuantity(text.get<std::string>());
      EXPECT_TRUE(q.ok()) << q.status();
      if (q.ok()) out[name] = *q;
    }
    return out;
  };
  auto containers = [&](const nlohmann::json& spec, const char* key) {
    std::vector<Container> out;
    for (const auto& c : spec.value(key, nlohmann::json::array())) {
      out.push_back(WithRequests(
          to_list(c["resources"].value("requests", nlohmann::json()))));
    }
    return out;
  };
  std::map<std::string, Resources> requested;  // node -> requested
  std::string line;
  int checked = 0;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    const nlohmann::json step = nlohmann::json::parse(line);
    const std::string op = step["op"];
    if (op != "c_add_pod" && op != "c_remove_pod") continue;
    const nlohmann::json& spec = step["pod"]["spec"];
    Pod pod;
    pod.containers = containers(spec, "containers");
    pod.init_containers = containers(spec, "initContainers");
    pod.overhead = to_list(spec.value("overhead", nlohmann::json()));
    Resources req = PodRequests(pod, Upstream{});
    req.erase("pods");
    Resources& node = requested[spec["nodeName"]];
    if (op == "c_add_pod") {
      AddResources(node, req);
    } else {
      SubtractResources(node, req);
    }
    for (const auto& n : step["expect"]["state"]["cache"]["nodes"]) {
      Resources want;
      for (const auto& [name, amount] : n["requested"].items()) {
        want[name] = amount.get<int64_t>();
      }
      EXPECT_EQ(requested[n["name"]], want) << "t=" << step["t"];
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

}  // namespace
}  // namespace schedtrace::model
