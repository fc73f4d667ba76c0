// The informer perturbations of fuzz/decoder.h (issue 7.3): each one, in
// each layer it applies to, occurs when switched on, leaves the decoding
// untouched when switched off, keeps valid sequences valid, and runs through
// the lockstep runner without a divergence.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "fuzz/decoder.h"
#include "fuzz/encoder.h"
#include "fuzz/lockstep.h"
#include "gtest/gtest.h"
#include "harness/codec.h"
#include "model/system.h"

namespace schedtrace::fuzz {
namespace {

constexpr Layer kLayers[] = {Layer::kQueue, Layer::kCache, Layer::kScheduler};

std::string RandomBody(std::mt19937& rng, int len) {
  std::string s(len, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

// The config byte (no perturbation header), then `body`.
std::string Plain(uint8_t config, const std::string& body) {
  return std::string(1, static_cast<char>(config & ~kPerturbHeaderBit)) + body;
}

PerturbLevels Only(PerturbKind kind, uint8_t level) {
  PerturbLevels l = {};
  l[static_cast<int>(kind)] = level;
  return l;
}

bool Has(const std::optional<std::vector<std::string>>& list,
         const std::string& key) {
  return list && std::count(list->begin(), list->end(), key) > 0;
}

std::string KeyOf(const Step& s) {
  if (s.pod) return s.pod->Key();
  if (s.new_pod) return s.new_pod->Key();
  return s.pod_key;
}

int64_t Rv(const std::string& rv) { return rv.empty() ? 0 : std::stoll(rv); }

bool IsPodAdd(Op op) {
  return op == Op::kQAdd || op == Op::kCAddPod || op == Op::kPodAdd;
}
bool IsPodUpdate(Op op) {
  return op == Op::kQUpdate || op == Op::kCUpdatePod || op == Op::kPodUpdate;
}
bool IsPodDelete(Op op) {
  return op == Op::kQDelete || op == Op::kCRemovePod || op == Op::kPodDelete;
}
bool IsNodeAdd(Op op) { return op == Op::kNodeAdd || op == Op::kCAddNode; }
bool IsNodeUpdate(Op op) {
  return op == Op::kNodeUpdate || op == Op::kCUpdateNode;
}
bool IsNodeDelete(Op op) {
  return op == Op::kNodeDelete || op == Op::kCRemoveNode;
}

// A decoded step and what the reference model showed just before it.
struct Seen {
  Step step;
  std::optional<PerturbKind> kind;  // Decoder::last_perturbation()
  bool in_flight = false;           // queue: popped, not given back
  bool assumed = false;             // cache
  bool waiting = false;             // scheduler: waiting on Permit
  bool parked = false;              // scheduler: parked before PreBind
  bool node_held_pods = false;      // node steps: the cache had pods on it
  PodPtr latest;  // the latest object of the step's pod carried before it
};

struct Decoded {
  std::vector<Seen> seen;
  std::string text;  // the trace as JSONL, for comparing decodings
  int errors = 0;    // steps upstream answered with an error
};

// Decodes `bytes` in valid mode with the model's feedback (as the fuzz
// targets do), keeping what the model showed before each step.
Decoded Decode(Layer layer, const std::string& bytes,
               const DecoderOptions& options = {}) {
  Decoded d;
  std::unique_ptr<System> model = model::NewSystem();
  Decoder dec(layer, Mode::kValid, bytes, options);
  Trace trace;
  trace.header = dec.header();
  EXPECT_TRUE(model->Configure(dec.header()).ok());
  std::set<std::string> in_flight;
  std::map<std::string, PodPtr> latest;
  State before = model->Snapshot();
  while (std::optional<Step> s = dec.Next()) {
    Seen x;
    x.step = *s;
    x.kind = dec.last_perturbation();
    const std::string key = KeyOf(*s);
    x.in_flight = in_flight.contains(key);
    x.assumed = before.cache && Has(before.cache->assumed, key);
    x.waiting = Has(before.waiting, key);
    x.parked = Has(before.parked, key);
    const NodePtr& node = s->node ? s->node : s->new_node;
    if (node && before.cache) {
      for (const NodeInfoState& n : before.cache->nodes) {
        x.node_held_pods |= n.name == node->name && !n.pods.empty();
      }
    }
    if (auto it = latest.find(key); it != latest.end()) x.latest = it->second;
    for (const PodPtr& p : {s->pod, s->old_pod, s->new_pod}) {
      if (p) latest[p->Key()] = p;
    }
    absl::StatusOr<StepOut> out = model->Apply(*s);
    EXPECT_TRUE(out.ok()) << out.status() << "\n" << EncodeStep(*s);
    trace.steps.push_back(*s);
    d.seen.push_back(std::move(x));
    if (!out.ok()) break;
    // Valid sequences never make upstream exit.
    EXPECT_FALSE(out->fatal) << EncodeStep(*s);
    if (out->fatal) break;
    d.errors += out->error;
    if (s->op == Op::kQPop && out->popped) in_flight.insert(*out->popped);
    if (s->op == Op::kQAddUnschedulable) in_flight.erase(s->pod_key);
    if (s->op == Op::kQDelete) in_flight.erase(s->pod->Key());
    State after = model->Snapshot();
    dec.Observe(*s, *out);
    before = std::move(after);
  }
  d.text = EncodeTrace(trace);
  return d;
}

// What an apiserver and informer guarantee about the objects a sequence
// carries, perturbations included: uids stable per incarnation and never
// reused, resourceVersions increasing per name (a resync repeats the
// object), spec.nodeName set at most once per incarnation, gates only
// removed, no add of a live object, no update or delete of an absent one; a
// delete carries the latest object or an older version of it (a tombstone's
// stale object); an update may carry a new uid (a delete and re-create the
// informer saw as one update).
struct Rules {
  std::map<std::string, PodPtr> pods;  // key -> latest, while it exists
  std::map<std::string, NodePtr> nodes;
  std::map<std::string, int64_t> rv;  // "pod:" key / "node:" name -> highest
  std::set<std::string> uids;         // every uid seen
  std::string error;

  void Fail(const std::string& e) {
    if (error.empty()) error = e;
  }
  void Version(const std::string& id, const std::string& version) {
    const int64_t v = Rv(version);
    if (rv.contains(id) && v <= rv[id]) Fail("resourceVersion not new: " + id);
    rv[id] = std::max(rv[id], v);
  }
  void NewUid(const std::string& uid) {
    if (!uids.insert(uid).second) Fail("uid reused: " + uid);
  }

  void Step(const schedtrace::Step& s) {
    if (!CheckUpdateNamesOneObject(s).ok()) Fail("update names two objects");
    if (IsPodAdd(s.op)) {
      if (pods.contains(s.pod->Key())) Fail("add of a live pod");
      NewUid(s.pod->uid);
      Version("pod:" + s.pod->Key(), s.pod->resource_version);
      pods[s.pod->Key()] = s.pod;
    } else if (IsPodUpdate(s.op)) {
      auto it = pods.find(s.new_pod->Key());
      if (it == pods.end()) return Fail("update of an absent pod");
      const Pod& o = *it->second;
      if (!s.old_pod || !(*s.old_pod == o)) Fail("update's old not the latest");
      if (*s.new_pod == o) return;  // a resync
      Version("pod:" + o.Key(), s.new_pod->resource_version);
      if (s.new_pod->uid != o.uid) {
        NewUid(s.new_pod->uid);  // re-created: a new incarnation
      } else {
        if (!o.node_name.empty() && s.new_pod->node_name != o.node_name) {
          Fail("nodeName changed once set");
        }
        if (o.scheduling_gates.empty() &&
            !s.new_pod->scheduling_gates.empty()) {
          Fail("gates added");
        }
        if (s.new_pod->Priority() != o.Priority()) Fail("priority changed");
      }
      it->second = s.new_pod;
    } else if (IsPodDelete(s.op)) {
      auto it = pods.find(s.pod->Key());
      if (it == pods.end()) return Fail("delete of an absent pod");
      const Pod& o = *it->second;
      if (!(*s.pod == o) &&
          !(s.pod->uid == o.uid &&
            Rv(s.pod->resource_version) < Rv(o.resource_version))) {
        Fail("delete carries neither the latest nor an older version");
      }
      pods.erase(it);
    } else if (IsNodeAdd(s.op)) {
      if (nodes.contains(s.node->name)) Fail("add of a live node");
      Version("node:" + s.node->name, s.node->resource_version);
      nodes[s.node->name] = s.node;
    } else if (IsNodeUpdate(s.op)) {
      auto it = nodes.find(s.new_node->name);
      if (it == nodes.end()) return Fail("update of an absent node");
      if (!(*s.old_node == *it->second)) Fail("node update's old not latest");
      if (s.new_node->uid != it->second->uid) Fail("node uid changed");
      Version("node:" + s.new_node->name, s.new_node->resource_version);
      it->second = s.new_node;
    } else if (IsNodeDelete(s.op)) {
      auto it = nodes.find(s.node->name);
      if (it == nodes.end()) return Fail("delete of an absent node");
      if (!(*s.node == *it->second)) Fail("node delete not the latest");
      nodes.erase(it);
    }
  }
};

// Whether `a` and `b` differ in their resourceVersion only.
bool OnlyVersionDiffers(const Node& a, const Node& b) {
  Node c = b;
  c.resource_version = a.resource_version;
  return c == a && a.resource_version != b.resource_version;
}

// Evidence, in a decoded sequence, of each perturbation: counts of the steps
// (or step groups) that show it, looking at the objects only.
struct Evidence {
  int resync = 0;           // an update carrying the same object
  int race = 0;             // an update/delete of a pod in its cycle
  int race_waiting = 0;     // ... waiting on Permit (scheduler)
  int race_parked = 0;      // ... parked before PreBind (scheduler)
  int race_delete = 0;      // ... a delete
  int tombstone = 0;        // a delete carrying an older version
  int recreate = 0;         // a delete then an add of the name, new uid
  int recreate_update = 0;  // an update to a new uid
  int node_recreate = 0;    // a node delete then add, new uid, pods on it
  int node_burst = 0;       // >= 2 consecutive no-op updates of a node
};

Evidence Look(const std::vector<Seen>& seen) {
  Evidence e;
  for (size_t i = 0; i < seen.size(); ++i) {
    const Step& s = seen[i].step;
    const Seen& x = seen[i];
    if (IsPodUpdate(s.op) && s.old_pod && *s.old_pod == *s.new_pod) {
      ++e.resync;
    }
    if ((IsPodUpdate(s.op) || IsPodDelete(s.op)) &&
        (x.in_flight || x.assumed || x.waiting || x.parked) &&
        x.kind == PerturbKind::kRace) {
      ++e.race;
      e.race_waiting += x.waiting;
      e.race_parked += x.parked;
      e.race_delete += IsPodDelete(s.op);
    }
    if (IsPodDelete(s.op) && x.latest && s.pod->uid == x.latest->uid &&
        Rv(s.pod->resource_version) < Rv(x.latest->resource_version) &&
        (s.op != Op::kPodDelete || s.tombstone)) {
      ++e.tombstone;
    }
    if (i + 1 < seen.size() && IsPodDelete(s.op) &&
        IsPodAdd(seen[i + 1].step.op) &&
        seen[i + 1].step.pod->Key() == s.pod->Key() &&
        seen[i + 1].step.pod->uid != s.pod->uid &&
        seen[i + 1].step.t == s.t + 1) {
      ++e.recreate;
    }
    if (IsPodUpdate(s.op) && s.old_pod && s.old_pod->uid != s.new_pod->uid) {
      ++e.recreate_update;
    }
    if (i + 1 < seen.size() && IsNodeDelete(s.op) && x.node_held_pods &&
        IsNodeAdd(seen[i + 1].step.op) &&
        seen[i + 1].step.node->name == s.node->name &&
        seen[i + 1].step.node->uid != s.node->uid) {
      ++e.node_recreate;
    }
    if (i + 1 < seen.size() && IsNodeUpdate(s.op) &&
        IsNodeUpdate(seen[i + 1].step.op) &&
        (i == 0 || !IsNodeUpdate(seen[i - 1].step.op) ||
         !OnlyVersionDiffers(*seen[i - 1].step.old_node,
                             *seen[i - 1].step.new_node)) &&
        OnlyVersionDiffers(*s.old_node, *s.new_node) &&
        OnlyVersionDiffers(*seen[i + 1].step.old_node,
                           *seen[i + 1].step.new_node) &&
        s.new_node->name == seen[i + 1].step.new_node->name) {
      ++e.node_burst;
    }
  }
  return e;
}

bool Applies(PerturbKind kind, Layer layer) {
  return layer != Layer::kQueue || (kind != PerturbKind::kNodeRecreate &&
                                    kind != PerturbKind::kNodeBurst);
}

// Runs `kind` alone at `level` over `inputs` random inputs of `layer`:
// returns the evidence with it on, checks every step the decoder labels with
// it, and checks that the same bytes with it off decode exactly as without a
// perturbation header (no label, the same trace).
Evidence OnAndOff(Layer layer, PerturbKind kind, uint8_t level, int inputs,
                  uint32_t seed) {
  std::mt19937 rng(seed);
  Evidence total;
  int labeled = 0;
  for (int i = 0; i < inputs; ++i) {
    const uint8_t config = rng() & 0x1f;
    const std::string body = RandomBody(rng, 300);
    const std::string on =
        WithPerturbations(Plain(config, body), Only(kind, level));
    const Decoded d = Decode(layer, on);
    Rules rules;
    for (const Seen& x : d.seen) {
      EXPECT_TRUE(!x.kind || *x.kind == kind);
      labeled += x.kind.has_value();
      if (layer != Layer::kCache) rules.Step(x.step);  // the cache assumes
    }
    EXPECT_EQ(rules.error, "") << LayerName(layer) << " input " << i;
    const Evidence e = Look(d.seen);
    for (int Evidence::*f :
         {&Evidence::resync, &Evidence::race, &Evidence::race_waiting,
          &Evidence::race_parked, &Evidence::race_delete, &Evidence::tombstone,
          &Evidence::recreate, &Evidence::recreate_update,
          &Evidence::node_recreate, &Evidence::node_burst}) {
      total.*f += e.*f;
    }
    // Off: the same records, the same trace as with no header at all.
    const Decoded off =
        Decode(layer, WithPerturbations(Plain(config, body), {}));
    for (const Seen& x : off.seen) EXPECT_FALSE(x.kind.has_value());
    EXPECT_EQ(off.text, Decode(layer, Plain(config, body)).text);
    // Evidence that cannot arise unperturbed does not.
    const Evidence o = Look(off.seen);
    EXPECT_EQ(o.recreate_update, 0);
    EXPECT_EQ(o.tombstone, 0);
    EXPECT_EQ(o.node_recreate, 0);
    EXPECT_EQ(o.race, 0);
  }
  EXPECT_GT(labeled, 0) << PerturbKindName(kind) << " in " << LayerName(layer);
  return total;
}

TEST(DecoderPerturbTest, ResyncRepeatsTheObjectAndItsVersion) {
  for (Layer layer : kLayers) {
    const Evidence e = OnAndOff(layer, PerturbKind::kResync, 4, 40, 11);
    EXPECT_GT(e.resync, 20) << LayerName(layer);
  }
}

TEST(DecoderPerturbTest, RaceHitsAPodInItsSchedulingCycle) {
  const Evidence q = OnAndOff(Layer::kQueue, PerturbKind::kRace, 6, 60, 12);
  EXPECT_GT(q.race, 20);  // between q_pop and q_add_unschedulable
  EXPECT_GT(q.race_delete, 3);
  const Evidence c = OnAndOff(Layer::kCache, PerturbKind::kRace, 6, 60, 13);
  EXPECT_GT(c.race, 20);  // an informer update of an assumed pod
  const Evidence s =
      OnAndOff(Layer::kScheduler, PerturbKind::kRace, 8, 150, 14);
  EXPECT_GT(s.race_waiting, 3);  // while waiting on Permit
  EXPECT_GT(s.race_parked, 3);   // while parked before PreBind
  EXPECT_GT(s.race_delete, 1);
}

TEST(DecoderPerturbTest, TombstoneCarriesAnOlderVersion) {
  for (Layer layer : kLayers) {
    const Evidence e = OnAndOff(layer, PerturbKind::kTombstone, 4, 60, 15);
    EXPECT_GT(e.tombstone, 5) << LayerName(layer);
  }
}

TEST(DecoderPerturbTest, RecreateDeletesThenAddsANewUid) {
  for (Layer layer : kLayers) {
    const Evidence e = OnAndOff(layer, PerturbKind::kRecreate, 4, 40, 16);
    EXPECT_GT(e.recreate, 10) << LayerName(layer);
  }
}

TEST(DecoderPerturbTest, RecreateUpdateCarriesANewUid) {
  for (Layer layer : kLayers) {
    const Evidence e = OnAndOff(layer, PerturbKind::kRecreateUpdate, 4, 40, 17);
    EXPECT_GT(e.recreate_update, 10) << LayerName(layer);
  }
}

TEST(DecoderPerturbTest, NodeRecreateHappensUnderPods) {
  for (Layer layer : {Layer::kCache, Layer::kScheduler}) {
    const Evidence e = OnAndOff(layer, PerturbKind::kNodeRecreate, 4, 60, 18);
    EXPECT_GT(e.node_recreate, 5) << LayerName(layer);
  }
}

TEST(DecoderPerturbTest, NodeBurstChangesOnlyResourceVersions) {
  for (Layer layer : {Layer::kCache, Layer::kScheduler}) {
    const Evidence e = OnAndOff(layer, PerturbKind::kNodeBurst, 4, 40, 19);
    EXPECT_GT(e.node_burst, 10) << LayerName(layer);
  }
}

TEST(DecoderPerturbTest, NodePerturbationsDoNotApplyToTheQueue) {
  std::mt19937 rng(20);
  for (int i = 0; i < 40; ++i) {
    PerturbLevels l = {};
    l[static_cast<int>(PerturbKind::kNodeRecreate)] = 15;
    l[static_cast<int>(PerturbKind::kNodeBurst)] = 15;
    const std::string body = RandomBody(rng, 200);
    const Decoded d =
        Decode(Layer::kQueue, WithPerturbations(Plain(0, body), l));
    for (const Seen& x : d.seen) EXPECT_FALSE(x.kind.has_value());
    EXPECT_EQ(d.text, Decode(Layer::kQueue, Plain(0, body)).text);
  }
}

// All kinds on at once, in every layer: the sequences stay valid and every
// kind that applies to the layer occurs.
TEST(DecoderPerturbTest, PerturbedSequencesStayValid) {
  std::mt19937 rng(21);
  for (Layer layer : kLayers) {
    std::map<PerturbKind, int> kinds;
    int steps = 0;
    for (int i = 0; i < 150; ++i) {
      PerturbLevels levels;
      for (uint8_t& l : levels) l = rng() % 4;
      const std::string bytes =
          WithPerturbations(Plain(rng() & 0x1f, RandomBody(rng, 400)), levels);
      const Decoded d = Decode(layer, bytes);
      Rules rules;
      int64_t last_t = 0;
      for (const Seen& x : d.seen) {
        ASSERT_TRUE(OpInLayer(x.step.op, layer));
        ASSERT_GT(x.step.t, last_t);
        last_t = x.step.t;
        if (x.kind) ++kinds[*x.kind];
        if (layer != Layer::kCache) rules.Step(x.step);
        ASSERT_EQ(rules.error, "")
            << LayerName(layer) << " input " << i << " t=" << x.step.t;
      }
      steps += d.seen.size();
      EXPECT_LE(d.seen.size(), static_cast<size_t>(kMaxSteps));
    }
    EXPECT_GT(steps, 10000);
    for (int k = 0; k < kPerturbKinds; ++k) {
      const auto kind = static_cast<PerturbKind>(k);
      if (Applies(kind, layer)) {
        EXPECT_GT(kinds[kind], 5)
            << PerturbKindName(kind) << " in " << LayerName(layer);
      } else {
        EXPECT_EQ(kinds[kind], 0);
      }
    }
  }
}

// The byte format, by hand: config bit 5, four level nibbles, and each
// record's draw in its dt byte's high nibble.
TEST(DecoderPerturbTest, TheHeaderAndTheDrawNibbleAreTheFormat) {
  const std::string input(
      "\x20"                  // config: perturbation header follows
      "\x0f\x00\x00\x00"      // resync at level 15, the rest off
      "\x03\x05\x00\x00"      // node_add n0 (draw 0: never perturbed)
      "\x00\x05\x00\x04\x00"  // pod_add default/p0
      "\x09\xf5"              // draw 15 >= 16 - 15: a resync, not schedule_one
      "\x09\x05",             // draw 0: never perturbed, schedule_one
      18);
  Decoder dec(Layer::kScheduler, Mode::kValid, input);
  EXPECT_EQ(dec.perturbations().resync, 15 / 16.0);
  EXPECT_EQ(dec.perturbations().race, 0);
  EXPECT_NE(dec.header().description.find("perturb resync:0.9375"),
            std::string::npos)
      << dec.header().description;
  std::vector<Step> steps;
  std::vector<std::optional<PerturbKind>> kinds;
  while (std::optional<Step> s = dec.Next()) {
    steps.push_back(*s);
    kinds.push_back(dec.last_perturbation());
  }
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].op, Op::kNodeAdd);
  EXPECT_EQ(steps[1].op, Op::kPodAdd);
  EXPECT_EQ(steps[2].op, Op::kPodUpdate);
  EXPECT_EQ(steps[2].old_pod, steps[1].pod);
  EXPECT_EQ(steps[2].new_pod, steps[1].pod);
  EXPECT_EQ(kinds[2], PerturbKind::kResync);
  EXPECT_EQ(steps[3].op, Op::kScheduleOne);
  EXPECT_FALSE(kinds[3].has_value());
  // The header's bytes are read in hostile mode too (records keep their
  // places), but hostile input is never perturbed.
  Decoder hostile(Layer::kScheduler, Mode::kHostile, input);
  EXPECT_EQ(hostile.perturbations(), Perturbations{});
  std::optional<Step> first = hostile.Next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->op, Op::kNodeAdd);
}

// A node burst's later updates come from the following Next() calls, read
// no bytes, are 1 ms apart, and count toward kMaxSteps.
TEST(DecoderPerturbTest, TwoEventPerturbationsQueueTheirLaterSteps) {
  PerturbLevels l = Only(PerturbKind::kNodeBurst, 15);
  const std::string input = WithPerturbations(
      std::string("\x00"
                  "\x06\x05\x00\x00"       // c_add_node n0
                  "\x00\xf5\x18\x00\x00",  // draw 15, choice 3: 5 updates
                  10),
      l);
  Decoder dec(Layer::kCache, Mode::kValid, input);
  std::optional<Step> add = dec.Next();
  ASSERT_TRUE(add.has_value());
  EXPECT_EQ(add->op, Op::kCAddNode);
  std::vector<Step> burst;
  while (std::optional<Step> s = dec.Next()) {
    EXPECT_EQ(dec.last_perturbation(), PerturbKind::kNodeBurst);
    burst.push_back(*s);
  }
  ASSERT_EQ(burst.size(), 5u);
  NodePtr cur = add->node;
  int64_t t = burst[0].t;
  for (const Step& s : burst) {
    EXPECT_EQ(s.op, Op::kCUpdateNode);
    EXPECT_EQ(s.old_node, cur);
    EXPECT_TRUE(OnlyVersionDiffers(*s.old_node, *s.new_node));
    EXPECT_EQ(s.t, t++);
    cur = s.new_node;
  }
  // At the step cap the queue stops too.
  std::string many = WithPerturbations(std::string(1, '\0'), l);
  many += std::string("\x06\x05\x00\x00", 4);
  for (int i = 0; i < kMaxSteps; ++i) {
    many += std::string("\x00\xf5\x18\x00\x00", 5);
  }
  Decoder capped(Layer::kCache, Mode::kValid, many);
  int n = 0;
  while (capped.Next()) ++n;
  EXPECT_EQ(n, kMaxSteps);
}

// DecoderOptions force probabilities on any input, header or not, and win
// over the header.
TEST(DecoderPerturbTest, OptionsForcePerturbations) {
  std::mt19937 rng(22);
  Perturbations all;
  for (double* p :
       {&all.resync, &all.race, &all.tombstone, &all.recreate,
        &all.recreate_update, &all.node_recreate, &all.node_burst}) {
    *p = 0.05;
  }
  std::map<PerturbKind, int> kinds;
  for (int i = 0; i < 80; ++i) {
    // The encoder's form: no header, draw nibbles 0.
    std::string body = RandomBody(rng, 300);
    const std::string bytes = Plain(0, body);
    Decoder dec(Layer::kScheduler, Mode::kValid, bytes, {.perturb = all});
    EXPECT_EQ(dec.perturbations(), all);
    const Decoded d = Decode(Layer::kScheduler, bytes, {.perturb = all});
    for (const Seen& x : d.seen) {
      if (x.kind) ++kinds[*x.kind];
    }
    // Forced to zero: exactly the header-less decoding, even with a header
    // that asks for everything.
    PerturbLevels full;
    full.fill(15);
    EXPECT_EQ(Decode(Layer::kScheduler, WithPerturbations(bytes, full),
                     {.perturb = Perturbations{}})
                  .text,
              Decode(Layer::kScheduler, bytes).text);
  }
  for (int k = 0; k < kPerturbKinds; ++k) {
    EXPECT_GT(kinds[static_cast<PerturbKind>(k)], 0)
        << PerturbKindName(static_cast<PerturbKind>(k));
  }
}

// Model and impl in lockstep (the fuzz targets' body) over pseudo-random
// inputs with every perturbation on: no divergence, no unknown violation.
TEST(DecoderPerturbTest, LockstepAgreesUnderPerturbations) {
  std::mt19937 rng(23);
  for (Layer layer : kLayers) {
    int steps = 0, perturbed = 0;
    std::map<std::string, int> known;
    for (int i = 0; i < 300; ++i) {
      PerturbLevels levels;
      for (uint8_t& l : levels) l = rng() % 5;
      const std::string bytes =
          WithPerturbations(Plain(rng() & 0x1f, RandomBody(rng, 400)), levels);
      const LockstepResult r = RunLockstep(layer, Mode::kValid, bytes);
      ASSERT_FALSE(r.failed)
          << LayerName(layer) << " input " << i << ": " << r.signature << "\n"
          << r.message;
      // Every layer has an impl: the comparison really ran.
      ASSERT_FALSE(r.impl_skipped) << LayerName(layer);
      steps += r.steps;
      for (const auto& [id, n] : r.known_counts) known[id] += n;
      if (i % 10 == 0) {
        for (const Seen& x : Decode(layer, bytes).seen) {
          perturbed += x.kind.has_value();
        }
      }
    }
    EXPECT_GT(steps, 25000) << LayerName(layer);
    EXPECT_GT(perturbed, 100) << LayerName(layer);
    for (const auto& [id, n] : known) {
      std::cout << LayerName(layer) << " known " << id << ": " << n << "\n";
    }
  }
}

}  // namespace
}  // namespace schedtrace::fuzz
