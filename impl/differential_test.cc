// impl against the model on random cache-layer traces: the model records,
// impl must replay every expectation (out and state) exactly.
#include <string>

#include "core/json_codec.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::impl {
namespace {

TEST(DifferentialTest, ImplCacheAgreesWithTheModelOnGeneratedTraces) {
  int steps = 0, errors = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    std::unique_ptr<System> model = model::NewSystem();
    absl::StatusOr<Trace> trace = GenerateCacheTrace(
        *model, {.seed = seed, .steps = 80, .pods = 6, .nodes = 3});
    ASSERT_TRUE(trace.ok()) << trace.status();
    std::unique_ptr<System> impl = NewSystem();
    TraceResult r = Replay(*impl, *trace);
    ASSERT_EQ(r.verdict, Verdict::kPassed)
        << "seed " << seed << ": " << r.message
        << (r.divergence ? r.divergence->Format(trace->header.name) : "");
    steps += r.steps_run;
    for (const Step& s : trace->steps) {
      errors += s.expect && s.expect->out && s.expect->out->contains("error");
    }
  }
  // The generator reaches both the normal and the error paths.
  EXPECT_GT(steps, 20000);
  EXPECT_GT(errors, 1000);
}

}  // namespace
}  // namespace schedtrace::impl
