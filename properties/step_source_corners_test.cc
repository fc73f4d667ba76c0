// The corners the step source (run/step_source.h) must reach (the README's
// "What generated traces reach"), each asserted over a modest number of seeded
// traces recorded from the model, as `schedtrace gen` and `diff --count` make
// them: names with '-' and '.' whose key order and (namespace, name) order
// disagree, large pools in `diff --count` runs, clocks near the top of the
// range, clocks landing on the backoff and leftover-flush boundaries, node
// updates that change a node's score, queue-layer pods with resource corners
// and respelled quantities, and fields given empty against absent. Each test
// fails if its corner is taken out of the source.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/codec.h"
#include "core/json_codec.h"
#include "core/out_state_json.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "run/generator.h"

namespace schedtrace {
namespace {

constexpr int kSeeds = 300;
constexpr int64_t kInt64NanosecondsMs = 9223372036854;

Trace Record(Layer layer, const GenOptions& options) {
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> t = GenerateTrace(layer, *model, options);
  EXPECT_TRUE(t.ok()) << LayerName(layer) << " seed " << options.seed << ": "
                      << t.status();
  return t.ok() ? *std::move(t) : Trace{};
}

// kSeeds traces of `layer` with gen's defaults (hostile: --hostile), made
// once per test binary.
const std::vector<Trace>& Traces(Layer layer, bool hostile = false) {
  static std::map<std::pair<Layer, bool>, std::vector<Trace>> made;
  std::vector<Trace>& traces = made[{layer, hostile}];
  if (traces.empty()) {
    for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
      traces.push_back(Record(layer, {.seed = seed, .hostile = hostile}));
    }
  }
  return traces;
}

constexpr Layer kLayers[] = {Layer::kQueue, Layer::kCache, Layer::kScheduler};

// Every pod object a step carries.
std::vector<PodPtr> PodsOf(const Step& s) {
  std::vector<PodPtr> out;
  for (const PodPtr& p : {s.pod, s.old_pod, s.new_pod}) {
    if (p) out.push_back(p);
  }
  return out;
}
std::vector<NodePtr> NodesOf(const Step& s) {
  std::vector<NodePtr> out;
  for (const NodePtr& n : {s.node, s.old_node, s.new_node}) {
    if (n) out.push_back(n);
  }
  return out;
}

State StateAfter(const Step& s) {
  if (!s.expect || !s.expect->state) return State{};
  absl::StatusOr<State> state = StateFromJson(*s.expect->state);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? *std::move(state) : State{};
}

// --- 1. Names

TEST(StepSourceCornersTest, NamesWithDashesAndDotsWhoseOrdersDisagree) {
  for (Layer layer : kLayers) {
    SCOPED_TRACE(LayerName(layer));
    bool dash_namespace = false, dash_name = false, dot_name = false,
         orders_disagree = false, prefix = false, dash_node = false,
         dot_node = false, underscore_label = false;
    for (const Trace& t : Traces(layer)) {
      std::set<std::pair<std::string, std::string>> pods;  // (ns, name)
      for (const Step& s : t.steps) {
        for (const PodPtr& p : PodsOf(s)) {
          EXPECT_EQ(p->name.find('_'), std::string::npos) << p->Key();
          EXPECT_EQ(p->namespace_.find('_'), std::string::npos) << p->Key();
          pods.insert({p->namespace_, p->name});
          dash_namespace |= p->namespace_.find('-') != std::string::npos;
          dash_name |= p->name.find('-') != std::string::npos;
          dot_name |= p->name.find('.') != std::string::npos;
          for (const auto& [k, v] : p->labels) {
            underscore_label |= v.find('_') != std::string::npos;
          }
        }
        for (const NodePtr& n : NodesOf(s)) {
          EXPECT_EQ(n->name.find('_'), std::string::npos) << n->name;
          dash_node |= n->name.find('-') != std::string::npos;
          dot_node |= n->name.find('.') != std::string::npos;
        }
      }
      for (const auto& a : pods) {
        for (const auto& b : pods) {
          const std::string ka = a.first + "/" + a.second;
          const std::string kb = b.first + "/" + b.second;
          orders_disagree |= ka < kb && b < a;
          prefix |= a.first == b.first && a.second != b.second &&
                    b.second.starts_with(a.second);
        }
      }
    }
    EXPECT_TRUE(dash_namespace);
    EXPECT_TRUE(dash_name);
    EXPECT_TRUE(dot_name);
    EXPECT_TRUE(orders_disagree);
    EXPECT_TRUE(prefix);
    EXPECT_TRUE(underscore_label);
    if (layer != Layer::kQueue) {  // (the queue layer carries no node)
      EXPECT_TRUE(dash_node);
      EXPECT_TRUE(dot_node);
    }
  }
}

TEST(StepSourceCornersTest, HostileNamesMayHaveUnderscores) {
  for (Layer layer : kLayers) {
    bool underscore = false;
    for (const Trace& t : Traces(layer, /*hostile=*/true)) {
      for (const Step& s : t.steps) {
        for (const PodPtr& p : PodsOf(s)) {
          underscore |= p->name.find('_') != std::string::npos;
        }
      }
    }
    EXPECT_TRUE(underscore) << LayerName(layer);
  }
}

// Names are a function of the pool index: as many keys as the pool holds,
// each scheme's keys distinct.
TEST(StepSourceCornersTest, NamesKeepThePoolsSizes) {
  for (Layer layer : kLayers) {
    for (bool corners : {false, true}) {
      for (bool hostile : {false, true}) {
        const PoolNames names{
            .layer = layer, .corners = corners, .hostile = hostile};
        std::set<std::string> keys, nodes, uids;
        for (int i = 0; i < 64; ++i) {
          keys.insert(names.Key(i));
          uids.insert(names.Uid(i, 1));
          nodes.insert(names.Node(i));
        }
        EXPECT_EQ(keys.size(), 64u);
        EXPECT_EQ(uids.size(), 64u);
        EXPECT_EQ(nodes.size(), 64u);
      }
    }
  }
  for (Layer layer : kLayers) {
    for (const Trace& t : Traces(layer)) {
      std::set<std::string> keys;
      for (const Step& s : t.steps) {
        for (const PodPtr& p : PodsOf(s)) keys.insert(p->Key());
      }
      EXPECT_LE(keys.size(), layer == Layer::kQueue ? 5u : 7u);
    }
  }
}

// --- 2. Large pools in diff --count runs

TEST(StepSourceCornersTest, CountRunsHaveLargePools) {
  int large = 0;
  for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const GenOptions o = CountRunOptions({.seed = seed}, {});
    if (o.pods >= 40) {
      ++large;
      EXPECT_LE(o.pods, 64);
      EXPECT_EQ(o.queue_pool, o.pods);
      EXPECT_GE(o.steps, 150);
    } else {
      EXPECT_EQ(o, GenOptions{.seed = seed});
    }
    // The user's --pods wins; --queue-pool and --steps keep their values.
    EXPECT_EQ(CountRunOptions({.seed = seed, .pods = 9}, {.pods = true}).pods,
              9);
    const GenOptions kept = CountRunOptions(
        {.seed = seed, .steps = 30}, {.queue_pool = true, .steps = true});
    EXPECT_EQ(kept.steps, 30);
    EXPECT_EQ(kept.queue_pool, 5);
  }
  EXPECT_EQ(large, kSeeds / 4);
  // Such traces really have 40 pods or more, and deep queues (one of the
  // first twelve, per layer; a queue-layer trace may end at its first update
  // with no old object, upstream's fatal exit).
  for (Layer layer : kLayers) {
    size_t most_keys = 0, most_queued = 0;
    for (uint64_t seed = 4; seed <= 48; seed += 4) {
      const Trace t = Record(layer, CountRunOptions({.seed = seed}, {}));
      std::set<std::string> keys;
      for (const Step& s : t.steps) {
        for (const PodPtr& p : PodsOf(s)) keys.insert(p->Key());
        const State state = StateAfter(s);
        if (state.queue) {
          most_queued =
              std::max(most_queued, state.queue->active.size() +
                                        state.queue->backoff.size() +
                                        state.queue->unschedulable.size());
        }
      }
      most_keys = std::max(most_keys, keys.size());
    }
    EXPECT_GE(most_keys, 40u) << LayerName(layer);
    if (layer != Layer::kCache) {
      EXPECT_GE(most_queued, 20u) << LayerName(layer);
    }
  }
}

// --- 3. Clocks near the top of the range

TEST(StepSourceCornersTest, ClocksStartNearTheTopAndStayInRange) {
  for (Layer layer : kLayers) {
    SCOPED_TRACE(LayerName(layer));
    bool past_nanoseconds = false, crosses = false, near_top = false;
    for (const Trace& t : Traces(layer)) {
      if (t.steps.empty()) continue;
      int64_t last = 0;
      for (const Step& s : t.steps) {
        EXPECT_GT(s.t, last);
        EXPECT_LE(s.t, kMaxTraceMs);
        last = s.t;
      }
      past_nanoseconds |= last > kInt64NanosecondsMs;
      crosses |= t.steps.front().t <= kInt64NanosecondsMs &&
                 last > kInt64NanosecondsMs;
      near_top |= t.steps.front().t > kMaxTraceMs - int64_t{1000000000000};
    }
    EXPECT_TRUE(past_nanoseconds);
    EXPECT_TRUE(crosses);
    EXPECT_TRUE(near_top);
  }
}

// A trace that starts at the top never passes kMaxTraceMs, whatever its
// steps and jumps (StartClock's margin), and reads back through the codec.
TEST(StepSourceCornersTest, TheTopMarginHoldsForLongTracesOfLongJumps) {
  for (Layer layer : kLayers) {
    int high = 0;
    for (uint64_t seed = 1; seed <= kSeeds && high < 3; ++seed) {
      GenOptions o{.seed = seed, .steps = 1};
      if (Record(layer, o).steps.front().t < kMaxTraceMs / 2) continue;
      ++high;
      o.steps = 400;
      o.clock.flush = {.p = 1, .min_ms = 310000, .max_ms = 310000};
      o.clock.ttl = {.p = 1, .min_ms = 40000, .max_ms = 40000};
      const Trace t = Record(layer, o);
      EXPECT_LE(t.steps.back().t, kMaxTraceMs) << LayerName(layer);
      absl::StatusOr<Trace> back = ParseTrace(EncodeTrace(t), "top.jsonl");
      EXPECT_TRUE(back.ok()) << back.status();
    }
    EXPECT_EQ(high, 3) << LayerName(layer);
  }
}

// --- 4. Clocks on the backoff and leftover-flush boundaries

// How often a step lands 1 ms before, on and 1 ms after a boundary.
struct Landings {
  std::map<int64_t, int> backoff;         // offset from a backoff expiry
  std::map<int64_t, int> flush;           // flush_backoff steps among them
  std::map<int64_t, int> leftover;        // offset from entry + 5 minutes
  std::map<int64_t, int> leftover_flush;  // flush_unschedulable among them
};

Landings Landed(Layer layer) {
  Landings l;
  for (const Trace& t : Traces(layer)) {
    const int64_t limit = t.header.config.pod_max_in_unschedulable_ms;
    State before;
    std::map<std::string, int64_t> entered;  // in unschedulablePods since
    for (const Step& s : t.steps) {
      if (before.queue) {
        for (const QueuedPod& q : before.queue->backoff) {
          const int64_t d = s.t - q.backoff_expires_at;
          if (d < -1 || d > 1) continue;
          ++l.backoff[d];
          if (s.op == Op::kFlushBackoff) ++l.flush[d];
        }
        for (const QueuedPod& q : before.queue->unschedulable) {
          auto it = entered.find(q.pod);
          if (it == entered.end()) continue;
          const int64_t d = s.t - it->second - limit;
          if (d < -1 || d > 1) continue;
          ++l.leftover[d];
          if (s.op == Op::kFlushUnschedulable) ++l.leftover_flush[d];
        }
      }
      const State after = StateAfter(s);
      if (!after.queue) break;  // fatal: the trace ends
      std::map<std::string, int64_t> still;
      for (const QueuedPod& q : after.queue->unschedulable) {
        auto it = entered.find(q.pod);
        const bool was =
            before.queue &&
            std::any_of(before.queue->unschedulable.begin(),
                        before.queue->unschedulable.end(),
                        [&](const QueuedPod& b) { return b.pod == q.pod; });
        if (was && it != entered.end()) {
          still[q.pod] = it->second;
        } else if (!was) {
          still[q.pod] = s.t;
        }
      }
      entered = std::move(still);
      before = after;
    }
  }
  return l;
}

TEST(StepSourceCornersTest, ClocksLandOnTheQueuesBoundaries) {
  for (Layer layer : {Layer::kQueue, Layer::kScheduler}) {
    SCOPED_TRACE(LayerName(layer));
    const Landings l = Landed(layer);
    int flushes = 0;
    for (int64_t d : {-1, 0, 1}) {
      EXPECT_GT(l.backoff.count(d) ? l.backoff.at(d) : 0, 0) << d;
      EXPECT_GT(l.leftover.count(d) ? l.leftover.at(d) : 0, 0) << d;
      const int f = l.flush.count(d) ? l.flush.at(d) : 0;
      flushes += f;
      // The scheduler layer lands a few times per 300 traces: a flush at
      // each offset is asked of the queue layer only.
      if (layer == Layer::kQueue) {
        EXPECT_GT(f, 0) << d;
      }
    }
    EXPECT_GE(flushes, 3);
    if (layer == Layer::kQueue) {
      for (int64_t d : {-1, 0, 1}) {
        EXPECT_GT(l.leftover_flush.count(d) ? l.leftover_flush.at(d) : 0, 0)
            << d;
      }
    }
  }
}

// --- 5. Node updates that change a node's score

TEST(StepSourceCornersTest, NodeUpdatesChangeScoresWhichStayUnique) {
  int changed = 0, removed = 0, added = 0;
  for (const Trace& t : Traces(Layer::kScheduler)) {
    std::map<std::string, NodePtr> nodes;
    for (const Step& s : t.steps) {
      if (s.op == Op::kNodeUpdate) {
        auto score = [](const Node& n) -> std::optional<std::string> {
          auto it = n.labels.find("schedtrace.io/score");
          if (it == n.labels.end()) return std::nullopt;
          return it->second;
        };
        const auto a = score(*s.old_node), b = score(*s.new_node);
        changed += a && b && *a != *b;
        removed += a && !b;
        added += !a && b;
      }
      if (s.op == Op::kNodeAdd) nodes[s.node->name] = s.node;
      if (s.op == Op::kNodeUpdate) nodes[s.new_node->name] = s.new_node;
      if (s.op == Op::kNodeDelete) nodes.erase(s.node->name);
      // TraceScore reads 0 when the label is absent: scores stay unique.
      std::set<std::string> scores;
      for (const auto& [name, n] : nodes) {
        auto it = n->labels.find("schedtrace.io/score");
        EXPECT_TRUE(
            scores.insert(it == n->labels.end() ? "0" : it->second).second)
            << t.header.name << " at t=" << s.t << ": " << name;
      }
    }
  }
  EXPECT_GT(changed, 0);
  EXPECT_GT(removed, 0);
  EXPECT_GT(added, 0);
}

// --- 6. Queue-layer pods: resource corners, respelled quantities

// Go's reflect.DeepEqual on two parsed quantities (docs/FORMAT.md E10).
bool DeepEqual(const Quantity& a, const Quantity& b) {
  return a.format() == b.format() && a.cached_text() == b.cached_text() &&
         a.is_dec() == b.is_dec() && a.int_value() == b.int_value() &&
         a.int_scale() == b.int_scale() &&
         a.dec_negative() == b.dec_negative() && a.dec_mag() == b.dec_mag() &&
         a.dec_pow10() == b.dec_pow10() && a.dec_scale() == b.dec_scale();
}

// The quantities of a pod, in a fixed order.
std::vector<Quantity> Quantities(const Pod& p) {
  std::vector<Quantity> out;
  for (const auto* list : {&p.containers, &p.init_containers}) {
    for (const Container& c : *list) {
      for (const auto& [name, q] : c.requests) out.push_back(q);
    }
  }
  for (const auto& [name, q] : p.overhead) out.push_back(q);
  return out;
}

// Whether `b` is `a` with one quantity written another way (same value),
// and nothing else but the resourceVersion changed; `deep_equal` says
// whether Go sees the two quantities as equal.
bool OnlyRespelled(const Pod& a, const Pod& b, bool& deep_equal) {
  const std::vector<Quantity> qa = Quantities(a), qb = Quantities(b);
  if (qa.size() != qb.size()) return false;
  int differ = 0;
  for (size_t k = 0; k < qa.size(); ++k) {
    if (qa[k] == qb[k]) continue;
    if (qa[k].ScaledValue(9) != qb[k].ScaledValue(9)) return false;
    ++differ;
    deep_equal = DeepEqual(qa[k], qb[k]);
  }
  if (differ != 1) return false;
  // Everything else the same: b with a's quantities is a.
  Pod c = b;
  c.resource_version = a.resource_version;
  c.containers = a.containers;
  c.init_containers = a.init_containers;
  c.overhead = a.overhead;
  return c == a;
}

TEST(StepSourceCornersTest, QueuePodsReachResourceCornersAndRespellings) {
  int zero_gpu_only = 0, init = 0, respelled_equal = 0, respelled_unequal = 0;
  for (const Trace& t : Traces(Layer::kQueue)) {
    for (const Step& s : t.steps) {
      if (s.op == Op::kQAdd) {
        const Container& c = s.pod->containers.front();
        zero_gpu_only += c.requests.size() == 1 &&
                         c.requests.contains("example.com/gpu") &&
                         c.requests.at("example.com/gpu").Value() == 0;
        init += !s.pod->init_containers.empty();
      }
      if (s.op == Op::kQUpdate && s.old_pod) {
        bool deep_equal = false;
        if (OnlyRespelled(*s.old_pod, *s.new_pod, deep_equal)) {
          ++(deep_equal ? respelled_equal : respelled_unequal);
        }
      }
    }
  }
  EXPECT_GT(zero_gpu_only, 0);
  EXPECT_GT(init, 0);
  EXPECT_GT(respelled_equal, 0);    // "1000m" -> "01000m": not an update
  EXPECT_GT(respelled_unequal, 0);  // "1" -> "01", "1" -> "1000m": one
}

// --- 7. Absent against empty

// Whether `b` is `a` with only fields flipped between absent and given
// empty (and a new resourceVersion).
bool OnlyFlipped(Pod a, Pod b) {
  if (a.given_empty == b.given_empty &&
      a.containers.front().given_empty == b.containers.front().given_empty) {
    return false;
  }
  b.resource_version = a.resource_version;
  b.given_empty = a.given_empty;
  for (size_t k = 0; k < a.containers.size() && k < b.containers.size(); ++k) {
    b.containers[k].given_empty = a.containers[k].given_empty;
  }
  return a == b;
}
bool OnlyFlipped(Node a, Node b) {
  if (a.given_empty == b.given_empty) return false;
  b.resource_version = a.resource_version;
  b.given_empty = a.given_empty;
  return a == b;
}

TEST(StepSourceCornersTest, FieldsGivenEmptyAndUpdatesThatFlipOnlyThat) {
  std::set<Nilable> pod_fields, node_fields;
  int labels_given_empty = 0;
  for (Layer layer : kLayers) {
    SCOPED_TRACE(LayerName(layer));
    int pod_flips = 0, node_flips = 0;
    for (const Trace& t : Traces(layer)) {
      for (const Step& s : t.steps) {
        for (const PodPtr& p : PodsOf(s)) {
          for (int f = 0; f < 32; ++f) {
            if (p->given_empty.Has(static_cast<Nilable>(f))) {
              pod_fields.insert(static_cast<Nilable>(f));
            }
          }
          if (p->containers.front().given_empty.Has(Nilable::kRequests)) {
            pod_fields.insert(Nilable::kRequests);
          }
          labels_given_empty +=
              p->labels.empty() && p->given_empty.Has(Nilable::kLabels);
        }
        for (const NodePtr& n : NodesOf(s)) {
          for (int f = 0; f < 32; ++f) {
            if (n->given_empty.Has(static_cast<Nilable>(f))) {
              node_fields.insert(static_cast<Nilable>(f));
            }
          }
        }
        if (s.old_pod && s.new_pod && s.old_pod->uid == s.new_pod->uid) {
          pod_flips += OnlyFlipped(*s.old_pod, *s.new_pod);
        }
        if (s.old_node && s.new_node) {
          node_flips += OnlyFlipped(*s.old_node, *s.new_node);
        }
      }
    }
    EXPECT_GT(pod_flips, 0);
    if (layer != Layer::kQueue) {
      EXPECT_GT(node_flips, 0);
    }
  }
  EXPECT_GT(labels_given_empty, 0);
  for (Nilable f :
       {Nilable::kLabels, Nilable::kAnnotations, Nilable::kNodeSelector,
        Nilable::kTolerations, Nilable::kSchedulingGates,
        Nilable::kInitContainers, Nilable::kOverhead, Nilable::kAffinity,
        Nilable::kRequests}) {
    EXPECT_TRUE(pod_fields.contains(f)) << static_cast<int>(f);
  }
  for (Nilable f : {Nilable::kLabels, Nilable::kTaints, Nilable::kAllocatable,
                    Nilable::kConditions}) {
    EXPECT_TRUE(node_fields.contains(f)) << static_cast<int>(f);
  }
}

// Every corner survives the codec: a generated trace reads back as itself.
// --- What golden reached and the generators did not (docs/COVERAGE.md)

TEST(StepSourceCornersTest, SchedulerPodsReachRequiredNodeAffinity) {
  std::set<std::string> ops;
  bool fields_in = false, fields_absent_node = false, conflict = false,
       empty_term = false, invalid = false, ephemeral = false,
       init_memory = false, equal_toleration = false;
  for (const Trace& t : Traces(Layer::kScheduler)) {
    for (const Step& s : t.steps) {
      for (const PodPtr& p : PodsOf(s)) {
        for (const auto& [name, q] : p->containers.front().requests) {
          ephemeral |= name == "ephemeral-storage";
        }
        for (const Container& c : p->init_containers) {
          init_memory |= c.requests.contains("memory");
        }
        for (const Toleration& tol : p->tolerations) {
          equal_toleration |= tol.op == "Equal";
        }
        if (!p->required_node_affinity) continue;
        for (const NodeSelectorTerm& term : *p->required_node_affinity) {
          empty_term |=
              term.match_expressions.empty() && term.match_fields.empty();
          for (const NodeSelectorRequirement& r : term.match_expressions) {
            ops.insert(r.op);
            invalid |= (r.op == "Gt" || r.op == "Lt") && r.values[0] == "x";
          }
          std::set<std::string> names;
          for (const NodeSelectorRequirement& r : term.match_fields) {
            if (r.op != "In") continue;
            fields_in = true;
            names.insert(r.values[0]);
            // gen's default pool is n0..n3.
            fields_absent_node |= r.values[0] == "n4";
          }
          conflict |= names.size() > 1;
        }
      }
    }
  }
  EXPECT_EQ(ops, (std::set<std::string>{"DoesNotExist", "Exists", "Gt", "In",
                                        "Lt", "NotIn"}));
  EXPECT_TRUE(fields_in);
  EXPECT_TRUE(fields_absent_node);
  EXPECT_TRUE(conflict);
  EXPECT_TRUE(empty_term);
  EXPECT_TRUE(invalid);
  EXPECT_TRUE(ephemeral);
  EXPECT_TRUE(init_memory);
  EXPECT_TRUE(equal_toleration);
}

TEST(StepSourceCornersTest, QueuePodAffinityBeyondOneMatchLabels) {
  bool expressions = false, namespaces = false, ns_selector = false,
       nil_selector = false, late_nomination = false;
  for (const Trace& t : Traces(Layer::kQueue)) {
    std::set<std::string> deleted;
    for (const Step& s : t.steps) {
      if (s.op == Op::kQDelete && s.pod) deleted.insert(s.pod->uid);
      if (s.op == Op::kQNominate && deleted.contains(s.pod->uid)) {
        late_nomination = true;
      }
      for (const PodPtr& p : PodsOf(s)) {
        for (const PodAffinityTerm& term : p->required_pod_affinity) {
          nil_selector |= !term.label_selector.has_value();
          expressions |= term.label_selector &&
                         !term.label_selector->match_expressions.empty();
          namespaces |= !term.namespaces.empty();
          ns_selector |= term.namespace_selector.has_value();
        }
      }
    }
  }
  EXPECT_TRUE(expressions);
  EXPECT_TRUE(namespaces);
  EXPECT_TRUE(ns_selector);
  EXPECT_TRUE(nil_selector);
  EXPECT_TRUE(late_nomination);
}

TEST(StepSourceCornersTest, HostileReachesBlankUidsStrayPermitsAndWildcards) {
  bool blank_uid = false, stray_permit = false, wildcard = false;
  for (const Trace& t : Traces(Layer::kCache, /*hostile=*/true)) {
    for (const Step& s : t.steps) {
      for (const PodPtr& p : PodsOf(s)) blank_uid |= p->uid.empty();
    }
  }
  for (const Trace& t : Traces(Layer::kScheduler, /*hostile=*/true)) {
    for (const Step& s : t.steps) {
      // A permit_allow whose out releases nothing: the pod was not waiting.
      if (s.op == Op::kPermitAllow && s.expect && s.expect->out &&
          s.expect->out->empty()) {
        stray_permit = true;
      }
    }
  }
  for (const Trace& t : Traces(Layer::kQueue, /*hostile=*/true)) {
    for (const Step& s : t.steps) {
      wildcard |= s.op == Op::kQMoveAll && s.event.resource == "*" &&
                  s.event.action != "All";
    }
  }
  EXPECT_TRUE(blank_uid);
  EXPECT_TRUE(stray_permit);
  EXPECT_TRUE(wildcard);
}

TEST(StepSourceCornersTest, ClocksLeapAndTtlsWrap) {
  // A leap of 10^13 ms (LayerSource::Leap): Time.Sub across it saturates.
  for (Layer layer : {Layer::kQueue, Layer::kScheduler}) {
    bool leapt = false;
    for (const Trace& t : Traces(layer)) {
      for (size_t i = 1; i < t.steps.size(); ++i) {
        leapt |= t.steps[i].t - t.steps[i - 1].t >= 10'000'000'000'000;
      }
    }
    EXPECT_TRUE(leapt) << LayerName(layer);
  }
  // A cache ttl whose time.Duration wraps.
  bool wrapped = false;
  for (const Trace& t : Traces(Layer::kCache)) {
    wrapped |= t.header.config.assumed_pod_ttl_ms == 9223372036855;
  }
  EXPECT_TRUE(wrapped);
}

// v1.30.12 sums a pod's requests before rounding
// (pod_requests_summed_as_quantities): its cache and scheduler pods now and
// then carry half a millicore in a second container and in the overhead;
// v1.26.7's traces never do (their draws are kept).
TEST(StepSourceCornersTest, V130PodsCarryFractionalRequests) {
  auto fractional = [](const Trace& t) {
    for (const Step& s : t.steps) {
      for (const PodPtr& p : PodsOf(s)) {
        if (p->containers.size() > 1 && p->overhead.contains("cpu") &&
            p->overhead.at("cpu").text() == "0.5m") {
          return true;
        }
      }
    }
    return false;
  };
  for (Layer layer : {Layer::kCache, Layer::kScheduler}) {
    int v130 = 0;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      v130 += fractional(Record(layer, {.seed = seed, .upstream = "v1.30.12"}));
    }
    EXPECT_GE(v130, 10) << LayerName(layer);
    for (const Trace& t : Traces(layer)) {
      EXPECT_FALSE(fractional(t)) << LayerName(layer) << " " << t.header.name;
    }
  }
}

TEST(StepSourceCornersTest, CornersRoundTripThroughTheCodec) {
  for (Layer layer : kLayers) {
    for (size_t k = 0; k < 40; ++k) {
      const Trace& t = Traces(layer)[k];
      const std::string text = EncodeTrace(t);
      absl::StatusOr<Trace> back = ParseTrace(text, "corners.jsonl");
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(EncodeTrace(*back), text) << LayerName(layer) << " " << k;
    }
  }
}

}  // namespace
}  // namespace schedtrace
