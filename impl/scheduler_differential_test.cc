// impl against the model on random scheduler-layer traces: the model records
// every step's out and state, impl must replay all of them exactly.
#include <string>

#include "core/json_codec.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::impl {
namespace {

// What the model's recordings of the traces reached.
struct Reached {
  int steps = 0, scheduled = 0, unschedulable = 0, bindings = 0, errors = 0;
};

// Seeds 1..`seeds` of scheduler-layer traces of `upstream`, recorded by the
// model, each replayed on impl (a failure stops the test).
void ReplayGenerated(uint64_t seeds, const std::string& upstream,
                     Reached& reached) {
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    std::unique_ptr<System> model = model::NewSystem();
    GenOptions options{.seed = seed,
                       .steps = 60 + static_cast<int>(seed % 5) * 30,
                       .pods = 4 + static_cast<int>(seed % 6),
                       .nodes = 1 + static_cast<int>(seed % 5)};
    options.upstream = upstream;
    absl::StatusOr<Trace> trace = GenerateSchedulerTrace(*model, options);
    ASSERT_TRUE(trace.ok()) << trace.status();
    ASSERT_EQ(EffectiveUpstream(trace->header.upstream), upstream);
    std::unique_ptr<System> impl = NewSystem();
    TraceResult r = Replay(*impl, *trace);
    ASSERT_EQ(r.verdict, Verdict::kPassed)
        << upstream << " seed " << seed << ": " << r.message
        << (r.divergence ? r.divergence->Format(trace->header.name) : "");
    ASSERT_EQ(r.steps_run, static_cast<int>(trace->steps.size()));
    reached.steps += r.steps_run;
    for (const Step& s : trace->steps) {
      if (!s.expect || !s.expect->out) continue;
      const std::string out = s.expect->out->dump();
      reached.scheduled += out.find("\"scheduled\"") != std::string::npos;
      reached.unschedulable +=
          out.find("\"unschedulable\"") != std::string::npos;
      reached.errors += out.find("\"outcome\":\"error\"") != std::string::npos;
      reached.bindings += out.find("\"bindings\"") != std::string::npos;
    }
  }
}

TEST(SchedulerDifferentialTest, ImplAgreesWithTheModelOnGeneratedTraces) {
  Reached r;
  ReplayGenerated(400, std::string(kDefaultUpstream), r);
  // The generator reaches the cycle's outcomes and the binding path.
  EXPECT_GT(r.steps, 30000);
  EXPECT_GT(r.scheduled, 1000);
  EXPECT_GT(r.unschedulable, 500);
  EXPECT_GT(r.bindings, 300);
  EXPECT_GT(r.errors, 10);
}

// The same from v1.35 on (BackendQueue, the plugins' QueueingHints, the one
// pod handler), as v1.37.2.
TEST(SchedulerDifferentialTest, ImplAgreesWithTheModelOnV137Traces) {
  Reached r;
  ReplayGenerated(150, "v1.37.2", r);
  EXPECT_GT(r.steps, 15000);
  EXPECT_GT(r.scheduled, 450);
  EXPECT_GT(r.unschedulable, 900);
  EXPECT_GT(r.bindings, 300);
}

}  // namespace
}  // namespace schedtrace::impl
