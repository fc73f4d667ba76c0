#include "core/op_table.h"

#include <set>
#include <string>

#include "core/codec.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

TEST(OpTableTest, OneEntryPerOpInEnumOrderWithDistinctNames) {
  ASSERT_EQ(AllOpSpecs().size(), static_cast<size_t>(kOpCount));
  std::set<std::string_view> names;
  for (int i = 0; i < kOpCount; ++i) {
    const Op op = static_cast<Op>(i);
    EXPECT_EQ(SpecOf(op).op, op) << i;
    EXPECT_TRUE(names.insert(SpecOf(op).name).second) << SpecOf(op).name;
    EXPECT_EQ(OpName(op), SpecOf(op).name);
    EXPECT_EQ(OpFromName(SpecOf(op).name), op);
    EXPECT_NE(SpecOf(op).layers, 0) << SpecOf(op).name;
  }
  EXPECT_EQ(OpNamed("q_push"), std::nullopt);
  EXPECT_EQ(OpFromName(""), std::nullopt);
}

TEST(OpTableTest, LayersAsTheSpecListsThem) {
  auto names = [](Layer layer) {
    std::string s;
    for (Op op : OpsOfLayer(layer)) {
      if (!s.empty()) s += ' ';
      s += OpName(op);
      EXPECT_TRUE(OpInLayer(op, layer));
    }
    return s;
  };
  EXPECT_EQ(names(Layer::kQueue),
            "q_add q_update q_delete q_pop q_add_unschedulable q_activate "
            "q_move_all q_assigned_pod_added q_assigned_pod_updated "
            "q_nominate flush_backoff flush_unschedulable q_done");
  EXPECT_EQ(names(Layer::kCache),
            "c_assume c_finish_binding c_forget c_add_pod c_update_pod "
            "c_remove_pod c_add_node c_update_node c_remove_node c_cleanup");
  EXPECT_EQ(names(Layer::kScheduler),
            "flush_backoff flush_unschedulable pod_add pod_update pod_delete "
            "node_add node_update node_delete cluster_event schedule_one "
            "permit_allow permit_reject bind");
  EXPECT_FALSE(OpInLayer(Op::kQAdd, Layer::kScheduler));
  EXPECT_FALSE(OpInLayer(Op::kFlushBackoff, Layer::kCache));
}

TEST(OpTableTest, ArgumentsWithKindsAndNeeds) {
  auto args = [](Op op) {
    std::string s;
    for (const ArgSpec& a : SpecOf(op).Args()) {
      if (!s.empty()) s += ' ';
      s += a.key;
      if (a.need == Need::kOptional) s += '?';
      if (a.need == Need::kNullable) s += "~";
    }
    return s;
  };
  EXPECT_EQ(args(Op::kQUpdate), "old~ new");
  EXPECT_EQ(args(Op::kCUpdatePod), "old new");
  EXPECT_EQ(args(Op::kQAddUnschedulable), "pod plugins? cycle");
  EXPECT_EQ(args(Op::kQMoveAll), "event precheck? old? new?");
  EXPECT_EQ(args(Op::kQNominate), "pod node");
  EXPECT_EQ(args(Op::kPodDelete), "pod tombstone?");
  EXPECT_EQ(args(Op::kClusterEvent), "resource action waitForFirstConsumer?");
  EXPECT_EQ(args(Op::kScheduleOne), "reserve? permit?");
  EXPECT_EQ(args(Op::kBind), "pod prebind? bind?");
  EXPECT_EQ(args(Op::kQPop), "");
  // q_nominate's `node` is a name, node_add's an object; bind's `pod` a key.
  EXPECT_EQ(KindOf(SpecOf(Op::kQNominate).Args()[1].arg), ArgKind::kNodeName);
  EXPECT_EQ(KindOf(SpecOf(Op::kNodeAdd).Args()[0].arg), ArgKind::kNodeObject);
  EXPECT_EQ(KindOf(SpecOf(Op::kBind).Args()[0].arg), ArgKind::kPodKey);
  EXPECT_TRUE(SpecOf(Op::kQActivate).Has(Arg::kPodKeys));
  EXPECT_FALSE(SpecOf(Op::kQActivate).HasKind(ArgKind::kPodObject));
}

TEST(OpTableTest, EachLayerDeliversEachInformerEventOnce) {
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (bool node : {false, true}) {
      for (Delivery d :
           {Delivery::kAdd, Delivery::kUpdate, Delivery::kDelete}) {
        int n = 0;
        for (Op op : OpsOfLayer(layer)) {
          const OpSpec& spec = SpecOf(op);
          if (spec.delivers == d &&
              spec.HasKind(node ? ArgKind::kNodeObject : ArgKind::kPodObject)) {
            ++n;
          }
        }
        EXPECT_EQ(n, layer == Layer::kQueue && node ? 0 : 1)
            << LayerName(layer) << " node=" << node;
      }
    }
  }
  EXPECT_EQ(DeliveryOp(Layer::kQueue, false, Delivery::kAdd), Op::kQAdd);
  EXPECT_EQ(DeliveryOp(Layer::kCache, false, Delivery::kAdd), Op::kCAddPod);
  EXPECT_EQ(DeliveryOp(Layer::kCache, true, Delivery::kDelete),
            Op::kCRemoveNode);
  EXPECT_EQ(DeliveryOp(Layer::kScheduler, false, Delivery::kUpdate),
            Op::kPodUpdate);
  EXPECT_EQ(DeliveryOp(Layer::kQueue, true, Delivery::kAdd), std::nullopt);
  // A delivery puts or removes what it carries.
  for (const OpSpec& spec : AllOpSpecs()) {
    if (spec.delivers == Delivery::kNone) continue;
    EXPECT_EQ(spec.effect, spec.delivers == Delivery::kDelete ? Effect::kRemoves
                                                              : Effect::kPuts)
        << spec.name;
  }
}

// Every op's arguments survive the writer and the reader: a step holding a
// distinct value in each argument's member reads back equal, and members
// of no argument are neither written nor read.
TEST(OpTableTest, CodecWritesAndReadsExactlyTheTableArguments) {
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (Op op : OpsOfLayer(layer)) {
      Step s;
      s.t = 5;
      s.op = op;
      auto pod = std::make_shared<Pod>();
      pod->namespace_ = "d";
      pod->name = "p";
      pod->uid = "u1";
      auto node = std::make_shared<Node>();
      node->name = "n1";
      for (const ArgSpec& a : SpecOf(op).Args()) {
        switch (a.arg) {
          case Arg::kPod:
          case Arg::kOldPod:
          case Arg::kNewPod:
            s.*PodMember(a.arg) = pod;
            break;
          case Arg::kNode:
          case Arg::kOldNode:
          case Arg::kNewNode:
            s.*NodeMember(a.arg) = node;
            break;
          case Arg::kPodKey:
            s.pod_key = "d/p";
            break;
          case Arg::kPodKeys:
            s.pod_keys = {"d/p", "d/q"};
            break;
          case Arg::kPrecheck:
            s.precheck = std::vector<std::string>{"d/q"};
            break;
          case Arg::kPlugins:
            s.plugins = {"NodeName"};
            break;
          case Arg::kCycle:
            s.cycle = 3;
            break;
          case Arg::kMoveEvent:
            s.event = {"Node", "Add", "NodeAdd"};
            break;
          case Arg::kMoveOld:  // nodes: the event above is a Node event
            s.old_node = node;
            break;
          case Arg::kMoveNew:
            s.new_node = node;
            break;
          case Arg::kEventResource:
            s.event.resource = "StorageClass";
            break;
          case Arg::kEventAction:
            s.event.action = "Add";
            break;
          case Arg::kWaitForFirstConsumer:
            s.wait_for_first_consumer = true;
            break;
          case Arg::kNominatedNode:
            s.nominated_node = "n1";
            break;
          case Arg::kTombstone:
            s.tombstone = true;
            break;
          case Arg::kReserve:
            s.reserve = ReserveOutcome::kError;
            break;
          case Arg::kPermit:
            s.permit = PermitOutcome::kReject;
            break;
          case Arg::kPreBind:
            s.prebind_ok = false;
            break;
          case Arg::kBindResult:
            s.bind_ok = false;
            break;
        }
      }
      TraceHeader h;
      h.layer = layer;
      TraceDecoder decoder("t.jsonl");
      ASSERT_TRUE(decoder.DecodeHeader(EncodeHeader(h), 1).ok());
      const std::string line = EncodeStep(s);
      absl::StatusOr<Step> back = decoder.DecodeStep(line, 2);
      ASSERT_TRUE(back.ok()) << line << ": " << back.status();
      EXPECT_EQ(EncodeStep(*back), line);
      EXPECT_EQ(back->tombstone, s.tombstone) << line;
      EXPECT_EQ(back->reserve, s.reserve) << line;
      EXPECT_EQ(back->permit, s.permit) << line;
      EXPECT_EQ(back->prebind_ok, s.prebind_ok) << line;
      EXPECT_EQ(back->bind_ok, s.bind_ok) << line;
      EXPECT_EQ(back->cycle, s.cycle) << line;
      EXPECT_EQ(back->precheck, s.precheck) << line;
      EXPECT_EQ(back->pod_key, s.pod_key) << line;
      EXPECT_EQ(back->nominated_node, s.nominated_node) << line;
      EXPECT_EQ(back->wait_for_first_consumer, s.wait_for_first_consumer)
          << line;
      EXPECT_EQ(back->pod != nullptr, s.pod != nullptr) << line;
      EXPECT_EQ(back->old_node != nullptr, s.old_node != nullptr) << line;
      EXPECT_EQ(back->new_node != nullptr, s.new_node != nullptr) << line;

      // Another op's member set on this step is not written.
      Step extra = s;
      if (!SpecOf(op).Has(Arg::kTombstone)) extra.tombstone = true;
      if (!SpecOf(op).Has(Arg::kPodKey)) extra.pod_key = "d/zzz";
      EXPECT_EQ(EncodeStep(extra), line);
    }
  }
}

TEST(OpTableTest, RequiredArgumentsAreRequired) {
  TraceHeader h;
  h.layer = Layer::kScheduler;
  TraceDecoder decoder("t.jsonl");
  ASSERT_TRUE(decoder.DecodeHeader(EncodeHeader(h), 1).ok());
  absl::StatusOr<Step> s =
      decoder.DecodeStep(R"({"t":1,"op":"bind","prebind":"ok"})", 2);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "t.jsonl:2: field \"pod\": missing");
  s = decoder.DecodeStep(R"({"t":1,"op":"cluster_event","resource":"CSINode"})",
                         3);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "t.jsonl:3: field \"action\": missing");
  s = decoder.DecodeStep(R"({"t":1,"op":"schedule_one","permit":"later"})", 4);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(),
            "t.jsonl:4: field \"permit\": unknown value \"later\" (expected "
            "allow, wait, reject)");
  // Optional ones take their defaults.
  s = decoder.DecodeStep(R"({"t":1,"op":"schedule_one"})", 5);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->permit, PermitOutcome::kAllow);
}

TEST(OpTableTest, CurrentObjectOfAStep) {
  auto a = std::make_shared<Pod>();
  a->name = "a";
  auto b = std::make_shared<Pod>();
  b->name = "b";
  Step s;
  s.op = Op::kQUpdate;
  s.old_pod = a;
  s.new_pod = b;
  EXPECT_EQ(CurrentPod(s), b);
  int n = 0;
  ForEachCarriedPod(s,
                    [&](const PodPtr& p) { EXPECT_EQ(p, n++ == 0 ? a : b); });
  EXPECT_EQ(n, 2);
  s.old_pod = nullptr;
  n = 0;
  ForEachCarriedPod(s, [&](const PodPtr&) { ++n; });
  EXPECT_EQ(n, 1);
  s.op = Op::kQNominate;  // carries `pod`, not old/new
  s.pod = a;
  EXPECT_EQ(CurrentPod(s), a);
  s.op = Op::kQPop;
  EXPECT_EQ(CurrentPod(s), nullptr);
  EXPECT_EQ(CurrentNode(s), nullptr);
}

}  // namespace
}  // namespace schedtrace
