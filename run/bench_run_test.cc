#include "run/bench_run.h"

#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::HasSubstr;

// Records what it was asked to do; fails or goes fatal on request.
class FakeSystem : public System {
 public:
  absl::Status Configure(const TraceHeader& header) override {
    configured_layer = header.layer;
    return configure_status;
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    applied.push_back(step.line);
    if (step.line == fail_at_line) return absl::InternalError("boom");
    StepOut out;
    out.fatal = step.line == fatal_at_line;
    return out;
  }
  State Snapshot() const override {
    ++snapshots;
    return State{};
  }

  absl::Status configure_status;
  std::optional<Layer> configured_layer;
  std::vector<int> applied;
  int fail_at_line = -1;
  int fatal_at_line = -1;
  mutable int snapshots = 0;
};

const char kHeader[] = R"({"schedtrace":1,"layer":"scheduler","config":{}})";

std::unique_ptr<TraceStream> Stream(const std::string& text) {
  auto s = TraceStream::FromStream(std::make_unique<std::istringstream>(text),
                                   "b.jsonl");
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

// Line i+2 is step i: `schedule_one` at odd i, `flush_backoff` at even i.
std::string Steps(int n) {
  std::string text = std::string(kHeader) + "\n";
  for (int i = 0; i < n; ++i) {
    text += "{\"t\":" + std::to_string(i) + ",\"op\":\"" +
            (i % 2 ? "schedule_one" : "flush_backoff") + "\"}\n";
  }
  return text;
}

TEST(RunBenchTest, AppliesEveryStepAcrossChunksAndCountsCycles) {
  FakeSystem sut;
  auto s = Stream(Steps(11));
  BenchOutcome o = RunBench(sut, *s, {.chunk = 4});
  ASSERT_TRUE(o.status.ok()) << o.status;
  EXPECT_EQ(sut.configured_layer, Layer::kScheduler);
  EXPECT_EQ(sut.applied.size(), 11u);
  EXPECT_EQ(sut.applied.front(), 2);
  EXPECT_EQ(sut.applied.back(), 12);
  EXPECT_EQ(o.result.steps, 11);
  EXPECT_EQ(o.result.cycles, 5);
  EXPECT_FALSE(o.result.truncated);
  EXPECT_EQ(sut.snapshots, 0);  // only Apply runs
  EXPECT_GT(o.result.apply_seconds, 0);
  EXPECT_GT(o.result.apply_cpu_seconds, 0);
  EXPECT_GE(o.result.wall_seconds, o.result.apply_seconds);
  EXPECT_GT(o.result.peak_rss_bytes, 0);
  EXPECT_NEAR(o.result.EventsPerSecond() / o.result.CyclesPerSecond(),
              11.0 / 5.0, 1e-9);
}

TEST(RunBenchTest, MaxStepsAppliesAPrefixAndSaysSo) {
  FakeSystem sut;
  auto s = Stream(Steps(10));
  BenchOutcome o = RunBench(sut, *s, {.max_steps = 7, .chunk = 3});
  ASSERT_TRUE(o.status.ok()) << o.status;
  EXPECT_EQ(sut.applied.size(), 7u);
  EXPECT_EQ(o.result.cycles, 3);
  EXPECT_TRUE(o.result.truncated);

  FakeSystem whole;
  auto all = Stream(Steps(10));
  BenchOutcome exact = RunBench(whole, *all, {.max_steps = 10, .chunk = 3});
  EXPECT_EQ(whole.applied.size(), 10u);
  EXPECT_FALSE(exact.result.truncated);
}

TEST(RunBenchTest, BadInputStopsWithFileLineAndIsFlagged) {
  FakeSystem sut;
  auto s = Stream(Steps(3) + "{\"t\":99,\"op\":\"q_fly\"}\n");
  BenchOutcome o = RunBench(sut, *s, {.chunk = 2});
  EXPECT_FALSE(o.status.ok());
  EXPECT_TRUE(o.bad_input);
  EXPECT_THAT(o.status.message(), HasSubstr("b.jsonl:5: field \"op\""));
}

TEST(RunBenchTest, SystemErrorsNameTheStepAndAreNotBadInput) {
  FakeSystem sut;
  sut.fail_at_line = 4;
  auto s = Stream(Steps(6));
  BenchOutcome o = RunBench(sut, *s, {});
  EXPECT_FALSE(o.status.ok());
  EXPECT_FALSE(o.bad_input);
  EXPECT_THAT(o.status.message(), HasSubstr("b.jsonl:4: flush_backoff: boom"));
  EXPECT_EQ(o.result.steps, 2);

  FakeSystem unconfigurable;
  unconfigurable.configure_status = absl::UnimplementedError("not yet");
  auto s2 = Stream(Steps(2));
  BenchOutcome u = RunBench(unconfigurable, *s2, {});
  EXPECT_EQ(u.status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_FALSE(u.bad_input);
  EXPECT_TRUE(unconfigurable.applied.empty());
}

TEST(RunBenchTest, AFatalStepEndsTheTrace) {
  FakeSystem sut;
  sut.fatal_at_line = 3;
  auto s = Stream(Steps(6));
  BenchOutcome o = RunBench(sut, *s, {});
  ASSERT_TRUE(o.status.ok());
  EXPECT_TRUE(o.result.fatal);
  EXPECT_EQ(o.result.steps, 2);
  EXPECT_EQ(sut.applied.size(), 2u);
}

}  // namespace
}  // namespace schedtrace
