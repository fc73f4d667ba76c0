// `schedtrace wakeups` through the real binary: on recorded traces whose
// wake-ups each version makes or loses, on generated traces, and its usage
// errors.
#include <filesystem>
#include <string>

#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class WakeUpsCliTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    fs::create_directories(dir_ / "traces");
    fs::copy_file(fs::path(SCHEDTRACE_SOURCE_DIR) /
                      "golden/regression/upstream/scheduler/"
                      "stale-tombstone-wakes-no-one.jsonl",
                  dir_ / "traces" / "tomb.jsonl");
  }
  std::string Traces() const { return (dir_ / "traces").string(); }
};

// The stale tombstone: v1.30.12 makes b's wake-up, v1.37.2 loses it, and
// says which upstream violation that is.
TEST_F(WakeUpsCliTest, RecordedTracesOnEachVersion) {
  CliResult r = RunSchedtrace("wakeups --versions=v1.30.12,v1.37.2 " +
                              Traces() + " 2>&1");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("1 traces, the scheduler layer's measured "
                                  "on each version\n"
                                  "v1.30.12: 1 traces, 7 steps\n"
                                  "  wake-ups owed: 1 in 1 traces (100.0% of "
                                  "the traces); made in the step: 1 "
                                  "(100.0%), lost: 0\n"));
  EXPECT_THAT(r.output,
              HasSubstr("v1.37.2: 1 traces, 7 steps\n"
                        "  wake-ups owed: 1 in 1 traces (100.0% of the "
                        "traces); made in the step: 0 (0.0%), lost: 1\n"
                        "    lost 1: known upstream "
                        "stale-tombstone-wakes-no-one\n"));
}

TEST_F(WakeUpsCliTest, GeneratedTracesAndUsage) {
  CliResult r = RunSchedtrace(
      "wakeups --versions=v1.37.2 --count=5 --seed=3 --steps=100 "
      "--pods=20 --nodes=2 --wake-ups=0.1 2>&1");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("5 generated scheduler-layer traces per version "
                        "(seeds 3..7, 100 steps)\nv1.37.2: 5 traces, "));
  EXPECT_THAT(r.output, HasSubstr("  moves out of unschedulablePods: "));

  EXPECT_EQ(RunSchedtrace("wakeups --count=0 2>&1").status, 2);
  CliResult mixed = RunSchedtrace("wakeups --seed=3 " + Traces() + " 2>&1");
  EXPECT_EQ(mixed.status, 2);
  EXPECT_THAT(mixed.output, HasSubstr("--seed is for generated traces"));
  // No scheduler-layer trace: nothing measured.
  fs::create_directories(dir_ / "queue");
  fs::copy_file(fs::path(SCHEDTRACE_SOURCE_DIR) /
                    "golden/upstream-v1.26.7/queue/backoff-doubles.jsonl",
                dir_ / "queue" / "q.jsonl");
  EXPECT_EQ(
      RunSchedtrace("wakeups --versions=v1.37.2 " + (dir_ / "queue").string())
          .status,
      5);
}

}  // namespace
}  // namespace schedtrace::cli
