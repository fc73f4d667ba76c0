// impl against the model on random scheduler-layer traces: the model records
// every step's out and state, impl must replay all of them exactly.
#include <string>

#include "core/json_codec.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::impl {
namespace {

TEST(SchedulerDifferentialTest, ImplAgreesWithTheModelOnGeneratedTraces) {
  int steps = 0, scheduled = 0, unschedulable = 0, bindings = 0, errors = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    std::unique_ptr<System> model = model::NewSystem();
    GenOptions options{.seed = seed,
                       .steps = 60 + static_cast<int>(seed % 5) * 30,
                       .pods = 4 + static_cast<int>(seed % 6),
                       .nodes = 1 + static_cast<int>(seed % 5)};
    absl::StatusOr<Trace> trace = GenerateSchedulerTrace(*model, options);
    ASSERT_TRUE(trace.ok()) << trace.status();
    std::unique_ptr<System> impl = NewSystem();
    TraceResult r = Replay(*impl, *trace);
    ASSERT_EQ(r.verdict, Verdict::kPassed)
        << "seed " << seed << ": " << r.message
        << (r.divergence ? r.divergence->Format(trace->header.name) : "");
    ASSERT_EQ(r.steps_run, static_cast<int>(trace->steps.size()));
    steps += r.steps_run;
    for (const Step& s : trace->steps) {
      if (!s.expect || !s.expect->out) continue;
      const std::string out = s.expect->out->dump();
      scheduled += out.find("\"scheduled\"") != std::string::npos;
      unschedulable += out.find("\"unschedulable\"") != std::string::npos;
      errors += out.find("\"outcome\":\"error\"") != std::string::npos;
      bindings += out.find("\"bindings\"") != std::string::npos;
    }
  }
  // The generator reaches the cycle's outcomes and the binding path.
  EXPECT_GT(steps, 30000);
  EXPECT_GT(scheduled, 1000);
  EXPECT_GT(unschedulable, 500);
  EXPECT_GT(bindings, 300);
  EXPECT_GT(errors, 10);
}

}  // namespace
}  // namespace schedtrace::impl
