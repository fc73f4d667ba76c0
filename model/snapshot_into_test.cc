// The model's SnapshotInto writes what its Snapshot returns, into a State
// reused from step to step as the fuzz targets reuse it: at every step of
// every golden trace and of generated traces of each layer, from a dirty
// State (harness/snapshot_into_check.h).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "harness/codec.h"
#include "harness/generator.h"
#include "harness/snapshot_into_check.h"
#include "harness/trace_files.h"
#include "model/system.h"

namespace schedtrace::model {
namespace {

std::vector<Trace> GoldenTraces() {
  absl::StatusOr<std::vector<std::string>> files =
      FindTraceFiles({std::string(SCHEDTRACE_SOURCE_DIR) + "/golden"});
  std::vector<Trace> traces;
  if (!files.ok()) return traces;
  for (const std::string& f : *files) {
    absl::StatusOr<Trace> t = ReadTraceFile(f);
    if (t.ok()) traces.push_back(*std::move(t));
  }
  return traces;
}

class SnapshotIntoLayerTest : public testing::TestWithParam<Layer> {};

TEST_P(SnapshotIntoLayerTest, AgreesOnGoldenTracesFromADirtyState) {
  int traces = 0;
  for (const Trace& trace : GoldenTraces()) {
    if (trace.header.layer != GetParam()) continue;
    ++traces;
    std::unique_ptr<System> sut = NewSystem();
    State reused = DirtyState();
    absl::Status s = CheckSnapshotInto(*sut, trace, reused);
    ASSERT_TRUE(s.ok()) << s;
  }
  EXPECT_GE(traces, 80);  // 168 queue, 86 cache, 89 scheduler from upstream
}

TEST_P(SnapshotIntoLayerTest, AgreesOnGeneratedTracesFromADirtyState) {
  size_t steps = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    GenOptions options{.seed = seed, .steps = 80};
    if (seed % 2 == 0) {
      options.perturb = {.resync = 0.1,
                         .race = 0.1,
                         .tombstone = 0.1,
                         .recreate = 0.1,
                         .recreate_update = 0.1,
                         .node_recreate = 0.1,
                         .node_burst = 0.1};
    }
    options.hostile = seed % 3 == 0;
    std::unique_ptr<System> recorder = NewSystem();
    absl::StatusOr<Trace> trace = GenerateTrace(GetParam(), *recorder, options);
    ASSERT_TRUE(trace.ok()) << trace.status();
    std::unique_ptr<System> sut = NewSystem();
    State reused = DirtyState();
    absl::Status s = CheckSnapshotInto(*sut, *trace, reused);
    ASSERT_TRUE(s.ok()) << "seed " << seed << ": " << s;
    steps += trace->steps.size();
  }
  EXPECT_GE(steps, 40u * 60);
}

INSTANTIATE_TEST_SUITE_P(Layers, SnapshotIntoLayerTest,
                         testing::Values(Layer::kQueue, Layer::kCache,
                                         Layer::kScheduler),
                         [](const testing::TestParamInfo<Layer>& info) {
                           return std::string(LayerName(info.param));
                         });

// One system and one State through every golden trace in turn: each trace
// starts from what the previous one (often of another layer) left.
TEST(SnapshotIntoTest, AgreesWithAStateCarriedAcrossTraces) {
  std::unique_ptr<System> sut = NewSystem();
  State reused = DirtyState();
  int traces = 0;
  for (const Trace& trace : GoldenTraces()) {
    ++traces;
    absl::Status s = CheckSnapshotInto(*sut, trace, reused);
    ASSERT_TRUE(s.ok()) << s;
  }
  EXPECT_GE(traces, 168 + 86 + 89);
}

TEST(SnapshotIntoTest, AgreesBeforeConfigure) {
  std::unique_ptr<System> sut = NewSystem();
  State reused = DirtyState();
  sut->SnapshotInto(reused);
  EXPECT_EQ(reused, sut->Snapshot());
}

}  // namespace
}  // namespace schedtrace::model
