#include "cli/progress.h"

#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

TEST(ProgressTest, LineCountsFailuresAndEstimatesTheRest) {
  // 10 of 40 in 5 s: 30 more at 0.5 s each.
  EXPECT_EQ(Progress::Line("model", 10, 40, 0, 5.0), "[10/40] model  ETA 0:15");
  EXPECT_EQ(Progress::Line("exec:./s", 100, 425, 3, 60.0),
            "[100/425] exec:./s  3 failed  ETA 3:15");
  // Nothing done yet, or everything: no estimate.
  EXPECT_EQ(Progress::Line("impl", 0, 425, 0, 0.0), "[  0/425] impl");
  EXPECT_EQ(Progress::Line("impl", 425, 425, 1, 9.0),
            "[425/425] impl  1 failed");
}

}  // namespace
}  // namespace schedtrace::cli
