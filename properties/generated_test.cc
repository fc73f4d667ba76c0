// Random valid scheduler-layer traces (run/generator.h) recorded from
// the model must replay on a fresh model exactly (the model is
// deterministic) and fire no property that is not a known upstream
// violation.
#include <map>
#include <string>

#include "core/codec.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "properties/checker.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::properties {
namespace {

TEST(GeneratedTraceTest, ModelIsDeterministicAndKeepsEveryProperty) {
  std::map<std::string, int> known;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    std::unique_ptr<System> recorder = model::NewSystem();
    absl::StatusOr<Trace> trace =
        GenerateSchedulerTrace(*recorder, {.seed = seed, .steps = 150});
    ASSERT_TRUE(trace.ok()) << trace.status();
    // Through the codec, as a user would get it from `schedtrace gen`.
    absl::StatusOr<Trace> decoded =
        ParseTrace(EncodeTrace(*trace), "seed-" + std::to_string(seed));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ASSERT_EQ(decoded->steps.size(), trace->steps.size());
    std::unique_ptr<System> sut = model::NewSystem();
    ReplayOptions options;
    options.check = AsStepCheck(decoded->header, &known);
    TraceResult r = Replay(*sut, *decoded, options);
    EXPECT_EQ(r.verdict, Verdict::kPassed)
        << "seed " << seed << ": " << r.message
        << (r.divergence ? r.divergence->Format(decoded->path) : "");
  }
}

TEST(GeneratedTraceTest, SameSeedSameTrace) {
  std::unique_ptr<System> a = model::NewSystem();
  std::unique_ptr<System> b = model::NewSystem();
  absl::StatusOr<Trace> x = GenerateSchedulerTrace(*a, {.seed = 9});
  absl::StatusOr<Trace> y = GenerateSchedulerTrace(*b, {.seed = 9});
  ASSERT_TRUE(x.ok() && y.ok());
  EXPECT_EQ(EncodeTrace(*x), EncodeTrace(*y));
  absl::StatusOr<Trace> z = GenerateSchedulerTrace(*b, {.seed = 10});
  ASSERT_TRUE(z.ok());
  EXPECT_NE(EncodeTrace(*x), EncodeTrace(*z));
}

}  // namespace
}  // namespace schedtrace::properties
