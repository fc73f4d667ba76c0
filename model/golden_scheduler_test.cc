// Replays every golden scheduler-layer trace recorded from upstream v1.26.7
// against the model's scheduler system: each must pass.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/codec.h"
#include "harness/replay.h"
#include "model/system.h"

namespace schedtrace::model {
namespace {

std::string GoldenSchedulerDir() {
  return std::string(SCHEDTRACE_SOURCE_DIR) +
         "/golden/upstream-v1.26.7/scheduler";
}

std::vector<std::string> GoldenSchedulerTraces() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(GoldenSchedulerDir(), ec)) {
    if (entry.path().extension() == ".jsonl") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(GoldenSchedulerTest, CorpusIsThere) {
  // The recorded corpus: 22 hand-written scenarios and 67 random traces.
  EXPECT_EQ(GoldenSchedulerTraces().size(), 89u);
}

class GoldenSchedulerTrace : public testing::TestWithParam<std::string> {};

TEST_P(GoldenSchedulerTrace, Passes) {
  std::string path = GoldenSchedulerDir() + "/" + GetParam() + ".jsonl";
  absl::StatusOr<Trace> trace = ReadTraceFile(path);
  ASSERT_TRUE(trace.ok()) << trace.status();
  std::unique_ptr<System> sut = NewSchedulerSystem();
  TraceResult result = Replay(*sut, *trace);
  EXPECT_EQ(result.verdict, Verdict::kPassed)
      << VerdictName(result.verdict) << " " << result.message
      << (result.divergence ? result.divergence->Format(path) : "");
  EXPECT_EQ(result.steps_run, static_cast<int>(trace->steps.size()));
}

INSTANTIATE_TEST_SUITE_P(Upstream, GoldenSchedulerTrace,
                         testing::ValuesIn(GoldenSchedulerTraces()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace schedtrace::model
