#include "core/delegating_system.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

// A system that answers with what it was last given, so that each call can
// be seen to have reached it.
class Echo : public System {
 public:
  absl::Status Configure(const TraceHeader& header) override {
    configured_name_ = header.name;
    return header.name == "refuse" ? absl::InvalidArgumentError("refused")
                                   : absl::OkStatus();
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    StepOut out;
    out.popped_present = true;
    out.popped = absl::StrCat("t=", step.t);
    state_.waiting = std::vector<std::string>{configured_name_};
    return out;
  }
  State Snapshot() const override { return state_; }
  void Touched(StateTouch& out) const override {
    out.Clear();
    out.Add(StateTouch::kWaiting);
  }

 private:
  std::string configured_name_;
  State state_;
};

class OneEcho : public DelegatingSystem {
 public:
  OneEcho() : DelegatingSystem("echo") {}
  absl::Status Configure(const TraceHeader& header) override {
    return Delegate(std::make_unique<Echo>(), header);
  }
};

TEST(DelegatingSystemTest, BeforeConfigureApplyFailsNamingTheSystem) {
  OneEcho s;
  Step step;
  absl::StatusOr<StepOut> out = s.Apply(step);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(out.status().message(), "echo: Apply before Configure");
  EXPECT_EQ(s.Snapshot(), State{});
  State state;
  state.waiting = std::vector<std::string>{"stale"};
  s.SnapshotInto(state);
  EXPECT_EQ(state, State{});
  StateTouch touch;
  touch.Clear();
  s.Touched(touch);
  EXPECT_TRUE(touch.all());
}

TEST(DelegatingSystemTest, EveryCallReachesTheChosenSystem) {
  OneEcho s;
  TraceHeader header;
  header.name = "trace-a";
  ASSERT_TRUE(s.Configure(header).ok());
  Step step;
  step.t = 42;
  absl::StatusOr<StepOut> out = s.Apply(step);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->popped, "t=42");
  State expected;
  expected.waiting = std::vector<std::string>{"trace-a"};
  EXPECT_EQ(s.Snapshot(), expected);
  State into;
  s.SnapshotInto(into);
  EXPECT_EQ(into, expected);
  StateTouch touch;
  s.Touched(touch);
  EXPECT_FALSE(touch.all());
  EXPECT_TRUE(touch.Touches(StateTouch::kWaiting));
  State refreshed;
  s.RefreshInto(refreshed, touch);
  EXPECT_EQ(refreshed, expected);
}

TEST(DelegatingSystemTest, ConfigureReturnsTheChosenSystemsRefusal) {
  OneEcho s;
  TraceHeader header;
  header.name = "refuse";
  absl::Status status = s.Configure(header);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "refused");
}

}  // namespace
}  // namespace schedtrace
