#include "fuzz/decoder.h"

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "harness/codec.h"
#include "model/system.h"

namespace schedtrace::fuzz {
namespace {

std::string RandomBytes(std::mt19937& rng, int max_len) {
  std::string s(std::uniform_int_distribution<int>(0, max_len)(rng), '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

// The same input with the perturbation bit of its config byte cleared: the
// tests of unperturbed sequences hold the apiserver's plainest rules, which
// some perturbations (a new uid in an update, a stale delete) step outside
// of; decoder_perturb_test.cc checks those.
std::string Unperturbed(std::string bytes) {
  if (!bytes.empty()) bytes[0] = static_cast<char>(bytes[0] & ~32);
  return bytes;
}

// Valid mode decodes with the model's feedback; hostile mode needs none
// (and the model need not survive hostile input to decode it).
Trace MustDecode(Layer layer, Mode mode, const std::string& bytes) {
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> t = DecodeTrace(
      layer, mode, bytes, mode == Mode::kValid ? model.get() : nullptr,
      /*record=*/false);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : Trace{};
}

// What an apiserver guarantees about the pods a valid sequence carries.
struct Validity {
  std::map<std::string, PodPtr> live;  // key -> latest, while it exists
  std::map<std::string, int64_t> rv;   // key -> highest resourceVersion
  std::string error;

  void Carry(const Pod& p) {
    const int64_t v = std::stoll(p.resource_version);
    if (rv.contains(p.Key()) && v < rv[p.Key()]) {
      error = "resourceVersion decreased for " + p.Key();
    }
    rv[p.Key()] = v;
  }
  void Add(const PodPtr& p) {
    if (live.contains(p->Key())) error = "add of a live pod " + p->Key();
    Carry(*p);
    live[p->Key()] = p;
  }
  void Update(const PodPtr& old_pod, const PodPtr& new_pod) {
    auto it = live.find(new_pod->Key());
    if (it == live.end()) {
      error = "update of an unknown pod " + new_pod->Key();
      return;
    }
    const Pod& o = *it->second;
    if (old_pod && !(*old_pod == o)) error = "update's old is not the latest";
    if (new_pod->uid != o.uid) error = "uid changed in an update";
    if (!o.node_name.empty() && new_pod->node_name != o.node_name) {
      error = "nodeName changed once set";
    }
    if (o.scheduling_gates.empty() && !new_pod->scheduling_gates.empty()) {
      error = "gates added";
    }
    if (o.deletion_timestamp && !new_pod->deletion_timestamp) {
      error = "deletionTimestamp unset";
    }
    if (new_pod->Priority() != o.Priority()) error = "priority changed";
    Carry(*new_pod);
    it->second = new_pod;
  }
  void Delete(const PodPtr& p) {
    auto it = live.find(p->Key());
    if (it == live.end()) {
      error = "delete of an unknown pod " + p->Key();
      return;
    }
    if (!(*it->second == *p)) error = "delete does not carry the latest";
    live.erase(it);
  }
};

TEST(DecoderTest, ValidSchedulerSequencesAreWhatAnApiserverSends) {
  std::mt19937 rng(1);
  int steps = 0, binds = 0, recreated = 0;
  for (int i = 0; i < 300; ++i) {
    Trace t = MustDecode(Layer::kScheduler, Mode::kValid,
                         Unperturbed(RandomBytes(rng, 400)));
    Validity v;
    std::map<std::string, std::string> uids;
    int64_t last_t = 0;
    for (const Step& s : t.steps) {
      ASSERT_TRUE(OpInLayer(s.op, Layer::kScheduler));
      ASSERT_GT(s.t, last_t);
      last_t = s.t;
      if (s.op == Op::kPodAdd) {
        v.Add(s.pod);
        recreated +=
            uids.contains(s.pod->Key()) && uids[s.pod->Key()] != s.pod->uid;
        uids[s.pod->Key()] = s.pod->uid;
      }
      if (s.op == Op::kPodUpdate) {
        binds += s.old_pod->node_name.empty() && !s.new_pod->node_name.empty();
        v.Update(s.old_pod, s.new_pod);
      }
      if (s.op == Op::kPodDelete) v.Delete(s.pod);
      ASSERT_EQ(v.error, "") << "input " << i << " step t=" << s.t;
      ++steps;
    }
  }
  EXPECT_GT(steps, 10000);
  EXPECT_GT(binds, 50);      // the informer sees pods bound
  EXPECT_GT(recreated, 50);  // pods deleted and created again: a new uid
}

TEST(DecoderTest, ValidQueueSequencesNeverGiveBackAPodThatIsNotInFlight) {
  std::mt19937 rng(2);
  int given_back = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string bytes = Unperturbed(RandomBytes(rng, 400));
    std::unique_ptr<System> model = model::NewSystem();
    Decoder dec(Layer::kQueue, Mode::kValid, bytes);
    ASSERT_TRUE(model->Configure(dec.header()).ok());
    Validity v;
    while (std::optional<Step> s = dec.Next()) {
      absl::StatusOr<StepOut> out = model->Apply(*s);
      // The model refuses q_add_unschedulable of a pod never popped.
      ASSERT_TRUE(out.ok()) << out.status();
      ASSERT_FALSE(out->fatal) << "input " << i << ": " << EncodeStep(*s);
      given_back += s->op == Op::kQAddUnschedulable;
      if (s->op == Op::kQAdd) v.Add(s->pod);
      if (s->op == Op::kQUpdate) v.Update(s->old_pod, s->new_pod);
      if (s->op == Op::kQDelete) v.Delete(s->pod);
      ASSERT_EQ(v.error, "");
      dec.Observe(*s, *out);
    }
  }
  EXPECT_GT(given_back, 300);
}

TEST(DecoderTest, ValidCacheSequencesNeverMakeUpstreamExit) {
  std::mt19937 rng(3);
  int steps = 0, errors = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string bytes = Unperturbed(RandomBytes(rng, 400));
    std::unique_ptr<System> model = model::NewSystem();
    Decoder dec(Layer::kCache, Mode::kValid, bytes);
    ASSERT_TRUE(model->Configure(dec.header()).ok());
    while (std::optional<Step> s = dec.Next()) {
      absl::StatusOr<StepOut> out = model->Apply(*s);
      ASSERT_TRUE(out.ok()) << out.status();
      ASSERT_FALSE(out->fatal) << "input " << i << ": " << EncodeStep(*s);
      errors += out->error;
      dec.Observe(*s, *out);
      ++steps;
    }
  }
  EXPECT_GT(steps, 10000);
  // Valid calls mostly; a node removed under its pods still gives errors.
  EXPECT_LT(errors, steps / 10);
}

TEST(DecoderTest, HostileSequencesBreakTheApiserversRules) {
  std::mt19937 rng(4);
  int duplicate_adds = 0, unknown_deletes = 0, rv_decreases = 0,
      stale_node_updates = 0, node_name_changes = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string bytes = RandomBytes(rng, 400);
    for (Layer layer : {Layer::kScheduler, Layer::kQueue}) {
      Trace t = MustDecode(layer, Mode::kHostile, bytes);
      std::map<std::string, int64_t> rv;
      std::map<std::string, bool> live;
      for (const Step& s : t.steps) {
        if (s.op == Op::kPodAdd || s.op == Op::kQAdd) {
          duplicate_adds += live[s.pod->Key()];
          live[s.pod->Key()] = true;
        }
        if (s.op == Op::kPodDelete || s.op == Op::kQDelete) {
          unknown_deletes += !live[s.pod->Key()];
          live[s.pod->Key()] = false;
        }
        for (const PodPtr& p : {s.pod, s.new_pod}) {
          if (!p) continue;
          const int64_t v = std::stoll(p->resource_version);
          rv_decreases += rv.contains(p->Key()) && v < rv[p->Key()];
          rv[p->Key()] = v;
        }
        // An update never names two objects: every system refuses that at
        // the boundary (CheckUpdateNamesOneObject), so it tests nothing.
        EXPECT_TRUE(CheckUpdateNamesOneObject(s).ok()) << OpName(s.op);
        if (s.op == Op::kNodeUpdate) {
          stale_node_updates +=
              !(s.old_node->labels == s.new_node->labels &&
                s.old_node->allocatable == s.new_node->allocatable);
        }
        if (s.op == Op::kPodUpdate && !s.old_pod->node_name.empty() &&
            !s.new_pod->node_name.empty()) {
          node_name_changes += s.old_pod->node_name != s.new_pod->node_name;
        }
      }
    }
  }
  EXPECT_GT(duplicate_adds, 100);
  EXPECT_GT(unknown_deletes, 100);
  EXPECT_GT(rv_decreases, 100);
  EXPECT_GT(stale_node_updates, 20);
  EXPECT_GT(node_name_changes, 20);
}

TEST(DecoderTest, DecodedTracesAreSpecTracesAndDecodingIsDeterministic) {
  std::mt19937 rng(5);
  for (int i = 0; i < 40; ++i) {
    const std::string bytes = RandomBytes(rng, 300);
    for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
      for (Mode mode : {Mode::kValid, Mode::kHostile}) {
        const std::string text = EncodeTrace(MustDecode(layer, mode, bytes));
        EXPECT_EQ(text, EncodeTrace(MustDecode(layer, mode, bytes)));
        absl::StatusOr<Trace> parsed = ParseTrace(text, "decoded.jsonl");
        ASSERT_TRUE(parsed.ok()) << parsed.status();
        EXPECT_EQ(EncodeTrace(*parsed), text);
      }
    }
  }
}

TEST(DecoderTest, ShortAndEmptyInputs) {
  Decoder empty(Layer::kScheduler, Mode::kValid, "");
  EXPECT_EQ(empty.header().layer, Layer::kScheduler);
  EXPECT_FALSE(empty.Next().has_value());
  // A record cut short reads its missing bytes as zeros.
  const std::string cut("\x00\x00", 2);  // config, then an op byte alone
  Decoder dec(Layer::kScheduler, Mode::kValid, cut);
  std::optional<Step> s = dec.Next();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->op, Op::kPodAdd);
  EXPECT_EQ(s->pod->Key(), "default/p0");
  EXPECT_EQ(s->t, 1);
  EXPECT_FALSE(dec.Next().has_value());
}

TEST(DecoderTest, TheConfigByteChoosesBackoffTtlGatesAndProfiles) {
  TraceHeader h = HeaderFor(Layer::kScheduler, 0);
  EXPECT_EQ(h.config.pod_initial_backoff_ms, 1000);
  EXPECT_EQ(h.config.pod_max_backoff_ms, 10000);
  EXPECT_EQ(h.config.assumed_pod_ttl_ms, 0);
  EXPECT_TRUE(h.config.Feature("PodSchedulingReadiness"));
  h = HeaderFor(Layer::kScheduler, 2 | 4 | 8 | 16);
  EXPECT_EQ(h.config.pod_initial_backoff_ms, 2000);
  EXPECT_EQ(h.config.assumed_pod_ttl_ms, 30000);
  EXPECT_FALSE(h.config.Feature("PodSchedulingReadiness"));
  EXPECT_EQ(h.config.profiles.size(), 2u);
}

TEST(DecoderTest, VariantsPackAndUnpack) {
  for (int b0 = 0; b0 < 256; b0 += 7) {
    for (int b1 = 0; b1 < 256; b1 += 5) {
      std::array<uint8_t, 2> packed = PodVariant::Unpack(b0, b1).Pack();
      EXPECT_EQ(packed[0], b0);
      EXPECT_EQ(packed[1], b1);
    }
  }
  for (int b = 0; b < 128; ++b) EXPECT_EQ(NodeVariant::Unpack(b).Pack(), b);
}

// The record widths and flag bits the committed corpus was written with:
// derived from the op table, they must not move when it changes.
TEST(DecoderTest, RecordLayoutOfTheCommittedCorpus) {
  const std::map<Op, int> kBytes = {
      {Op::kQAdd, 3},
      {Op::kQUpdate, 4},
      {Op::kQDelete, 3},
      {Op::kQPop, 0},
      {Op::kQAddUnschedulable, 3},
      {Op::kQActivate, 1},
      {Op::kQMoveAll, 2},
      {Op::kQAssignedPodAdded, 3},
      {Op::kQAssignedPodUpdated, 3},
      {Op::kQNominate, 2},
      {Op::kFlushBackoff, 0},
      {Op::kFlushUnschedulable, 0},
      {Op::kCAssume, 3},
      {Op::kCFinishBinding, 3},
      {Op::kCForget, 3},
      {Op::kCAddPod, 3},
      {Op::kCUpdatePod, 4},
      {Op::kCRemovePod, 3},
      {Op::kCAddNode, 2},
      {Op::kCUpdateNode, 3},
      {Op::kCRemoveNode, 2},
      {Op::kCCleanup, 0},
      {Op::kPodAdd, 3},
      {Op::kPodUpdate, 4},
      {Op::kPodDelete, 3},
      {Op::kNodeAdd, 2},
      {Op::kNodeUpdate, 3},
      {Op::kNodeDelete, 2},
      {Op::kClusterEvent, 1},
      {Op::kScheduleOne, 0},
      {Op::kPermitAllow, 1},
      {Op::kPermitReject, 1},
      {Op::kBind, 1},
  };
  for (const auto& [op, bytes] : kBytes) {
    EXPECT_EQ(ArgBytes(op), bytes) << OpName(op);
  }
  EXPECT_EQ(FlagShift(Op::kPodDelete, Arg::kTombstone), 0);
  EXPECT_EQ(FlagShift(Op::kNodeDelete, Arg::kTombstone), 0);
  EXPECT_EQ(FlagShift(Op::kScheduleOne, Arg::kReserve), 0);
  EXPECT_EQ(FlagShift(Op::kScheduleOne, Arg::kPermit), 1);
  EXPECT_EQ(FlagShift(Op::kBind, Arg::kPreBind), 0);
  EXPECT_EQ(FlagShift(Op::kBind, Arg::kBindResult), 1);
  EXPECT_EQ(FlagShift(Op::kBind, Arg::kPodKey), -1);
  // Every op a layer's nibble table names is of that layer, and every op
  // of the layer has a nibble.
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (Op op : OpTable(layer)) EXPECT_TRUE(OpInLayer(op, layer));
    for (Op op : OpsOfLayer(layer)) {
      EXPECT_NE(std::find(OpTable(layer).begin(), OpTable(layer).end(), op),
                OpTable(layer).end())
          << OpName(op);
    }
  }
}

}  // namespace
}  // namespace schedtrace::fuzz
