// Replays every golden trace (upstream-recorded and handwritten) of the
// three layers — queue, cache and scheduler — against impl: each must pass,
// every step run.
#include <cctype>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/codec.h"
#include "harness/replay.h"
#include "harness/trace_files.h"
#include "impl/system.h"

namespace schedtrace::impl {
namespace {

std::string GoldenDir() {
  return std::string(SCHEDTRACE_SOURCE_DIR) + "/golden";
}

std::vector<std::string> Traces() {
  absl::StatusOr<std::vector<std::string>> files =
      FindTraceFiles({GoldenDir() + "/upstream-v1.26.7/queue",
                      GoldenDir() + "/handwritten/queue",
                      GoldenDir() + "/upstream-v1.26.7/cache",
                      GoldenDir() + "/handwritten/cache",
                      GoldenDir() + "/upstream-v1.26.7/scheduler",
                      GoldenDir() + "/handwritten/scheduler"});
  return files.ok() ? *files : std::vector<std::string>{};
}

int CountUnder(const std::string& dir) {
  int n = 0;
  for (const std::string& f : Traces()) n += f.find(dir) != std::string::npos;
  return n;
}

TEST(GoldenTest, UpstreamCorpusIsThere) {
  EXPECT_EQ(CountUnder("/upstream-v1.26.7/queue/"), 168);
  EXPECT_EQ(CountUnder("/upstream-v1.26.7/cache/"), 86);
  EXPECT_EQ(CountUnder("/upstream-v1.26.7/scheduler/"), 89);
  EXPECT_GE(CountUnder("/handwritten/scheduler/"), 20);
}

class GoldenTrace : public testing::TestWithParam<std::string> {};

TEST_P(GoldenTrace, Passes) {
  const std::string& path = GetParam();
  absl::StatusOr<Trace> trace = ReadTraceFile(path);
  ASSERT_TRUE(trace.ok()) << trace.status();
  std::unique_ptr<System> sut = NewSystem();
  TraceResult result = Replay(*sut, *trace);
  EXPECT_EQ(result.verdict, Verdict::kPassed)
      << VerdictName(result.verdict) << " " << result.message
      << (result.divergence ? result.divergence->Format(path) : "");
  EXPECT_EQ(result.steps_run, static_cast<int>(trace->steps.size()));
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoldenTrace, testing::ValuesIn(Traces()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name =
                               info.param.substr(GoldenDir().size() + 1);
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace schedtrace::impl
