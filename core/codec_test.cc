#include "core/codec.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testkit/step_eq_test_util.h"

namespace schedtrace {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kQueueHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"queue","config":{}})";
constexpr char kCacheHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"cache"})";
constexpr char kSchedulerHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"scheduler"})";

Quantity Q(const std::string& text) {
  absl::StatusOr<Quantity> q = ParseQuantity(text);
  EXPECT_TRUE(q.ok()) << q.status();
  return q.value_or(Quantity());
}

// A pod with every field the codec reads set.
Pod FullPod(const std::string& name = "p") {
  Pod pod;
  pod.namespace_ = "ns";
  pod.name = name;
  pod.uid = "uid-" + name;
  pod.resource_version = "7";
  pod.labels = {{"app", "web"}, {"tier", "fe"}};
  pod.annotations = {{"touch", "1"}};
  pod.deletion_timestamp = "2023-01-01T00:00:00Z";
  pod.scheduler_name = "default-scheduler";
  pod.priority = -5;
  pod.node_name = "n1";
  pod.node_selector = {{"zone", "a"}};
  pod.tolerations = {{"k", "Equal", "v", "NoSchedule", std::nullopt},
                     {"", "Exists", "", "NoExecute", 30}};
  pod.scheduling_gates = {"g1", "g2"};
  pod.containers = {{"c1", "img1", {{"cpu", Q("100m")}, {"memory", Q("1Gi")}}},
                    {"c2", "img2", {}}};
  pod.init_containers = {{"i1", "init", {{"example.com/gpu", Q("2")}}}};
  pod.overhead = {{"cpu", Q("10m")}};
  NodeSelectorTerm term;
  term.match_expressions = {{"zone", "In", {"a", "b"}}, {"ssd", "Exists", {}}};
  term.match_fields = {{"metadata.name", "NotIn", {"n9"}}};
  pod.required_node_affinity = std::vector<NodeSelectorTerm>{term, {}};
  PodAffinityTerm aff;
  aff.label_selector =
      LabelSelector{{{"role", "db"}}, {{"app", "NotIn", {"x"}}}};
  aff.namespaces = {"ns", "other"};
  aff.topology_key = "zone";
  aff.namespace_selector = LabelSelector{};
  PodAffinityTerm bare;
  bare.topology_key = "kubernetes.io/hostname";
  pod.required_pod_affinity = {aff, bare};
  pod.nominated_node_name = "n2";
  return pod;
}

Node FullNode(const std::string& name = "n1") {
  Node node;
  node.name = name;
  node.uid = "uid-" + name;
  node.resource_version = "3";
  node.labels = {{"zone", "a"}, {"schedtrace.io/score", "5"}};
  node.unschedulable = true;
  node.taints = {{"k", "v", "NoSchedule"}, {"k2", "", "NoExecute"}};
  node.allocatable = {{"cpu", Q("4")},
                      {"memory", Q("8Gi")},
                      {"pods", Q("110")},
                      {"example.com/gpu", Q("1")}};
  node.conditions = {{"Ready", "True"}, {"DiskPressure", "False"}};
  return node;
}

absl::StatusOr<Trace> Parse(const std::string& text) {
  return ParseTrace(text, "x.jsonl");
}

// --------------------------------------------------------------------------
// Objects.

TEST(PodCodecTest, EveryFieldRoundTrips) {
  Pod pod = FullPod();
  absl::StatusOr<Pod> back = PodFromJson(PodToJson(pod), "f:1: ", "pod");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, pod);
}

TEST(PodCodecTest, EmptyPodRoundTripsAndOmitsEmptyFields) {
  Pod pod;
  json j = PodToJson(pod);
  EXPECT_EQ(j, json::parse(R"({"metadata":{},"spec":{},"status":{}})"));
  absl::StatusOr<Pod> back = PodFromJson(j, "f:1: ", "pod");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, pod);
}

TEST(PodCodecTest, QuantitiesKeepTheirText) {
  json j = PodToJson(FullPod());
  EXPECT_EQ(j["spec"]["containers"][0]["resources"]["requests"]["cpu"], "100m");
  EXPECT_EQ(j["spec"]["containers"][0]["resources"]["requests"]["memory"],
            "1Gi");
  EXPECT_EQ(j["spec"]["priority"], -5);
}

TEST(PodCodecTest, NullMeansAbsentAndUnknownKeysAreIgnored) {
  json j = json::parse(R"({
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "p", "namespace": "ns", "labels": null,
                 "creationTimestamp": null, "deletionTimestamp": null,
                 "ownerReferences": [{"kind": "X"}]},
    "spec": {"priority": null, "affinity": {"nodeAffinity": null,
             "podAntiAffinity": {"x": 1}},
             "containers": [{"name": "c", "resources": {"limits": {"cpu": "zz"},
                            "requests": null}, "ports": [1]}],
             "volumes": [{}]},
    "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled"}]},
    "future": {"anything": [1, 2, 3]}})");
  absl::StatusOr<Pod> pod = PodFromJson(j, "f:1: ", "pod");
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(pod->Key(), "ns/p");
  EXPECT_FALSE(pod->priority.has_value());
  EXPECT_FALSE(pod->deletion_timestamp.has_value());
  EXPECT_FALSE(pod->required_node_affinity.has_value());
  ASSERT_EQ(pod->containers.size(), 1u);
  EXPECT_TRUE(pod->containers[0].requests.empty());
}

TEST(PodCodecTest, PresentNodeAffinityWithoutTermsIsKept) {
  json j = json::parse(R"({"spec": {"affinity": {"nodeAffinity":
      {"requiredDuringSchedulingIgnoredDuringExecution": {}}}}})");
  absl::StatusOr<Pod> pod = PodFromJson(j, "f:1: ", "pod");
  ASSERT_TRUE(pod.ok()) << pod.status();
  ASSERT_TRUE(pod->required_node_affinity.has_value());
  EXPECT_TRUE(pod->required_node_affinity->empty());
  absl::StatusOr<Pod> back = PodFromJson(PodToJson(*pod), "f:1: ", "pod");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, *pod);
}

// Go's decoder makes `{}` and `[]` empty but not nil, and reflect.DeepEqual
// tells them from absent: the codec keeps them (GivenEmpty) and writes them
// back, so a child sees what upstream saw.
TEST(PodCodecTest, EmptyCollectionsAreKeptApartFromAbsentOnes) {
  const json given = json::parse(R"({
    "metadata": {"name": "p", "namespace": "ns", "labels": {},
                 "annotations": {}},
    "spec": {"nodeSelector": {}, "tolerations": [], "schedulingGates": [],
             "containers": [{"name": "c", "resources": {"requests": {}}}],
             "initContainers": [], "overhead": {},
             "affinity": {"nodeAffinity": {
                 "requiredDuringSchedulingIgnoredDuringExecution": {
                     "nodeSelectorTerms": [{"matchExpressions": [],
                         "matchFields": [{"key": "metadata.name",
                             "operator": "In", "values": []}]}]}},
               "podAffinity": {
                 "requiredDuringSchedulingIgnoredDuringExecution": [
                     {"labelSelector": {"matchLabels": {},
                                        "matchExpressions": []},
                      "namespaces": [], "topologyKey": "zone"}]}}},
    "status": {}})");
  absl::StatusOr<Pod> pod = PodFromJson(given, "f:1: ", "pod");
  ASSERT_TRUE(pod.ok()) << pod.status();
  for (Nilable f :
       {Nilable::kLabels, Nilable::kAnnotations, Nilable::kNodeSelector,
        Nilable::kTolerations, Nilable::kSchedulingGates,
        Nilable::kInitContainers, Nilable::kOverhead}) {
    EXPECT_TRUE(pod->given_empty.Has(f)) << static_cast<int>(f);
  }
  EXPECT_FALSE(pod->given_empty.Has(Nilable::kContainers));  // not empty
  EXPECT_FALSE(pod->given_empty.Has(Nilable::kAffinity));    // not empty
  EXPECT_TRUE(pod->containers[0].given_empty.Has(Nilable::kRequests));
  const NodeSelectorTerm& term = pod->required_node_affinity->at(0);
  EXPECT_TRUE(term.given_empty.Has(Nilable::kMatchExpressions));
  EXPECT_TRUE(term.match_fields[0].given_empty.Has(Nilable::kValues));
  const PodAffinityTerm& aff = pod->required_pod_affinity.at(0);
  EXPECT_TRUE(aff.given_empty.Has(Nilable::kNamespaces));
  EXPECT_TRUE(aff.label_selector->given_empty.Has(Nilable::kMatchLabels));
  EXPECT_EQ(PodToJson(*pod), given);

  // The same pod with every empty field absent, or null, keeps no bit.
  const json absent = json::parse(R"({
    "metadata": {"name": "p", "namespace": "ns", "labels": null},
    "spec": {"tolerations": null, "affinity": null,
             "containers": [{"name": "c", "resources": {}}]}})");
  absl::StatusOr<Pod> bare = PodFromJson(absent, "f:1: ", "pod");
  ASSERT_TRUE(bare.ok()) << bare.status();
  EXPECT_TRUE(bare->given_empty.empty());
  EXPECT_TRUE(bare->containers[0].given_empty.empty());
}

TEST(PodCodecTest, AnAffinityHoldingNothingWeKeepIsPresent) {
  for (const char* text : {R"({"spec": {"affinity": {}}})",
                           R"({"spec": {"affinity": {"podAntiAffinity": {}}}})",
                           R"({"spec": {"affinity": {"nodeAffinity": {}}}})",
                           R"({"spec": {"affinity": {"podAffinity": {}}}})"}) {
    absl::StatusOr<Pod> pod = PodFromJson(json::parse(text), "f:1: ", "pod");
    ASSERT_TRUE(pod.ok()) << pod.status();
    EXPECT_FALSE(pod->given_empty.empty()) << text;
    absl::StatusOr<Pod> back = PodFromJson(PodToJson(*pod), "f:1: ", "pod");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, *pod) << text;
  }
}

TEST(NodeCodecTest, EmptyCollectionsAreKeptApartFromAbsentOnes) {
  const json given = json::parse(R"({"metadata": {"name": "n", "labels": {}},
    "spec": {"taints": []}, "status": {"allocatable": {}, "conditions": []}})");
  absl::StatusOr<Node> node = NodeFromJson(given, "f:1: ", "node");
  ASSERT_TRUE(node.ok()) << node.status();
  for (Nilable f : {Nilable::kLabels, Nilable::kTaints, Nilable::kAllocatable,
                    Nilable::kConditions}) {
    EXPECT_TRUE(node->given_empty.Has(f)) << static_cast<int>(f);
  }
  EXPECT_EQ(NodeToJson(*node), given);
}

TEST(PodCodecTest, BareNumberQuantityIsAccepted) {
  json j = json::parse(R"({"spec": {"overhead": {"cpu": 2}}})");
  absl::StatusOr<Pod> pod = PodFromJson(j, "f:1: ", "pod");
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(pod->overhead.at("cpu").MilliValue(), 2000);
}

TEST(PodCodecTest, PriorityOutOfInt32RangeIsAnError) {
  json j = json::parse(R"({"spec": {"priority": 3000000000}})");
  absl::StatusOr<Pod> pod = PodFromJson(j, "f:4: ", "new");
  ASSERT_FALSE(pod.ok());
  EXPECT_EQ(pod.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(pod.status().message(),
              HasSubstr("f:4: field \"new.spec.priority\""));
}

// metav1.Time.UnmarshalJSON is time.Parse(time.RFC3339, ...): what it
// refuses, json.Unmarshal refuses, so the codec does too (bad input naming
// the file, the line and the field); what it takes is kept as written.
TEST(PodCodecTest, DeletionTimestampIsReadAsGoReadsIt) {
  for (const char* bad :
       {"2023-01-01t00:00:07Z", "2023-01-01T00:00:07z", "2026",
        "2023-02-29T00:00:00Z", "2023-01-01T00:00:07+25:00",
        "2023-01-01 00:00:07Z"}) {
    json j = {{"metadata", {{"deletionTimestamp", bad}}}};
    absl::StatusOr<Pod> pod = PodFromJson(j, "f:3: ", "pod");
    ASSERT_FALSE(pod.ok()) << bad;
    EXPECT_EQ(pod.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(pod.status().message(),
                HasSubstr("f:3: field \"pod.metadata.deletionTimestamp\""));
    EXPECT_THAT(pod.status().message(), HasSubstr(bad));
  }
  for (const char* good : {"2023-01-01T00:00:07Z", "2023-01-01T7:00:07+24:60",
                           "2023-01-01T00:00:07,1234567891-00:30"}) {
    json j = {{"metadata", {{"deletionTimestamp", good}}}};
    absl::StatusOr<Pod> pod = PodFromJson(j, "f:3: ", "pod");
    ASSERT_TRUE(pod.ok()) << good << ": " << pod.status();
    EXPECT_EQ(pod->deletion_timestamp, good);
  }
}

TEST(NodeCodecTest, EveryFieldRoundTrips) {
  Node node = FullNode();
  absl::StatusOr<Node> back = NodeFromJson(NodeToJson(node), "f:1: ", "node");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, node);
  Node empty;
  back = NodeFromJson(NodeToJson(empty), "f:1: ", "node");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, empty);
}

TEST(NodeCodecTest, ReadsRealNodeJson) {
  json j = json::parse(
      R"({"metadata":{"name":"n1","uid":"u","creationTimestamp":null},
    "spec":{"taints":[{"key":"k","effect":"NoSchedule","timeAdded":null}]},
    "status":{"capacity":{"cpu":"4"},"allocatable":{"cpu":"4","pods":"110"},
      "conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":null}],
      "nodeInfo":{"bootID":""},"daemonEndpoints":{"kubeletEndpoint":{"Port":0}}}})");
  absl::StatusOr<Node> node = NodeFromJson(j, "f:1: ", "node");
  ASSERT_TRUE(node.ok()) << node.status();
  EXPECT_EQ(node->name, "n1");
  EXPECT_EQ(node->taints, (std::vector<Taint>{{"k", "", "NoSchedule"}}));
  EXPECT_EQ(node->allocatable.size(), 2u);
  EXPECT_EQ(node->allocatable.at("cpu").MilliValue(), 4000);
  EXPECT_EQ(node->conditions, (std::vector<NodeCondition>{{"Ready", "True"}}));
}

// --------------------------------------------------------------------------
// Header.

TEST(HeaderCodecTest, EveryConfigKeyRoundTrips) {
  TraceHeader h;
  h.name = "scheduler/x";
  h.layer = Layer::kScheduler;
  h.upstream = "v1.26.7";
  h.source = "handwritten";
  h.description = "all \"keys\"";
  h.seed = 42;
  h.truncated = Truncated{.at_step = 11, .reason = "q_add_unschedulable: x"};
  h.config.pod_initial_backoff_ms = 2000;
  h.config.pod_max_backoff_ms = std::numeric_limits<int64_t>::max();
  h.config.pod_max_in_unschedulable_ms = 60000;
  h.config.assumed_pod_ttl_ms = 30000;
  h.config.profiles = {"default-scheduler", "other"};
  h.config.features = {{"PodSchedulingReadiness", true}, {"X", false}};
  h.config.cluster_event_map = {
      {"Node", {"Add", "UpdateNodeTaint"}, {"A"}},
      {"*", {"All"}, {}},
      {"Node", {"Add"}, {"B"}, "QueueSkip"},
      {"Pod", {"Delete"}, {"C"}, "Queue"},
      {"Node", {"Add"}, {"D"}, "Error"},
      {"Node", {"Add"}, {"NodeAffinity", "NodeResourcesFit"}, "plugin"}};
  h.config.pre_enqueue_plugins = {{"default-scheduler", {"SchedulingGates"}}};
  h.config.plugins = {{"filter", {"NodeName", "TaintToleration"}},
                      {"score", {"TraceScore"}}};
  h.config.percentage_of_nodes_to_score = 100;
  h.config.nominator_pod_lister = "queue-ops";
  TraceDecoder decoder("h.jsonl");
  absl::StatusOr<TraceHeader> back = decoder.DecodeHeader(EncodeHeader(h), 1);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, h);

  TraceHeader defaults;
  back = decoder.DecodeHeader(EncodeHeader(defaults), 1);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, defaults);
}

TEST(HeaderCodecTest, TruncatedNeedsAPositiveStep) {
  TraceDecoder decoder("h.jsonl");
  absl::StatusOr<TraceHeader> h = decoder.DecodeHeader(
      R"({"schedtrace":1,"layer":"queue","truncated":{"atStep":0}})", 1);
  ASSERT_FALSE(h.ok());
  EXPECT_THAT(std::string(h.status().message()),
              HasSubstr("field \"truncated.atStep\": must be at least 1"));
  h = decoder.DecodeHeader(
      R"({"schedtrace":1,"layer":"queue","truncated":{"reason":"r"}})", 1);
  ASSERT_FALSE(h.ok());
  EXPECT_THAT(std::string(h.status().message()), HasSubstr("truncated.atStep"));
}

TEST(HeaderCodecTest, MissingConfigKeysTakeDefaults) {
  TraceDecoder decoder("h.jsonl");
  absl::StatusOr<TraceHeader> h = decoder.DecodeHeader(
      R"({"schedtrace":1,"layer":"cache","future":1,
          "config":{"podMaxBackoffMs":9223372036854775807,"unknown":[1]}})",
      1);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->layer, Layer::kCache);
  Config expected;
  expected.pod_max_backoff_ms = 9223372036854775807;
  EXPECT_EQ(h->config, expected);
  EXPECT_EQ(h->config.profiles, std::vector<std::string>{"default-scheduler"});
  EXPECT_EQ(h->config.pod_initial_backoff_ms, 1000);
}

// --------------------------------------------------------------------------
// Steps: every op round-trips through EncodeTrace / ParseTrace.

std::vector<Step> OneStepPerOp(Layer layer) {
  auto pod = [](const std::string& name) {
    return std::make_shared<const Pod>(FullPod(name));
  };
  auto node = [](const std::string& name) {
    return std::make_shared<const Node>(FullNode(name));
  };
  // A later version of pod / node `name` (an update names one object).
  auto pod_v2 = [](const std::string& name) {
    Pod p = FullPod(name);
    p.uid += "-recreated";
    p.resource_version = "8";
    return std::make_shared<const Pod>(std::move(p));
  };
  auto node_v2 = [](const std::string& name) {
    Node n = FullNode(name);
    n.labels["zone"] = "b";
    return std::make_shared<const Node>(std::move(n));
  };
  std::vector<Step> steps;
  auto add = [&](Op op) -> Step& {
    Step s;
    s.op = op;
    s.t = static_cast<int64_t>(steps.size()) * 100;
    steps.push_back(std::move(s));
    return steps.back();
  };
  auto expect = std::make_shared<Expect>();
  expect->out = json::parse(R"({"error":true})");
  expect->state = json::parse(R"({"waiting":[]})");
  switch (layer) {
    case Layer::kQueue: {
      add(Op::kQAdd).pod = pod("a");
      Step& u = add(Op::kQUpdate);
      u.old_pod = pod("a");
      u.new_pod = pod_v2("a");
      Step& u_nil = add(Op::kQUpdate);
      u_nil.new_pod = pod("b");
      add(Op::kQDelete).pod = pod("b");
      add(Op::kQPop).expect = expect;
      Step& un = add(Op::kQAddUnschedulable);
      un.pod_key = "ns/a";
      un.plugins = {"NodeResourcesFit", "TaintToleration"};
      un.cycle = 3;
      Step& un2 = add(Op::kQAddUnschedulable);
      un2.pod_key = "ns/a";
      un2.cycle = std::nullopt;
      Step& act = add(Op::kQActivate);
      act.pod_keys = {"ns/a", "ns/never"};
      Pod stub;
      stub.namespace_ = "ns";
      stub.name = "never";
      act.pods = {pod_v2("a"), std::make_shared<const Pod>(stub)};
      Step& mv = add(Op::kQMoveAll);
      mv.event = {"Node", "Add", "NodeAdd"};
      mv.precheck = std::vector<std::string>{"ns/a"};
      Step& mv2 = add(Op::kQMoveAll);
      mv2.event = {"*", "All", "WildCardEvent"};
      Step& mv3 = add(Op::kQMoveAll);
      mv3.event = {"Pod", "Delete", "AssignedPodDelete"};
      mv3.precheck = std::vector<std::string>{};
      Step& mv4 = add(Op::kQMoveAll);  // E14: a Node event's nodes
      mv4.event = {"Node", "UpdateNodeLabel", ""};
      mv4.old_node = node("n1");
      mv4.new_node = node("n1");
      Step& mv5 = add(Op::kQMoveAll);  // a pod event's pods, new only
      mv5.event = {"AssignedPod", "Delete", ""};
      mv5.new_pod = pod("c");
      Step& mv6 = add(Op::kQMoveAll);
      mv6.event = {"*", "All", "ForceActivate"};
      mv6.old_pod = pod("a");
      mv6.new_pod = pod_v2("a");
      add(Op::kQDone).pod_key = "ns/a";
      add(Op::kQAssignedPodAdded).pod = pod("c");
      add(Op::kQAssignedPodUpdated).pod = pod("c");
      Step& nom = add(Op::kQNominate);
      nom.pod = pod("a");
      nom.nominated_node = "";
      add(Op::kFlushBackoff);
      add(Op::kFlushUnschedulable);
      break;
    }
    case Layer::kCache: {
      add(Op::kCAssume).pod = pod("a");
      add(Op::kCFinishBinding).pod = pod("a");
      add(Op::kCForget).pod = pod("a");
      add(Op::kCAddPod).pod = pod("a");
      Step& up = add(Op::kCUpdatePod);
      up.old_pod = pod("a");
      up.new_pod = pod_v2("a");
      add(Op::kCRemovePod).pod = pod("a");
      add(Op::kCAddNode).node = node("n1");
      Step& un = add(Op::kCUpdateNode);
      un.old_node = node("n1");
      un.new_node = node_v2("n1");
      add(Op::kCRemoveNode).node = node("n1");
      add(Op::kCCleanup).expect = expect;
      break;
    }
    case Layer::kScheduler: {
      add(Op::kPodAdd).pod = pod("a");
      Step& up = add(Op::kPodUpdate);
      up.old_pod = pod("a");
      up.new_pod = pod_v2("a");
      add(Op::kPodDelete).pod = pod("a");
      Step& del = add(Op::kPodDelete);
      del.pod = pod("b");
      del.tombstone = true;
      add(Op::kNodeAdd).node = node("n1");
      Step& un = add(Op::kNodeUpdate);
      un.old_node = node("n1");
      un.new_node = node_v2("n1");
      add(Op::kNodeDelete).node = node("n1");
      Step& nd = add(Op::kNodeDelete);
      nd.node = node("n2");
      nd.tombstone = true;
      Step& ce = add(Op::kClusterEvent);
      ce.event = {"StorageClass", "Add", ""};
      ce.wait_for_first_consumer = true;
      Step& ce2 = add(Op::kClusterEvent);
      ce2.event = {"PersistentVolume", "Update", ""};
      add(Op::kFlushBackoff);
      add(Op::kFlushUnschedulable);
      add(Op::kScheduleOne).expect = expect;
      Step& s1 = add(Op::kScheduleOne);
      s1.reserve = ReserveOutcome::kError;
      s1.permit = PermitOutcome::kWait;
      add(Op::kScheduleOne).permit = PermitOutcome::kReject;
      add(Op::kPermitAllow).pod_key = "ns/a";
      add(Op::kPermitReject).pod_key = "ns/b";
      Step& b = add(Op::kBind);
      b.pod_key = "ns/a";
      Step& b2 = add(Op::kBind);
      b2.pod_key = "ns/a";
      b2.prebind_ok = false;
      Step& b3 = add(Op::kBind);
      b3.pod_key = "ns/a";
      b3.bind_ok = false;
      break;
    }
  }
  return steps;
}

class StepRoundTripTest : public ::testing::TestWithParam<Layer> {};

TEST_P(StepRoundTripTest, EveryOpRoundTrips) {
  Trace trace;
  trace.header.layer = GetParam();
  trace.header.name = "rt";
  trace.steps = OneStepPerOp(GetParam());
  std::string text = EncodeTrace(trace);
  absl::StatusOr<Trace> back = Parse(text);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
  EXPECT_EQ(back->header, trace.header);
  ASSERT_EQ(back->steps.size(), trace.steps.size());
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    EXPECT_EQ(back->steps[i].line, static_cast<int>(i) + 2);
    ExpectStepEq(trace.steps[i], back->steps[i]);
  }
  // And encoding is stable.
  EXPECT_EQ(EncodeTrace(*back), text);
}

INSTANTIATE_TEST_SUITE_P(AllLayers, StepRoundTripTest,
                         ::testing::Values(Layer::kQueue, Layer::kCache,
                                           Layer::kScheduler),
                         [](const auto& info) {
                           return std::string(LayerName(info.param));
                         });

// The top-level keys of one line, in the order they are written.
std::vector<std::string> KeysOf(const std::string& line) {
  std::vector<std::string> keys;
  const nlohmann::ordered_json object = nlohmann::ordered_json::parse(line);
  for (const auto& [key, value] : object.items()) keys.push_back(key);
  return keys;
}

TEST(StepCodecTest, KeysAreWrittenTOpArgumentsExpect) {
  auto pod = [](const std::string& name) {
    return std::make_shared<const Pod>(FullPod(name));
  };
  Step update;
  update.op = Op::kPodUpdate;
  update.t = 7;
  update.old_pod = pod("a");
  update.new_pod = pod("a");
  update.expect =
      std::make_shared<Expect>(Expect{json::object(), json::object()});
  const std::string line = EncodeStep(update);
  EXPECT_THAT(KeysOf(line), ElementsAre("t", "op", "old", "new", "expect"));
  EXPECT_THAT(line, HasSubstr(R"("expect":{"out":{},"state":{}}})"));

  Step bind;
  bind.op = Op::kBind;
  bind.pod_key = "ns/a";
  bind.prebind_ok = false;
  EXPECT_THAT(KeysOf(EncodeStep(bind)),
              ElementsAre("t", "op", "pod", "prebind", "bind"));

  Step del;
  del.op = Op::kPodDelete;
  del.pod = pod("a");
  del.tombstone = true;
  EXPECT_THAT(KeysOf(EncodeStep(del)),
              ElementsAre("t", "op", "pod", "tombstone"));
}

TEST(HeaderCodecTest, KeysAreWrittenInASensibleOrder) {
  TraceHeader h;
  h.name = "n";
  h.upstream = "v1.26.7";
  h.source = "generated";
  h.description = "d";
  h.seed = 3;
  EXPECT_THAT(KeysOf(EncodeHeader(h)),
              ElementsAre("schedtrace", "name", "layer", "upstream", "source",
                          "description", "seed", "config"));
  h.truncated = Truncated{.at_step = 2, .reason = "r"};
  EXPECT_THAT(KeysOf(EncodeHeader(h)),
              ElementsAre("schedtrace", "name", "layer", "upstream", "source",
                          "description", "seed", "truncated", "config"));
  EXPECT_THAT(KeysOf(EncodeHeader(TraceHeader())),
              ElementsAre("schedtrace", "name", "layer", "config"));
}

TEST(StepCodecTest, EncodeWithoutExpectLeavesItOut) {
  Step step;
  step.op = Op::kQPop;
  step.t = 5;
  step.expect =
      std::make_shared<Expect>(Expect{json::object(), json::object()});
  EXPECT_EQ(json::parse(EncodeStep(step, false)),
            json::parse(R"({"t":5,"op":"q_pop"})"));
  EXPECT_EQ(
      json::parse(EncodeStep(step, true)),
      json::parse(R"({"t":5,"op":"q_pop","expect":{"out":{},"state":{}}})"));
}

TEST(StepCodecTest, DefaultsOfOptionalArguments) {
  absl::StatusOr<Trace> t = Parse(absl::StrCat(kSchedulerHeader, R"(
{"t":1,"op":"schedule_one"}
{"t":2,"op":"bind","pod":"ns/a"}
{"t":3,"op":"pod_delete","pod":{"metadata":{"name":"a","namespace":"ns"}}}
{"t":4,"op":"cluster_event","resource":"CSINode","action":"Add"}
{"t":5,"op":"schedule_one","reserve":null,"permit":"wait"}
)"));
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->steps.size(), 5u);
  EXPECT_EQ(t->steps[0].reserve, ReserveOutcome::kOk);
  EXPECT_EQ(t->steps[0].permit, PermitOutcome::kAllow);
  EXPECT_TRUE(t->steps[1].prebind_ok);
  EXPECT_TRUE(t->steps[1].bind_ok);
  EXPECT_EQ(t->steps[1].pod_key, "ns/a");
  EXPECT_FALSE(t->steps[2].tombstone);
  EXPECT_FALSE(t->steps[3].wait_for_first_consumer);
  EXPECT_EQ(t->steps[3].event.resource, "CSINode");
  EXPECT_EQ(t->steps[4].reserve, ReserveOutcome::kOk);
  EXPECT_EQ(t->steps[4].permit, PermitOutcome::kWait);
  EXPECT_EQ(t->steps[4].expect, nullptr);
}

TEST(StepCodecTest, RefResolvesToTheLatestCarriedPod) {
  absl::StatusOr<Trace> t = Parse(absl::StrCat(kQueueHeader, R"(
{"t":1,"op":"q_add","pod":{"metadata":{"name":"a","namespace":"ns","resourceVersion":"1"}}}
{"t":2,"op":"q_update","old":{"$ref":"ns/a"},"new":{"metadata":{"name":"a","namespace":"ns","resourceVersion":"2"}}}
{"t":3,"op":"q_delete","pod":{"$ref":"ns/a"}}
{"t":4,"op":"q_update","old":null,"new":{"$ref":"ns/a"}}
{"t":5,"op":"q_activate","pods":["ns/a","ns/zz"]}
)"));
  ASSERT_TRUE(t.ok()) << t.status();
  const std::vector<Step>& s = t->steps;
  EXPECT_EQ(s[1].old_pod, s[0].pod);  // the same object, as upstream shares it
  EXPECT_EQ(s[1].new_pod->resource_version, "2");
  EXPECT_EQ(s[2].pod, s[1].new_pod);
  EXPECT_EQ(s[3].old_pod, nullptr);
  EXPECT_EQ(s[3].new_pod, s[1].new_pod);
  EXPECT_EQ(s[4].pod_keys, (std::vector<std::string>{"ns/a", "ns/zz"}));
  ASSERT_EQ(s[4].pods.size(), 2u);
  EXPECT_EQ(s[4].pods[0], s[1].new_pod);
  Pod stub;
  stub.namespace_ = "ns";
  stub.name = "zz";
  EXPECT_EQ(*s[4].pods[1], stub);
}

TEST(StepCodecTest, BlankAndCommentLinesAreSkippedButCounted) {
  absl::StatusOr<Trace> t = Parse(absl::StrCat(
      "# a comment\n\n", kQueueHeader, "\n   \n  # another\n",
      R"({"t":0,"op":"q_pop"})", "\r\n", R"({"t":0,"op":"flush_backoff"})"));
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_EQ(t->steps.size(), 2u);
  EXPECT_EQ(t->steps[0].line, 6);
  EXPECT_EQ(t->steps[1].line, 7);
  EXPECT_EQ(t->path, "x.jsonl");
}

TEST(StepCodecTest, CycleIsIntOrCurrent) {
  absl::StatusOr<Trace> t = Parse(absl::StrCat(kQueueHeader, R"(
{"t":1,"op":"q_add_unschedulable","pod":"ns/a","plugins":[],"cycle":0}
{"t":1,"op":"q_add_unschedulable","pod":"ns/a","plugins":["X"],"cycle":"current"}
)"));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->steps[0].cycle, std::optional<int64_t>(0));
  EXPECT_EQ(t->steps[1].cycle, std::nullopt);
  EXPECT_EQ(t->steps[1].plugins, std::vector<std::string>{"X"});
}

// --------------------------------------------------------------------------
// Out and state.

TEST(OutCodecTest, RoundTripsAndWritesOnlyKeysThatApply) {
  StepOut empty;
  EXPECT_EQ(EncodeOut(empty), "{}");

  StepOut pop_none;
  pop_none.popped_present = true;
  EXPECT_EQ(json::parse(EncodeOut(pop_none)),
            json::parse(R"({"popped":null})"));

  StepOut full;
  full.popped_present = true;
  full.popped = "ns/a";
  full.attempts = 2;
  full.error = true;
  full.fatal = true;
  full.result = ScheduleResult{"ns/a", "unschedulable", "n1",
                               std::vector<std::string>{"NodeResourcesFit"}};
  full.bindings = {{"ns/a", "n1"}};
  full.status_updates = {{"ns/a", "Unschedulable", ""}};
  full.events = {{"ns/a", "FailedScheduling"}};
  EXPECT_EQ(json::parse(EncodeOut(full)), json::parse(R"({
      "popped":"ns/a","attempts":2,"error":true,"fatal":true,
      "result":{"pod":"ns/a","outcome":"unschedulable","node":"n1",
                "plugins":["NodeResourcesFit"]},
      "bindings":[{"pod":"ns/a","node":"n1"}],
      "statusUpdates":[{"pod":"ns/a","reason":"Unschedulable","nominatedNodeName":""}],
      "events":[{"pod":"ns/a","reason":"FailedScheduling"}]})"));

  StepOut result_only;
  result_only.result =
      ScheduleResult{"ns/b", "scheduled", std::nullopt, std::nullopt};
  StepOut result_empty_plugins;
  result_empty_plugins.result = ScheduleResult{
      "ns/b", "unschedulable", std::nullopt, std::vector<std::string>{}};
  for (const StepOut& out :
       {empty, pop_none, full, result_only, result_empty_plugins}) {
    absl::StatusOr<StepOut> back = DecodeOut(EncodeOut(out));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, out) << EncodeOut(out);
  }
}

TEST(OutCodecTest, BadOutIsAnError) {
  EXPECT_FALSE(DecodeOut("{").ok());
  absl::StatusOr<StepOut> out = DecodeOut(R"({"bindings":[{"pod":"a"}]})");
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.status().message(), HasSubstr("out.bindings[0].node"));
  out = DecodeOut(R"({"attempts":"2"})");
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.status().message(), HasSubstr("\"out.attempts\""));
}

State FullState() {
  State s;
  s.queue = QueueState{};
  s.queue->active = {{"ns/a", 0, 0, {}, false}, {"ns/b", 3, 0, {}, false}};
  s.queue->backoff = {{"ns/c", 1, 3500, {}, false}};
  s.queue->unschedulable = {{"ns/d", 1, 0, {"NodeResourcesFit"}, false},
                            {"ns/e", 0, 0, {}, true}};
  s.queue->scheduling_cycle = 3;
  s.queue->move_request_cycle = -1;
  s.nominated = Nominated{{"", {"ns/x"}}, {"n1", {"ns/y", "ns/z"}}};
  s.cache = CacheState{};
  s.cache->nodes = {{"n1", true, {"ns/a"}, {{"cpu", 100}, {"memory", 1 << 20}}},
                    {"n2", false, {}, {}}};
  s.cache->assumed = {"ns/a"};
  s.cache->binding_finished = {};
  s.waiting = std::vector<std::string>{"ns/w"};
  s.parked = std::vector<std::string>{};
  return s;
}

TEST(StateCodecTest, RoundTrips) {
  State full = FullState();
  EXPECT_EQ(json::parse(EncodeState(full)), json::parse(R"({
    "queue":{"active":[{"pod":"ns/a","attempts":0},{"pod":"ns/b","attempts":3}],
             "backoff":[{"pod":"ns/c","attempts":1,"backoffExpiresAt":3500}],
             "unschedulable":[{"pod":"ns/d","attempts":1,"plugins":["NodeResourcesFit"],"gated":false},
                              {"pod":"ns/e","attempts":0,"plugins":[],"gated":true}],
             "schedulingCycle":3,"moveRequestCycle":-1},
    "nominated":{"":["ns/x"],"n1":["ns/y","ns/z"]},
    "cache":{"nodes":[{"name":"n1","present":true,"pods":["ns/a"],"requested":{"cpu":100,"memory":1048576}},
                      {"name":"n2","present":false,"pods":[],"requested":{}}],
             "assumed":["ns/a"],"bindingFinished":[]},
    "waiting":["ns/w"],"parked":[]})"));
  State queue_only;
  queue_only.queue = QueueState{};
  queue_only.nominated = Nominated{};
  State cache_only;
  cache_only.cache = CacheState{};
  for (const State& s : {full, queue_only, cache_only, State{}}) {
    absl::StatusOr<State> back = DecodeState(EncodeState(s));
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, s) << EncodeState(s);
  }
}

TEST(StateCodecTest, BadStateNamesTheField) {
  absl::StatusOr<State> s = DecodeState(
      R"({"cache":{"nodes":[{"name":"n1","requested":{"cpu":"1"}}]}})");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.status().message(),
              HasSubstr("\"state.cache.nodes[n1].requested.cpu\""));
}

// --------------------------------------------------------------------------
// The golden traces. Each one's expectations re-encode exactly and it
// round-trips through EncodeTrace: checked in the model's golden pass
// (model/golden_test.cc, ExpectCodecRoundTrip in testkit/golden_test_util.h),
// where the corpus is read once.

std::string GoldenDir() {
  const char* env = std::getenv("SCHEDTRACE_SOURCE_DIR");
  std::string root = env != nullptr ? env : SCHEDTRACE_SOURCE_DIR;
  return root + "/golden/upstream-v1.26.7";
}

TEST(GoldenCodecTest, ConfigIsRead) {
  absl::StatusOr<Trace> t =
      ReadTraceFile(GoldenDir() + "/queue/activate-from-backoff.jsonl");
  ASSERT_TRUE(t.ok()) << t.status();
  const Config& c = t->header.config;
  EXPECT_EQ(t->header.layer, Layer::kQueue);
  EXPECT_EQ(c.pod_max_backoff_ms, 10000);
  EXPECT_TRUE(c.Feature("PodSchedulingReadiness"));
  EXPECT_EQ(c.cluster_event_map.size(), 4u);
  EXPECT_EQ(c.pre_enqueue_plugins.at("default-scheduler"),
            std::vector<std::string>{"SchedulingGates"});
  EXPECT_EQ(c.nominator_pod_lister, "queue-ops");
  EXPECT_EQ(t->steps[0].pod->Key(), "default/p");
  EXPECT_EQ(t->steps[0].pod->uid, "uid-default-p");
}

// --------------------------------------------------------------------------
// Bad input: InvalidArgument naming file, line and field.

void ExpectBad(const std::string& text, const std::string& where,
               const std::string& field_or_detail) {
  absl::StatusOr<Trace> t = Parse(text);
  ASSERT_FALSE(t.ok()) << "accepted:\n" << text;
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument)
      << t.status();
  EXPECT_THAT(t.status().message(), HasSubstr("x.jsonl:" + where + ": "));
  EXPECT_THAT(t.status().message(), HasSubstr(field_or_detail));
}

std::string QueueTrace(const std::string& steps) {
  return absl::StrCat(kQueueHeader, "\n", steps);
}

TEST(BadInputTest, MalformedJson) {
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_pop\"}\n{\"t\":2,,}\n"), "3",
            "malformed JSON: ");
}

TEST(BadInputTest, DeepNestingIsRefusedNotOverflowed) {
  std::string deep = std::string(200000, '[') + std::string(200000, ']');
  ExpectBad(QueueTrace(absl::StrCat(
                R"({"t":1,"op":"q_pop","expect":{"out":{"x":)", deep, "}}}")),
            "2", "malformed JSON: nested deeper than 100 levels");
  // Brackets inside strings do not count.
  absl::StatusOr<Trace> t = Parse(QueueTrace(absl::StrCat(
      R"({"t":1,"op":"q_pop","expect":{"out":{"x":")", deep, R"(\"["}}})")));
  EXPECT_TRUE(t.ok()) << t.status();
}

TEST(BadInputTest, NumberPastDoubleRangeIsMalformedNotACrash) {
  // nlohmann throws out_of_range (406), not parse_error, for 1e400.
  ExpectBad(QueueTrace("{\"t\":1e400,\"op\":\"q_pop\"}\n"), "2",
            "malformed JSON: ");
}

TEST(BadInputTest, AnUpdateOfOnePodCarryingAnotherIsRefused) {
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_update","old":{"metadata":{"namespace":"ns","name":"a"}},"new":{"metadata":{"namespace":"ns","name":"b"}}})"
          "\n"),
      "2", "field new.metadata.name: q_update of pod \"ns/a\"");
  // A new uid under the same name is a real (recreated) update.
  absl::StatusOr<Trace> t = Parse(QueueTrace(
      R"({"t":1,"op":"q_update","old":{"metadata":{"namespace":"ns","name":"a","uid":"1"}},"new":{"metadata":{"namespace":"ns","name":"a","uid":"2"}}})"));
  EXPECT_TRUE(t.ok()) << t.status();
}

TEST(BadInputTest, AnUpdateOfOneNodeCarryingAnotherIsRefusedByEverySystem) {
  Step step;
  step.op = Op::kNodeUpdate;
  auto a = std::make_shared<Node>();
  a->name = "n1";
  auto b = std::make_shared<Node>();
  b->name = "n2";
  step.old_node = a;
  step.new_node = b;
  absl::Status s = CheckUpdateNamesOneObject(step);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("node_update of node \"n1\""));
  step.new_node = a;
  EXPECT_TRUE(CheckUpdateNamesOneObject(step).ok());
}

TEST(BadInputTest, TruncatedLastLine) {
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_pop\"}\n{\"t\":2,\"op\":\"q_p"),
            "3", "malformed JSON: ");
}

TEST(BadInputTest, MalformedHeader) {
  ExpectBad("{\"schedtrace\":1,", "1", "malformed JSON: ");
}

TEST(BadInputTest, FirstLineNotAHeader) {
  ExpectBad("# c\n{\"t\":1,\"op\":\"q_pop\"}\n", "2", "field \"schedtrace\"");
  ExpectBad("[1,2]\n", "1", "field \"schedtrace\"");
}

TEST(BadInputTest, UnsupportedVersionOrLayer) {
  ExpectBad(R"({"schedtrace":2,"layer":"queue"})", "1",
            "field \"schedtrace\": unsupported version 2");
  ExpectBad(R"({"schedtrace":1,"layer":"kernel"})", "1",
            "field \"layer\": unknown layer \"kernel\"");
  ExpectBad(R"({"schedtrace":1})", "1", "field \"layer\": missing");
}

TEST(BadInputTest, EmptyFile) {
  ExpectBad("", "1", "field \"schedtrace\": missing");
  ExpectBad("\n# only a comment\n\n", "4", "empty");
}

TEST(BadInputTest, UnknownOp) {
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_frobnicate\"}"), "2",
            "field \"op\": unknown op \"q_frobnicate\"");
}

TEST(BadInputTest, OpOfAnotherLayer) {
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"c_cleanup\"}"), "2",
            "field \"op\": \"c_cleanup\" is not an op of layer queue");
  ExpectBad(absl::StrCat(kCacheHeader, "\n{\"t\":1,\"op\":\"flush_backoff\"}"),
            "2", "field \"op\"");
  ExpectBad(absl::StrCat(kSchedulerHeader, "\n{\"t\":1,\"op\":\"q_pop\"}"), "2",
            "field \"op\"");
}

TEST(BadInputTest, MissingRequiredField) {
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_add\"}"), "2",
            "field \"pod\": missing");
  ExpectBad(QueueTrace("{\"t\":1,\"pod\":{}}"), "2", "field \"op\": missing");
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_update\",\"old\":null}"), "2",
            "field \"new\": missing");
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_add_unschedulable\",\"pod\":\"a/"
                       "b\",\"plugins\":[]}"),
            "2", "field \"cycle\": missing");
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_move_all\",\"event\":{"
                       "\"resource\":\"Node\"}}"),
            "2", "field \"event.action\": missing");
  ExpectBad(QueueTrace("{\"t\":1,\"op\":\"q_nominate\",\"pod\":{}}"), "2",
            "field \"node\": missing");
  ExpectBad(absl::StrCat(kCacheHeader,
                         "\n{\"t\":1,\"op\":\"c_update_pod\",\"old\":null,"
                         "\"new\":{}}"),
            "2", "field \"old\": missing");
  ExpectBad(absl::StrCat(kSchedulerHeader, "\n{\"t\":1,\"op\":\"node_add\"}"),
            "2", "field \"node\": missing");
  ExpectBad(absl::StrCat(kSchedulerHeader, "\n{\"t\":1,\"op\":\"bind\"}"), "2",
            "field \"pod\": missing");
}

TEST(BadInputTest, MistypedField) {
  ExpectBad(QueueTrace("{\"t\":\"1\",\"op\":\"q_pop\"}"), "2",
            "field \"t\": expected an integer, got a string");
  ExpectBad(QueueTrace("{\"t\":1.5,\"op\":\"q_pop\"}"), "2",
            "field \"t\": expected an integer");
  ExpectBad(QueueTrace("{\"t\":1,\"op\":7}"), "2",
            "field \"op\": expected a string");
  ExpectBad(
      QueueTrace(R"({"t":1,"op":"q_add","pod":{"spec":{"priority":"high"}}})"),
      "2", "field \"pod.spec.priority\": expected an integer");
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_add","pod":{"metadata":{"labels":{"a":1}}}})"),
      "2", "field \"pod.metadata.labels.a\": expected a string");
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_add","pod":{"spec":{"tolerations":[{},{"tolerationSeconds":"x"}]}}})"),
      "2", "field \"pod.spec.tolerations[1].tolerationSeconds\"");
  ExpectBad(QueueTrace(R"({"t":1,"op":"q_add","pod":"ns/a"})"), "2",
            "field \"pod\": expected an object, got a string");
  ExpectBad(QueueTrace(R"({"t":1,"op":"q_activate","pods":"ns/a"})"), "2",
            "field \"pods\": expected an array");
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_add_unschedulable","pod":"a/b","cycle":"now"})"),
      "2", "field \"cycle\"");
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_move_all","event":{"resource":"Node","action":"Add"},"precheck":[1]})"),
      "2", "field \"precheck[0]\"");
  ExpectBad(absl::StrCat(kSchedulerHeader,
                         R"(
{"t":1,"op":"schedule_one","permit":"maybe"})"),
            "2", "field \"permit\": unknown value \"maybe\"");
  ExpectBad(absl::StrCat(kSchedulerHeader,
                         R"(
{"t":1,"op":"pod_delete","pod":{},"tombstone":"yes"})"),
            "2", "field \"tombstone\": expected a boolean");
  ExpectBad(absl::StrCat(kSchedulerHeader,
                         R"(
{"t":1,"op":"node_add","node":{"spec":{"unschedulable":1}}})"),
            "2", "field \"node.spec.unschedulable\"");
  ExpectBad(
      R"({"schedtrace":1,"layer":"queue","config":{"podMaxBackoffMs":"10s"}})",
      "1", "field \"config.podMaxBackoffMs\": expected an integer");
  ExpectBad(
      R"({"schedtrace":1,"layer":"queue","config":{"podMaxBackoffMs":9223372036854775808}})",
      "1", "field \"config.podMaxBackoffMs\"");
  ExpectBad(
      R"({"schedtrace":1,"layer":"queue","config":{"features":{"A":"on"}}})",
      "1", "field \"config.features.A\": expected a boolean");
  ExpectBad(QueueTrace(R"({"t":1,"op":"q_pop","expect":{"out":[]}})"), "2",
            "field \"expect.out\": expected an object");
}

TEST(BadInputTest, TimeDecreasingMissingOrNegative) {
  ExpectBad(QueueTrace("{\"t\":5,\"op\":\"q_pop\"}\n{\"t\":5,\"op\":\"q_pop\"}"
                       "\n{\"t\":4,\"op\":\"q_pop\"}"),
            "4", "field \"t\": time goes backwards: 4 after 5");
  ExpectBad(QueueTrace("{\"op\":\"q_pop\"}"), "2", "field \"t\": missing");
  ExpectBad(QueueTrace("{\"t\":null,\"op\":\"q_pop\"}"), "2",
            "field \"t\": missing");
  ExpectBad(QueueTrace("{\"t\":-1,\"op\":\"q_pop\"}"), "2",
            "field \"t\": negative");
  ExpectBad(QueueTrace("{\"t\":4611686018427387905,\"op\":\"q_pop\"}"), "2",
            "field \"t\": time 4611686018427387905 beyond the format's "
            "range (at most 4611686018427387904 ms)");
}

TEST(BadInputTest, InvalidQuantityNamesTheFullPath) {
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_add","pod":{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"12x"}}}]}}})"),
      "2", "field \"pod.spec.containers[0].resources.requests.cpu\": ");
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_update","old":null,"new":{"spec":{"initContainers":[{},{"resources":{"requests":{"memory":"1Qi"}}}]}}})"),
      "2", "field \"new.spec.initContainers[1].resources.requests.memory\": ");
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_add","pod":{"spec":{"overhead":{"cpu":true}}}})"),
      "2", "field \"pod.spec.overhead.cpu\"");
  ExpectBad(absl::StrCat(kCacheHeader, R"(
{"t":1,"op":"c_add_node","node":{"status":{"allocatable":{"pods":"many"}}}})"),
            "2", "field \"node.status.allocatable.pods\": ");
}

TEST(BadInputTest, RefToAPodNoEarlierStepCarried) {
  ExpectBad(
      QueueTrace(
          R"({"t":1,"op":"q_add","pod":{"metadata":{"name":"a","namespace":"ns"}}}
{"t":2,"op":"q_delete","pod":{"$ref":"ns/b"}})"),
      "3", "field \"pod.$ref\": no earlier step carried pod \"ns/b\"");
  ExpectBad(
      QueueTrace(
          R"({"t":2,"op":"q_update","old":{"$ref":"ns/a"},"new":{"metadata":{"name":"a","namespace":"ns"}}})"),
      "2", "field \"old.$ref\"");
  // A step that fails does not make its pods referable.
  ExpectBad(
      QueueTrace(
          R"({"t":2,"op":"q_update","old":null,"new":{"metadata":{"name":"a","namespace":"ns"}},"expect":[]}
{"t":3,"op":"q_delete","pod":{"$ref":"ns/a"}})"),
      "2", "field \"expect\"");
}

TEST(BadInputTest, BadHintNamesTheEntry) {
  auto trace = [](const std::string& entry) {
    return absl::StrCat(
        R"({"schedtrace":1,"layer":"queue","upstream":"v1.37.2",)",
        R"("config":{"clusterEventMap":[{"resource":"Node","actions":["Add"],)",
        R"("plugins":["NodeName"]},)", entry, "]}}\n");
  };
  ExpectBad(trace(R"({"resource":"Node","plugins":["A"],"hint":"Skip"})"), "1",
            "field \"config.clusterEventMap[1].hint\": unknown hint \"Skip\"");
  ExpectBad(trace(R"({"resource":"Node","plugins":["A"],"hint":""})"), "1",
            "config.clusterEventMap[1].hint");
  ExpectBad(trace(R"({"resource":"Node","plugins":["A"],"hint":3})"), "1",
            "config.clusterEventMap[1].hint");
  ExpectBad(trace(R"({"resource":"Node","plugins":["NodeName","TraceReserve"],)"
                  R"("hint":"plugin"})"),
            "1",
            "field \"config.clusterEventMap[1].plugins[1]\": hint \"plugin\" "
            "needs a plugin of the scheduler profile");
  // Absent and null are the default; an absent hint is not written back.
  absl::StatusOr<Trace> t =
      Parse(trace(R"({"resource":"Node","plugins":["A"],"hint":null})"));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->header.config.cluster_event_map[1].hint, "");
  EXPECT_THAT(EncodeHeader(t->header), Not(HasSubstr("hint")));
}

TEST(BadInputTest, MoveObjectsFollowTheEventResource) {
  const std::string pod =
      R"({"metadata":{"namespace":"d","name":"p","uid":"u"}})";
  const std::string node = R"({"metadata":{"name":"n1"}})";
  ExpectBad(QueueTrace(absl::StrCat(
                R"({"t":1,"op":"q_move_all","event":{"resource":)",
                R"("PersistentVolume","action":"Add"},"new":)", pod, "}\n")),
            "2",
            "field \"new\": an event of resource \"PersistentVolume\" "
            "carries no object");
  // A Node event reads nodes: a pod's fields are not a node's.
  ExpectBad(QueueTrace(absl::StrCat(
                R"({"t":1,"op":"q_move_all","event":{"resource":"Node",)",
                R"("action":"Add"},"old":"n1"})", "\n")),
            "2", "field \"old\"");
  // A pod event reads pods, a $ref too, and does not make them latest.
  absl::StatusOr<Trace> t = Parse(QueueTrace(absl::StrCat(
      R"({"t":1,"op":"q_add","pod":)", pod, "}\n",
      R"({"t":2,"op":"q_move_all","event":{"resource":"*","action":"All"},)",
      R"("new":{"$ref":"d/p"},"old":null})", "\n",
      R"({"t":3,"op":"q_move_all","event":{"resource":"Node","action":"Add"},)",
      R"("new":)", node, "}\n", R"({"t":4,"op":"q_done","pod":"d/p"})", "\n")));
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->steps[1].new_pod, t->steps[0].pod);
  EXPECT_EQ(t->steps[1].old_pod, nullptr);
  ASSERT_NE(t->steps[2].new_node, nullptr);
  EXPECT_EQ(t->steps[2].new_node->name, "n1");
  EXPECT_EQ(t->steps[2].old_node, nullptr);
  EXPECT_EQ(t->steps[3].op, Op::kQDone);
  EXPECT_EQ(t->steps[3].pod_key, "d/p");
  // q_done needs its key.
  ExpectBad(QueueTrace(R"({"t":1,"op":"q_done"})"
                       "\n"),
            "2", "field \"pod\": missing");
}

TEST(BadInputTest, ReadTraceFileNamesTheRealPath) {
  std::string path = ::testing::TempDir() + "/codec_bad.jsonl";
  {
    std::ofstream f(path);
    f << kQueueHeader << "\n{\"t\":1,\"op\":\"q_nope\"}\n";
  }
  absl::StatusOr<Trace> t = ReadTraceFile(path);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr(path + ":2: field \"op\""));
  EXPECT_EQ(ReadTraceFile(path + ".missing").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(TraceDecoderTest, StepBeforeHeaderIsRefused) {
  TraceDecoder decoder("s.jsonl");
  absl::StatusOr<Step> step = decoder.DecodeStep(R"({"t":1,"op":"q_pop"})", 1);
  ASSERT_FALSE(step.ok());
  EXPECT_THAT(step.status().message(), HasSubstr("s.jsonl:1: "));
}

TEST(TraceDecoderTest, LineAtATime) {
  TraceDecoder decoder("serve");
  ASSERT_TRUE(decoder.DecodeHeader(kQueueHeader, 1).ok());
  absl::StatusOr<Step> a = decoder.DecodeStep(
      R"({"t":10,"op":"q_add","pod":{"metadata":{"name":"a","namespace":"n"}}})",
      2);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<Step> b =
      decoder.DecodeStep(R"({"t":11,"op":"q_delete","pod":{"$ref":"n/a"}})", 3);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->pod, a->pod);
  EXPECT_EQ(b->line, 3);
  // A new header starts afresh: refs and the clock are reset.
  ASSERT_TRUE(decoder.DecodeHeader(kQueueHeader, 1).ok());
  EXPECT_TRUE(decoder.DecodeStep(R"({"t":0,"op":"q_pop"})", 2).ok());
  EXPECT_FALSE(
      decoder.DecodeStep(R"({"t":1,"op":"q_delete","pod":{"$ref":"n/a"}})", 3)
          .ok());
}

}  // namespace
}  // namespace schedtrace
