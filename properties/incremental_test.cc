// The incremental check (properties/incremental.h) against the full one
// (CheckAll, the reference): the same findings — property, words, pods,
// node, known violation — on every step of generated traces of every layer
// (normal, perturbed, hostile), and of generated traces whose states are
// tampered with so that every property fires. Every step of every golden
// trace gets the same comparison in the golden passes of model and impl
// (properties/golden_pass_test_util.h).
#include "properties/incremental.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/checker.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::properties {
namespace {

std::string Describe(const Finding& f) {
  return absl::StrCat(
      f.violation.Format(), " node=", f.violation.node,
      " known=", f.known != nullptr ? std::string(f.known->id) : "-");
}

// A full and an incremental checker fed the same steps.
class SideBySide {
 public:
  explicit SideBySide(const TraceHeader& header)
      : full_(header, CheckMode::kFull),
        incremental_(header, CheckMode::kIncremental) {}

  // "" when both found the same; else what differs.
  // `touch`: what the step touched, handed to the incremental check only.
  std::string Observe(const State& before, const Step& step, const StepOut& out,
                      const State& after, const StateTouch* touch = nullptr) {
    const std::vector<Finding>& f = full_.Observe(before, step, out, after);
    const std::vector<Finding>& i =
        incremental_.Observe(before, step, out, after, touch);
    std::vector<std::string> a, b;
    for (const Finding& x : f) {
      a.push_back(Describe(x));
      ++fired_[x.violation.property];
    }
    for (const Finding& x : i) b.push_back(Describe(x));
    if (a == b) return "";
    return absl::StrCat("full:\n  ", absl::StrJoin(a, "\n  "),
                        "\nincremental:\n  ", absl::StrJoin(b, "\n  "));
  }
  // How often each property fired (by the full check).
  const std::map<int, int>& fired() const { return fired_; }

 private:
  Checker full_;
  Checker incremental_;
  std::map<int, int> fired_;
};

// Replays `trace` on `sut` with both checkers; fails on the first step
// where they differ. Returns how often each property fired.
std::map<int, int> ReplayBoth(System& sut, const Trace& trace,
                              const std::string& what) {
  SideBySide both(trace.header);
  std::string first;
  ReplayOptions options;
  options.check = [&](const State& before, const Step& step, const StepOut& out,
                      const State& after, const StateTouch& touch) {
    std::string d = both.Observe(before, step, out, after, &touch);
    if (!d.empty() && first.empty()) {
      first = absl::StrCat(what, " line ", step.line, ":\n", d);
    }
    return std::string();  // on to the end, whatever fired
  };
  Replay(sut, trace, options);
  EXPECT_EQ(first, "");
  return both.fired();
}

std::unique_ptr<System> NewSut(const std::string& name) {
  return name == "model" ? model::NewSystem() : impl::NewSystem();
}

struct Mode {
  const char* name;
  bool hostile;
  double perturb;
};
constexpr Mode kModes[] = {
    {"normal", false, 0}, {"perturbed", false, 0.1}, {"hostile", true, 0}};

TEST(IncrementalTest, GeneratedTracesGiveTheFullChecksFindings) {
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (const Mode& mode : kModes) {
      for (uint64_t seed = 1; seed <= 25; ++seed) {
        GenOptions options =
            seed % 5 == 0 ? LargePoolOptions(seed) : GenOptions{.seed = seed};
        options.steps = seed % 5 == 0 ? 300 : 120;
        options.hostile = mode.hostile;
        options.perturb = Perturbations::All(mode.perturb);
        std::unique_ptr<System> recorder = model::NewSystem();
        absl::StatusOr<Trace> trace = GenerateTrace(layer, *recorder, options);
        ASSERT_TRUE(trace.ok()) << trace.status();
        for (const char* sut : {"model", "impl"}) {
          std::unique_ptr<System> s = NewSut(sut);
          ReplayBoth(*s, *trace,
                     absl::StrCat(sut, " ", std::string(LayerName(layer)), " ",
                                  mode.name, " seed ", seed));
        }
      }
    }
  }
}

// Tampers with `s` so that a property breaks (or a list changes): one of a
// dozen ways, chosen by `rng`.
void Tamper(State& s, const Step& step, std::mt19937_64& rng) {
  auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  auto queue = [&s]() -> QueueState& {
    if (!s.queue) s.queue.emplace();
    return *s.queue;
  };
  auto cache = [&s]() -> CacheState& {
    if (!s.cache) s.cache.emplace();
    return *s.cache;
  };
  auto insert_sorted = [](std::vector<std::string>& list, std::string key) {
    list.insert(std::lower_bound(list.begin(), list.end(), key), key);
  };
  auto any_key = [&]() -> std::string {
    std::vector<std::string> keys;
    if (s.queue) {
      for (const auto* l :
           {&s.queue->active, &s.queue->backoff, &s.queue->unschedulable}) {
        for (const QueuedPod& q : *l) keys.push_back(q.pod);
      }
    }
    if (s.cache) {
      keys.insert(keys.end(), s.cache->assumed.begin(), s.cache->assumed.end());
      for (const NodeInfoState& n : s.cache->nodes) {
        keys.insert(keys.end(), n.pods.begin(), n.pods.end());
      }
    }
    if (step.pod != nullptr) keys.push_back(step.pod->Key());
    if (step.new_pod != nullptr) keys.push_back(step.new_pod->Key());
    return keys.empty() ? "ns/p0" : keys[pick(keys.size())];
  };
  switch (pick(14)) {
    case 0:  // 1: a key twice
      queue().active.push_back(QueuedPod{.pod = any_key()});
      break;
    case 1:  // 2, 10: an assumed or waiting key queued
      if (s.cache && !s.cache->assumed.empty()) {
        queue().backoff.push_back(
            QueuedPod{.pod = s.cache->assumed[pick(s.cache->assumed.size())]});
      } else if (s.waiting && !s.waiting->empty()) {
        queue().unschedulable.push_back(
            QueuedPod{.pod = (*s.waiting)[pick(s.waiting->size())]});
      }
      break;
    case 2:  // 3: the delivered pod queued
      if (step.op == Op::kPodAdd || step.op == Op::kPodUpdate) {
        const PodPtr& p = step.op == Op::kPodAdd ? step.pod : step.new_pod;
        queue().active.insert(queue().active.begin(),
                              QueuedPod{.pod = p->Key()});
      }
      break;
    case 3:  // 4, 10: still waiting, assumed
      if (step.pod != nullptr) {
        if (!s.waiting) s.waiting.emplace();
        insert_sorted(*s.waiting, step.pod->Key());
        insert_sorted(cache().assumed, step.pod->Key());
      }
      break;
    case 4:  // 5: a pending pod dropped
      if (s.queue && !s.queue->active.empty()) {
        s.queue->active.erase(s.queue->active.begin() +
                              pick(s.queue->active.size()));
      } else if (s.queue && !s.queue->unschedulable.empty()) {
        s.queue->unschedulable.pop_back();
      }
      break;
    case 5:  // 6: a sum off, a placeholder without pods, a pod moved
      if (s.cache && !s.cache->nodes.empty()) {
        NodeInfoState& n = s.cache->nodes[pick(s.cache->nodes.size())];
        switch (pick(3)) {
          case 0:
            n.requested["cpu"] += 1;
            break;
          case 1:
            n.present = false;
            n.pods.clear();
            break;
          default:
            insert_sorted(n.pods, any_key());
        }
      } else {
        cache().nodes.push_back(NodeInfoState{.name = "zz", .present = false});
      }
      break;
    case 6:  // 6: nodes out of order (the full check's fallback)
      if (s.cache && s.cache->nodes.size() > 1) {
        std::swap(s.cache->nodes.front(), s.cache->nodes.back());
      }
      break;
    case 7:  // 7: activeQ reversed, a backoff too long
      if (s.queue) {
        std::reverse(s.queue->active.begin(), s.queue->active.end());
        if (!s.queue->backoff.empty()) {
          s.queue->backoff.front().backoff_expires_at += 100'000'000;
        }
      }
      break;
    case 8:  // 8: cycles
      queue().scheduling_cycle -= 3;
      queue().move_request_cycle = queue().scheduling_cycle + 1;
      break;
    case 9:  // 9: a nomination of a pod that is not pending
      if (!s.nominated) s.nominated.emplace();
      (*s.nominated)["n0"].push_back(any_key());
      break;
    case 10:  // 10: a parked key queued
      if (!s.parked) s.parked.emplace();
      insert_sorted(*s.parked, any_key());
      queue().active.push_back(QueuedPod{.pod = s.parked->front()});
      break;
    case 11:  // parts gone
      if (pick(2) == 0) {
        s.queue.reset();
      } else {
        s.cache.reset();
      }
      break;
    case 12:  // assumed and waiting lists changed
      if (s.cache && !s.cache->assumed.empty()) {
        s.cache->assumed.erase(s.cache->assumed.begin());
      } else {
        insert_sorted(cache().assumed, any_key());
      }
      break;
    default:  // a key moved between sub-queues
      if (s.queue && !s.queue->active.empty()) {
        s.queue->backoff.push_back(s.queue->active.back());
        s.queue->active.pop_back();
      }
  }
}

TEST(IncrementalTest, TamperedStatesGiveTheFullChecksFindings) {
  std::map<int, int> fired;
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      std::unique_ptr<System> recorder = model::NewSystem();
      GenOptions options{.seed = seed, .steps = 150};
      options.hostile = seed % 3 == 0;
      absl::StatusOr<Trace> trace = GenerateTrace(layer, *recorder, options);
      ASSERT_TRUE(trace.ok()) << trace.status();
      std::unique_ptr<System> sut = impl::NewSystem();
      ASSERT_TRUE(sut->Configure(trace->header).ok());
      SideBySide both(trace->header);
      std::mt19937_64 rng(seed);
      State before = sut->Snapshot();
      for (const Step& step : trace->steps) {
        absl::StatusOr<StepOut> out = sut->Apply(step);
        ASSERT_TRUE(out.ok()) << out.status();
        State after = sut->Snapshot();
        // Some steps untouched, some tampered with once or more.
        for (int n = static_cast<int>(rng() % 4) - 1; n > 0; --n) {
          Tamper(after, step, rng);
        }
        std::string d = both.Observe(before, step, *out, after);
        ASSERT_EQ(d, "") << LayerName(layer) << " seed " << seed << " line "
                         << step.line;
        before = std::move(after);
        if (out->fatal) break;
      }
      for (const auto& [property, n] : both.fired()) fired[property] += n;
    }
  }
  // Every property was made to fire, and the two checks agreed on it.
  // (Property 11 is step-local and the same function in both; its verdicts
  // are pinned by the registry's traces, properties/known_violations_test.cc.)
  for (int property = 1; property <= 10; ++property) {
    EXPECT_GT(fired[property], 0) << "property " << property;
  }
}

}  // namespace
}  // namespace schedtrace::properties
