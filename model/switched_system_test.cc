#include "model/switched_system.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "run/replay.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::model {
namespace {

Trace Read(const std::string& rel) {
  const std::string path = GoldenDir() + "/" + rel;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  absl::StatusOr<Trace> trace = ParseTrace(text.str(), path);
  EXPECT_TRUE(trace.ok()) << trace.status();
  return trace.ok() ? *std::move(trace) : Trace{};
}

Verdict RunSwitched(std::string_view spec, const Trace& trace) {
  absl::StatusOr<std::vector<SwitchSetting>> s = ParseSwitchSettings(spec);
  EXPECT_TRUE(s.ok()) << s.status();
  std::unique_ptr<System> sys = NewSystemWithSwitches(*std::move(s));
  return Replay(*sys, trace).verdict;
}

TEST(SwitchedSystemTest, ParsesNamesAndValuesAndRefusesOthers) {
  absl::StatusOr<std::vector<SwitchSetting>> s =
      ParseSwitchSettings("queueing_hints=off,move_request_cycle_removed=on");
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->size(), 2u);
  EXPECT_EQ((*s)[0].which->name, "queueing_hints");
  EXPECT_FALSE((*s)[0].value);
  EXPECT_EQ((*s)[1].which->name, "move_request_cycle_removed");
  EXPECT_TRUE((*s)[1].value);
  EXPECT_FALSE(ParseSwitchSettings("no_such_switch=on").ok());
  EXPECT_FALSE(ParseSwitchSettings("queueing_hints").ok());
  EXPECT_FALSE(ParseSwitchSettings("queueing_hints=false").ok());
}

// The input that pins gated_pod_replaces_unschedulable_record, as v1.35.4
// and v1.36.3 recorded it: each version's recording passes on its own
// profile, and on the other version's only with that switch set as there.
TEST(SwitchedSystemTest, OneSwitchSetAgainstTheVersionDecides) {
  const std::string name =
      "handwritten/queue/gated-add-over-unschedulable-record.jsonl";
  const Trace v135 = Read("upstream-v1.35.4/" + name);
  const Trace v136 = Read("upstream-v1.36.3/" + name);
  EXPECT_EQ(RunSwitched("gated_pod_replaces_unschedulable_record=off", v135),
            Verdict::kPassed);
  EXPECT_NE(RunSwitched("gated_pod_replaces_unschedulable_record=on", v135),
            Verdict::kPassed);
  EXPECT_EQ(RunSwitched("gated_pod_replaces_unschedulable_record=on", v136),
            Verdict::kPassed);
  EXPECT_NE(RunSwitched("gated_pod_replaces_unschedulable_record=off", v136),
            Verdict::kPassed);
}

}  // namespace
}  // namespace schedtrace::model
