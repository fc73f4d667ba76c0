// The model's SnapshotInto writes what its Snapshot returns, into a State
// reused from step to step as the fuzz targets reuse it: before Configure, at
// every step of every golden trace and of generated traces of each layer,
// from a dirty State (CheckSnapshotIntoEverywhere,
// harness/snapshot_into_check.h).
#include <string>

#include "gtest/gtest.h"
#include "harness/snapshot_into_check.h"
#include "model/system.h"

namespace schedtrace::model {
namespace {

TEST(SnapshotIntoTest, AgreesWithSnapshotEverywhere) {
  absl::StatusOr<SnapshotIntoCoverage> checked = CheckSnapshotIntoEverywhere(
      &NewSystem, &NewSystem, std::string(SCHEDTRACE_SOURCE_DIR) + "/golden");
  ASSERT_TRUE(checked.ok()) << checked.status();
  // 168 queue, 86 cache and 89 scheduler traces from upstream alone.
  EXPECT_GE(checked->carried_traces, 168 + 86 + 89);
}

}  // namespace
}  // namespace schedtrace::model
