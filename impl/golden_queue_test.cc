// Replays every queue-layer golden trace (upstream-recorded and handwritten)
// against impl's queue system: each must pass, every step run.
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

std::vector<std::string> QueueTraces() {
  absl::StatusOr<std::vector<std::string>> files =
      FindTraceFiles({GoldenDir() + "/upstream-v1.26.7/queue",
                      GoldenDir() + "/handwritten/queue"});
  return files.ok() ? *files : std::vector<std::string>{};
}

TEST(GoldenQueueTest, UpstreamQueueCorpusIsThere) {
  int upstream = 0;
  for (const std::string& f : QueueTraces()) {
    upstream += f.find("/upstream-v1.26.7/queue/") != std::string::npos;
  }
  EXPECT_EQ(upstream, 168);
}

class GoldenQueueTrace : public testing::TestWithParam<std::string> {};

TEST_P(GoldenQueueTrace, Passes) {
  const std::string& path = GetParam();
  absl::StatusOr<Trace> trace = ReadTraceFile(path);
  ASSERT_TRUE(trace.ok()) << trace.status();
  std::unique_ptr<System> sut = NewQueueSystem();
  TraceResult result = Replay(*sut, *trace);
  EXPECT_EQ(result.verdict, Verdict::kPassed)
      << VerdictName(result.verdict) << " " << result.message
      << (result.divergence ? result.divergence->Format(path) : "");
  EXPECT_EQ(result.steps_run, static_cast<int>(trace->steps.size()));
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoldenQueueTrace,
                         testing::ValuesIn(QueueTraces()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name =
                               info.param.substr(GoldenDir().size() + 1);
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) {
                               c = '_';
                             }
                           }
                           return name;
                         });

}  // namespace
}  // namespace schedtrace::impl
