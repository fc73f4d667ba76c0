// The step source's informer world (run/informer_world.h) reads from the
// outs alone what the state shows: on every golden trace recorded from
// upstream and every handwritten one, after every step, the pods it has
// waiting, parked and assumed are those the recorded state shows.
#include <algorithm>
#include <string>
#include <vector>

#include "core/out_state_json.h"
#include "gtest/gtest.h"
#include "run/informer_world.h"
#include "testkit/golden_test_util.h"

namespace schedtrace {
namespace {

// Whether the world's view of `f` matches the recorded states; the first
// mismatch in `why`.
bool Agrees(const GoldenFile& f, std::string& why) {
  InformerWorld world(f.trace.header.layer,
                      f.trace.header.config.assumed_pod_ttl_ms);
  int n = 0;
  for (const Step& step : f.trace.steps) {
    ++n;
    if (!step.expect || !step.expect->out || !step.expect->state) continue;
    absl::StatusOr<StepOut> out = OutFromJson(*step.expect->out);
    absl::StatusOr<State> state = StateFromJson(*step.expect->state);
    if (!out.ok() || !state.ok() || out->fatal) return true;
    world.Observe(step, *out);
    const std::string at = f.path + " step " + std::to_string(n) + ": ";
    if (state->waiting && *state->waiting != world.waiting()) {
      why = at + "waiting";
      return false;
    }
    if (state->parked && *state->parked != world.parked()) {
      why = at + "parked";
      return false;
    }
    if (f.trace.header.layer == Layer::kCache && state->cache) {
      const PodPtr& pod = step.pod ? step.pod : step.new_pod;
      const bool shown =
          pod && std::binary_search(state->cache->assumed.begin(),
                                    state->cache->assumed.end(), pod->Key());
      if (pod && shown != world.Assumed(pod->Key())) {
        why = at + "assumed " + pod->Key();
        return false;
      }
    }
  }
  return true;
}

TEST(InformerWorldAgreesTest, WithEveryRecordedState) {
  for (Layer layer : {Layer::kCache, Layer::kScheduler}) {
    int checked = 0;
    for (const GoldenFile& f : ReadGoldenLayer(GoldenDir(), layer)) {
      if (f.path.find("/upstream-v1.26.7/") == std::string::npos &&
          f.path.find("/handwritten/") == std::string::npos) {
        continue;
      }
      std::string why;
      EXPECT_TRUE(Agrees(f, why)) << why;
      ++checked;
    }
    EXPECT_GT(checked, 20) << LayerName(layer);
  }
}

}  // namespace
}  // namespace schedtrace
