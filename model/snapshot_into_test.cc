// The model's SnapshotInto writes what its Snapshot returns, into a State
// reused from step to step as the fuzz targets reuse it: before Configure, at
// every step of generated traces of each layer and of GoldenSample(), from a
// dirty State (CheckSnapshotIntoEverywhere, testkit/snapshot_into_check.h).
// Every step of the whole golden corpus gets the same check in the model's
// golden pass (model/golden_test.cc).
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "model/system.h"
#include "testkit/golden_test_util.h"
#include "testkit/snapshot_into_check.h"

namespace schedtrace::model {
namespace {

TEST(SnapshotIntoTest, AgreesWithSnapshotEverywhere) {
  const std::string sample =
      CopyGoldenSample((std::filesystem::path(testing::TempDir()) /
                        ("model-snapshot-into-" + std::to_string(getpid())))
                           .string());
  absl::StatusOr<SnapshotIntoCoverage> checked =
      CheckSnapshotIntoEverywhere(&NewSystem, &NewSystem, sample);
  std::filesystem::remove_all(sample);
  ASSERT_TRUE(checked.ok()) << checked.status();
  EXPECT_EQ(checked->carried_traces, static_cast<int>(GoldenSample().size()));
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    EXPECT_GT(checked->generated_steps[layer], 2000u) << LayerName(layer);
  }
}

}  // namespace
}  // namespace schedtrace::model
