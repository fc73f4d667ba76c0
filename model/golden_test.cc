// Replays every trace of the golden corpus (golden/: upstream-recorded and
// handwritten, all layers) against the model: each must pass, with every
// property checked after every step.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/codec.h"
#include "harness/replay.h"
#include "harness/trace_files.h"
#include "model/system.h"
#include "properties/checker.h"

namespace schedtrace::model {
namespace {

std::string GoldenDir() {
  return std::string(SCHEDTRACE_SOURCE_DIR) + "/golden";
}

std::vector<std::string> GoldenTraces() {
  absl::StatusOr<std::vector<std::string>> files =
      FindTraceFiles({GoldenDir()});
  return files.ok() ? *files : std::vector<std::string>{};
}

TEST(GoldenTest, UpstreamCorpusIsThere) {
  int upstream = 0;
  for (const std::string& f : GoldenTraces()) {
    upstream += f.find("/upstream-v1.26.7/") != std::string::npos;
  }
  // 168 queue, 86 cache and 89 scheduler traces recorded from upstream.
  EXPECT_EQ(upstream, 168 + 86 + 89);
}

class GoldenTrace : public testing::TestWithParam<std::string> {};

TEST_P(GoldenTrace, Passes) {
  const std::string& path = GetParam();
  absl::StatusOr<Trace> trace = ReadTraceFile(path);
  ASSERT_TRUE(trace.ok()) << trace.status();
  std::unique_ptr<System> sut = NewSystem();
  ReplayOptions options;
  options.check = properties::AsStepCheck(trace->header, nullptr);
  TraceResult result = Replay(*sut, *trace, options);
  EXPECT_EQ(result.verdict, Verdict::kPassed)
      << VerdictName(result.verdict) << " " << result.message
      << (result.divergence ? result.divergence->Format(path) : "");
  EXPECT_EQ(result.steps_run, static_cast<int>(trace->steps.size()));
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoldenTrace, testing::ValuesIn(GoldenTraces()),
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
}  // namespace schedtrace::model
