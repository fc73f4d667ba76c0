#include "testkit/k8s_json_check.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/codec.h"
#include "core/json_codec.h"
#include "core/objects.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(IsRfc3339Test, TakesWhatTimeParseTakes) {
  for (const char* s :
       {"2023-01-01T00:00:07Z", "2024-02-29T23:59:59Z", "1970-01-01T00:00:00Z",
        "2023-01-01T00:00:07.5Z", "2023-01-01T00:00:07,123456789Z",
        "2023-01-01T00:00:07+02:00", "2023-01-01T00:00:07-08:30",
        // Go's layout parser, not RFC 3339: a one-digit hour, an offset of
        // 24 hours or 60 minutes, a fraction of more than nine digits.
        "2023-01-01T7:00:00Z", "2023-01-01T00:00:07+24:60",
        "2023-01-01T00:00:07.1234567891234Z"}) {
    EXPECT_TRUE(IsRfc3339(s)) << s;
  }
}

TEST(IsRfc3339Test, RefusesWhatTimeParseRefuses) {
  for (const char* s : {"",
                        "2026",
                        "2026-01-01",
                        "2026-01-01T00:00:00",
                        "2026-01-01 00:00:00Z",
                        "2026-01-01t00:00:00Z",
                        "2026-01-01T00:00:00z",
                        "26-01-01T00:00:00Z",
                        "2023-02-29T00:00:00Z",
                        "2023-13-01T00:00:00Z",
                        "2023-00-01T00:00:00Z",
                        "2023-01-32T00:00:00Z",
                        "2023-01-01T24:00:00Z",
                        "2023-01-01T00:60:00Z",
                        "2023-01-01T00:00:60Z",
                        "2023-01-01T00:00:00.Z",
                        "2023-01-01T00:00:00+0200",
                        "2023-01-01T00:00:00Z ",
                        "1672531207",
                        "2023-01-01T00:00:00+25:00",
                        "2023-01-01T00:00:00+00:61",
                        "+023-01-01T00:00:00Z",
                        "2023-1-01T00:00:00Z"}) {
    EXPECT_FALSE(IsRfc3339(s)) << s;
  }
}

TEST(IsK8sQuantityTest, TakesTheGrammar) {
  for (const char* s :
       {"0",   "2",  "100m", "1Gi",   "8Gi", "512Mi",  "1.5",   "1.",
        ".5",  "+1", "-1",   "1500m", "1e3", "1E3",    "1e-3",  "1e+3",
        "12E", "1k", "1Ki",  "3n",    "4u",  "1000.0", "1e+300"}) {
    EXPECT_TRUE(IsK8sQuantity(s)) << s;
  }
}

TEST(IsK8sQuantityTest, RefusesOutsideTheGrammar) {
  for (const char* s :
       {"", ".", "+", "-", "m", "Gi", "12x", "1 Gi", " 1", "1K", "1gi", "1KiB",
        "1e", "1e+", "1e1.5", "1e99999999999", "1..5", "--1", "1Gi1"}) {
    EXPECT_FALSE(IsK8sQuantity(s)) << s;
  }
}

// Every kind of mistyped field on one hand-made pod (a deletionTimestamp
// that is not an RFC 3339 time, a number for a string or a quantity, ...):
// the checker must be able to fail.
TEST(CheckPodJsonTest, FindsEveryMistypedField) {
  json pod = json::parse(R"({
    "metadata": {"name": "p", "namespace": "ns", "uid": 7,
                 "deletionTimestamp": "2026", "labels": {"a": 1}},
    "spec": {"priority": "5", "nodeName": "n1",
             "containers": [{"name": "c",
                             "resources": {"requests": {"cpu": 100,
                                                        "memory": "1GB"}}}],
             "tolerations": [{"key": "k", "tolerationSeconds": 1.5}],
             "overhead": {"cpu": "12x"}, "nodname": "typo"},
    "status": {"conditions": [{"type": "Ready", "status": "true",
                               "lastTransitionTime": "yesterday"}]}
  })");
  std::vector<std::string> problems = CheckPodJson(pod, "pod");
  std::sort(problems.begin(), problems.end());
  EXPECT_THAT(
      problems,
      ElementsAre(
          R"(pod.metadata.deletionTimestamp: "2026" is not an RFC 3339 time)",
          R"(pod.metadata.labels.a: 1 is not a string)",
          R"(pod.metadata.uid: 7 is not a string)",
          R"(pod.spec.containers[0].resources.requests.cpu: 100 is not a quantity string)",
          R"(pod.spec.containers[0].resources.requests.memory: "1GB" is not a quantity)",
          R"(pod.spec.nodname: no such field in the Go type)",
          R"(pod.spec.overhead.cpu: "12x" is not a quantity)",
          R"(pod.spec.priority: "5" is not an int32)",
          R"(pod.spec.tolerations[0].tolerationSeconds: 1.5 is not an int64)",
          R"(pod.status.conditions[0].lastTransitionTime: "yesterday" is not an RFC 3339 time)",
          R"(pod.status.conditions[0].status: "true" is not True, False or Unknown)"));
}

TEST(CheckPodJsonTest, IntegersOutOfRangeAndWrongShapes) {
  EXPECT_THAT(
      CheckPodJson(json::parse(R"({"spec":{"priority":3000000000}})"), "pod"),
      ElementsAre(HasSubstr("is not an int32")));
  EXPECT_THAT(CheckPodJson(json::parse(R"({"spec":{"priority":5.0}})"), "pod"),
              ElementsAre(HasSubstr("is not an int32")));
  EXPECT_THAT(CheckPodJson(json::parse(R"({"spec":{"containers":{}}})"), "pod"),
              ElementsAre("pod.spec.containers: {} is not an array"));
  EXPECT_THAT(CheckPodJson(json::parse(R"({"metadata":[]})"), "pod"),
              ElementsAre("pod.metadata: [] is not an object"));
  EXPECT_THAT(CheckPodJson(json::parse("[]"), "pod"),
              ElementsAre("pod: [] is not an object"));
}

TEST(CheckPodJsonTest, NullIsAcceptedAnywhere) {
  EXPECT_THAT(CheckPodJson(json::parse(R"({
    "metadata": {"creationTimestamp": null, "deletionTimestamp": null,
                 "name": null, "labels": null},
    "spec": {"priority": null, "containers": [{"resources": {
               "requests": {"cpu": null}}}]},
    "status": null})"),
                           "pod"),
              IsEmpty());
}

TEST(CheckNodeJsonTest, FindsMistypedFields) {
  json node = json::parse(R"({
    "metadata": {"name": "n1", "creationTimestamp": "2023"},
    "spec": {"unschedulable": "true", "taints": [{"key": "k",
             "effect": "NoSchedule", "timeAdded": 5}]},
    "status": {"allocatable": {"cpu": 4, "pods": "110"},
               "capacity": {"memory": "8Gi"},
               "conditions": [{"type": "Ready", "status": "Maybe"}],
               "daemonEndpoints": {"kubeletEndpoint": {"Port": "10250"}}}
  })");
  std::vector<std::string> problems = CheckNodeJson(node, "node");
  std::sort(problems.begin(), problems.end());
  EXPECT_THAT(
      problems,
      ElementsAre(
          R"(node.metadata.creationTimestamp: "2023" is not an RFC 3339 time)",
          R"(node.spec.taints[0].timeAdded: 5 is not an RFC 3339 time)",
          R"(node.spec.unschedulable: "true" is not a bool)",
          R"(node.status.allocatable.cpu: 4 is not a quantity string)",
          R"(node.status.conditions[0].status: "Maybe" is not True, False or Unknown)",
          R"(node.status.daemonEndpoints.kubeletEndpoint.Port: "10250" is not an int32)"));
}

TEST(CheckTraceK8sJsonTest, ChecksThePodsAndNodesOfSteps) {
  const std::string text =
      R"({"schedtrace":1,"name":"t","layer":"scheduler","config":{"x":1}}
# a comment
{"t":1,"op":"pod_add","pod":{"metadata":{"name":"a","deletionTimestamp":"2026"}}}
{"t":2,"op":"pod_update","old":{"$ref":"ns/a"},"new":{"spec":{"priority":"5"}}}
{"t":3,"op":"node_update","old":null,"new":{"status":{"allocatable":{"cpu":1}}}}
{"t":4,"op":"q_nominate","pod":{"spec":{}},"node":"n1"}
{"t":5,"op":"c_add_node","node":{"spec":{"unschedulable":1}}}
{"t":6,
)";
  EXPECT_THAT(
      CheckTraceK8sJson(text, "x.jsonl"),
      ElementsAre(
          R"(x.jsonl:3: pod.metadata.deletionTimestamp: "2026" is not an RFC 3339 time)",
          R"(x.jsonl:4: new.spec.priority: "5" is not an int32)",
          R"(x.jsonl:5: new.status.allocatable.cpu: 1 is not a quantity string)",
          R"(x.jsonl:7: node.spec.unschedulable: 1 is not a bool)",
          "x.jsonl:8: not a JSON object"));
}

TEST(K8sTimeTest, FormatsAsMetav1TimeMarshals) {
  EXPECT_EQ(K8sTime(kTraceEpochSeconds), "2023-01-01T00:00:00Z");
  EXPECT_EQ(K8sTime(kTraceEpochSeconds + 7), "2023-01-01T00:00:07Z");
  EXPECT_EQ(K8sTime(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(K8sTime(951782400), "2000-02-29T00:00:00Z");
  EXPECT_EQ(K8sTime(4102444799), "2099-12-31T23:59:59Z");
  EXPECT_EQ(K8sTime(-1), "1969-12-31T23:59:59Z");
  EXPECT_TRUE(IsRfc3339(K8sTime(kTraceEpochSeconds + 86400 * 59 + 3661)));
}

// The control, upstream's own recordings (and every other golden trace)
// passing as read and as our codec writes them back, is checked in the
// model's golden pass (model/golden_test.cc, ExpectCodecRoundTrip in
// testkit/golden_test_util.h), where the corpus is read once.

}  // namespace
}  // namespace schedtrace
