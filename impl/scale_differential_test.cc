// impl against the model at a larger scale than the other differential
// tests (LargePoolOptions): 40 pods and 12 nodes instead of at most 9 and 5, so
// that impl's indexed heaps grow past a few levels, its interned ids and flat
// maps grow and rehash, and a scheduling cycle sees many nodes. The model
// records, impl replays every expectation (out and state) with every property
// checked.
#include <algorithm>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/checker.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::impl {
namespace {

class ScaleDifferentialTest : public testing::TestWithParam<Layer> {};

TEST_P(ScaleDifferentialTest, ImplAgreesWithTheModelOnLargePools) {
  size_t most_queued = 0, most_nodes = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const GenOptions options = LargePoolOptions(seed);
    std::unique_ptr<System> model = model::NewSystem();
    absl::StatusOr<Trace> trace = GenerateTrace(GetParam(), *model, options);
    ASSERT_TRUE(trace.ok()) << trace.status();
    ReplayOptions replay;
    const StepCheck properties =
        properties::AsStepCheck(trace->header, nullptr);
    replay.check = [&](const State& before, const Step& step,
                       const StepOut& out, const State& after,
                       const StateTouch& touch) {
      if (after.queue) {
        most_queued =
            std::max(most_queued, after.queue->active.size() +
                                      after.queue->backoff.size() +
                                      after.queue->unschedulable.size());
      }
      if (after.cache) {
        most_nodes = std::max(most_nodes, after.cache->nodes.size());
      }
      return properties(before, step, out, after, touch);
    };
    std::unique_ptr<System> impl = NewSystem();
    TraceResult r = Replay(*impl, *trace, replay);
    ASSERT_EQ(r.verdict, Verdict::kPassed)
        << "seed " << seed << ": " << r.message
        << (r.divergence ? r.divergence->Format(trace->header.name) : "");
  }
  // The scale is really reached: many pods queued at once, many nodes (at
  // least 15 queued: the resource corners, PodResourceCorners, make some
  // pods fit anywhere).
  if (GetParam() != Layer::kCache) {
    EXPECT_GE(most_queued, 15u);
  }
  if (GetParam() != Layer::kQueue) {
    EXPECT_GE(most_nodes, 9u);
  }
}

INSTANTIATE_TEST_SUITE_P(Layers, ScaleDifferentialTest,
                         testing::Values(Layer::kQueue, Layer::kCache,
                                         Layer::kScheduler),
                         [](const testing::TestParamInfo<Layer>& info) {
                           return std::string(LayerName(info.param));
                         });

}  // namespace
}  // namespace schedtrace::impl
