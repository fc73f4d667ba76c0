// The generators (run/generator.h) driven by the real systems: queue
// traces are valid and deterministic, every informer perturbation shows up
// as what it promises, hostile traces are answered alike by model and impl.
#include <map>
#include <memory>
#include <string>

#include "core/codec.h"
#include "core/json_codec.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/checker.h"
#include "properties/step_shapes_test_util.h"
#include "run/differential.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::properties {
namespace {

Trace Gen(Layer layer, GenOptions o) {
  std::unique_ptr<System> recorder = model::NewSystem();
  absl::StatusOr<Trace> t = GenerateTrace(layer, *recorder, o);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : Trace{};
}

TEST(QueueGeneratorTest, ValidDeterministicAndKeepsEveryProperty) {
  std::map<std::string, int> known;
  int unsched = 0, past_cycles = 0;
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    Trace trace = Gen(Layer::kQueue, {.seed = seed});
    absl::StatusOr<Trace> decoded = ParseTrace(EncodeTrace(trace), "q");
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    // q_add_unschedulable only for a pod popped and not given back since.
    std::set<std::string> flying;
    for (const Step& s : decoded->steps) {
      if (s.op == Op::kQPop) {
        const nlohmann::json& out = *s.expect->out;
        if (!out["popped"].is_null()) flying.insert(out["popped"]);
      } else if (s.op == Op::kQAddUnschedulable) {
        EXPECT_TRUE(flying.erase(s.pod_key)) << "seed " << seed;
        ++unsched;
        past_cycles += s.cycle.has_value();
      } else if (s.op == Op::kQDelete) {
        flying.erase(s.pod->Key());
      }
    }
    std::unique_ptr<System> sut = model::NewSystem();
    ReplayOptions options;
    options.check = AsStepCheck(decoded->header, &known);
    TraceResult r = Replay(*sut, *decoded, options);
    EXPECT_EQ(r.verdict, Verdict::kPassed)
        << "seed " << seed << ": " << r.message
        << (r.divergence ? r.divergence->Format("q") : "");
  }
  EXPECT_GT(unsched, 100);
  EXPECT_GT(past_cycles, 10);
  EXPECT_EQ(EncodeTrace(Gen(Layer::kQueue, {.seed = 5})),
            EncodeTrace(Gen(Layer::kQueue, {.seed = 5})));
}

TEST(QueueGeneratorTest, HugeMaxBackoffDrivesAttemptsPastTheCap) {
  // Seed 79 picks podMaxBackoffMs 9223372036854 (docs/UPSTREAM.md item 29); the
  // Hammer re-pops its focus pod unless an in-flight update resets its attempts
  // (docs/UPSTREAM.md item 44), which the seed's draws decide.
  Trace trace = Gen(Layer::kQueue, {.seed = 79, .steps = 600});
  EXPECT_EQ(trace.header.config.pod_max_backoff_ms, 9223372036854);
  int max_attempts = 0;
  for (const Step& s : trace.steps) {
    const nlohmann::json& out = *s.expect->out;
    if (out.contains("attempts")) {
      max_attempts = std::max(max_attempts, out["attempts"].get<int>());
    }
  }
  EXPECT_GE(max_attempts, 35);
}

TEST(PerturbationTest, OffByDefaultAndEachDoesWhatItSays) {
  // All zero is the default: the same trace.
  EXPECT_EQ(EncodeTrace(Gen(Layer::kScheduler, {.seed = 3})),
            EncodeTrace(Gen(Layer::kScheduler, {.seed = 3, .perturb = {}})));
  auto count = [](Layer layer, Perturbations p, auto pred) {
    int n = 0;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      Trace t = Gen(layer, {.seed = seed, .steps = 80, .perturb = p});
      for (size_t i = 0; i < t.steps.size(); ++i) {
        n += pred(t.steps[i],
                  i + 1 < t.steps.size() ? &t.steps[i + 1] : nullptr);
      }
    }
    return n;
  };
  auto resync = [](const Step& s, const Step*) { return IsResync(s); };
  auto recreate = IsRecreate;
  auto new_uid = [](const Step& s, const Step*) {
    return (s.op == Op::kPodUpdate || s.op == Op::kQUpdate ||
            s.op == Op::kCUpdatePod) &&
           s.old_pod && s.old_pod->uid != s.new_pod->uid;
  };
  auto node_again = [](const Step& s, const Step* next) {
    return (s.op == Op::kNodeDelete || s.op == Op::kCRemoveNode) && next &&
           (next->op == Op::kNodeAdd || next->op == Op::kCAddNode) &&
           next->node->name == s.node->name;
  };
  auto burst = [](const Step& s, const Step* next) {
    return (s.op == Op::kNodeUpdate || s.op == Op::kCUpdateNode) && next &&
           next->op == s.op && next->new_node->name == s.new_node->name &&
           next->t > s.t;
  };
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    SCOPED_TRACE(std::string(LayerName(layer)));
    EXPECT_GT(count(layer, {.resync = 0.3}, resync), count(layer, {}, resync));
    EXPECT_GT(count(layer, {.recreate = 0.3}, recreate), 3);
    EXPECT_GT(count(layer, {.recreate_update = 0.3}, new_uid),
              count(layer, {}, new_uid));
    if (layer != Layer::kQueue) {
      EXPECT_GT(count(layer, {.node_recreate = 0.3}, node_again), 3);
      EXPECT_GT(count(layer, {.node_burst = 0.3}, burst), 3);
    }
  }
  // A stale tombstone: an older resourceVersion than the latest delivered.
  auto stale = [](const Step& s, const Step*) {
    return s.op == Op::kPodDelete && s.tombstone && s.pod;
  };
  EXPECT_GT(count(Layer::kScheduler, {.tombstone = 0.3}, stale),
            count(Layer::kScheduler, {}, stale));
  // Queue race: an update of a pod between its pop and its give-back.
  int raced = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Trace t = Gen(Layer::kQueue, {.seed = seed, .perturb = {.race = 0.4}});
    std::set<std::string> flying;
    for (const Step& s : t.steps) {
      const nlohmann::json& out = *s.expect->out;
      if (s.op == Op::kQPop && !out["popped"].is_null()) {
        flying.insert(out["popped"]);
      }
      if (s.op == Op::kQAddUnschedulable) flying.erase(s.pod_key);
      if (s.op == Op::kQUpdate) raced += flying.contains(s.new_pod->Key());
    }
  }
  EXPECT_GT(raced, 5);
}

TEST(HostileTest, ModelAndImplAnswerAlikeAndNeitherCrashes) {
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      Trace t = Gen(layer, {.seed = seed, .steps = 80, .hostile = true});
      std::unique_ptr<System> a = model::NewSystem(), b = impl::NewSystem();
      DiffResult r = RunDifferential(*a, *b, t);
      EXPECT_EQ(r.verdict, Verdict::kPassed)
          << LayerName(layer) << " seed " << seed << ": "
          << r.Format("model", "impl");
    }
  }
}

}  // namespace
}  // namespace schedtrace::properties
