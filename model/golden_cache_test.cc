// Replays every golden cache-layer trace recorded from upstream v1.26.7
// against the model's cache system: each must pass.
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

std::string GoldenCacheDir() {
  return std::string(SCHEDTRACE_SOURCE_DIR) + "/golden/upstream-v1.26.7/cache";
}

std::vector<std::string> GoldenCacheTraces() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(GoldenCacheDir(), ec)) {
    if (entry.path().extension() == ".jsonl") {
      names.push_back(entry.path().stem().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(GoldenCacheTest, CorpusIsThere) {
  // The recorded corpus: 19 hand-written scenarios and 67 random traces.
  EXPECT_EQ(GoldenCacheTraces().size(), 86u);
}

class GoldenCacheTrace : public testing::TestWithParam<std::string> {};

TEST_P(GoldenCacheTrace, Passes) {
  std::string path = GoldenCacheDir() + "/" + GetParam() + ".jsonl";
  absl::StatusOr<Trace> trace = ReadTraceFile(path);
  ASSERT_TRUE(trace.ok()) << trace.status();
  std::unique_ptr<System> sut = NewCacheSystem();
  TraceResult result = Replay(*sut, *trace);
  EXPECT_EQ(result.verdict, Verdict::kPassed)
      << VerdictName(result.verdict) << " " << result.message
      << (result.divergence ? result.divergence->Format(path) : "");
  EXPECT_EQ(result.steps_run, static_cast<int>(trace->steps.size()));
}

INSTANTIATE_TEST_SUITE_P(Upstream, GoldenCacheTrace,
                         testing::ValuesIn(GoldenCacheTraces()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace schedtrace::model
