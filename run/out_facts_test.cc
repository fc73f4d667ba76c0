#include "run/out_facts.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;

constexpr char kCycle[] = R"({
  "result": {"pod": "d/a", "outcome": "scheduled", "node": "n1"},
  "bindings": [{"pod": "d/a", "node": "n1"}],
  "statusUpdates": [{"pod": "d/b", "reason": "Unschedulable",
                     "nominatedNodeName": "n2"}],
  "events": [{"pod": "d/b", "reason": "FailedScheduling"},
             {"pod": "d/a", "reason": "Scheduled"}]
})";

TEST(PodsOfOutTest, EveryPodNamedOnceInOrder) {
  std::vector<std::string> keys = {"d/z"};
  PodsOfOut(json::parse(kCycle), keys);
  EXPECT_THAT(keys, ElementsAre("d/z", "d/a", "d/b"));
  PodsOfOut(json::parse(R"({"popped": "d/q", "attempts": 2})"), keys);
  EXPECT_THAT(keys, ElementsAre("d/z", "d/a", "d/b", "d/q"));
  PodsOfOut(json::array(), keys);  // not an out: nothing
  EXPECT_EQ(keys.size(), 4);
}

TEST(OutFactsTest, WhatTheOutSaysAboutOnePod) {
  const json out = json::parse(kCycle);
  EXPECT_EQ(OutFacts(out, "d/a", {}),
            "cycle: scheduled on n1, bound to n1, event Scheduled");
  EXPECT_EQ(OutFacts(out, "d/b", {}),
            "status Unschedulable (nominated n2), event FailedScheduling");
  EXPECT_EQ(OutFacts(out, "d/c", {}), "");
}

TEST(OutFactsTest, ACyclesPluginsAndAPopWithoutACycle) {
  EXPECT_EQ(OutFacts(json::parse(R"({"result": {"pod": "d/a",
                "outcome": "unschedulable",
                "plugins": ["NodeResourcesFit", 7]}})"),
                     "d/a", {}),
            "cycle: unschedulable [NodeResourcesFit, 7]");
  EXPECT_EQ(OutFacts(json::parse(R"({"popped": "d/a"})"), "d/a", {}), "popped");
}

TEST(OutFactsTest, AnErrorBelongsToTheStepsOwnPods) {
  const json out = json::parse(R"({"error": true, "fatal": true})");
  EXPECT_EQ(OutFacts(out, "d/a", {"d/a"}), "error, fatal");
  EXPECT_EQ(OutFacts(out, "d/b", {"d/a"}), "");
}

TEST(PoppedByTest, PoppedElseTheCyclesPod) {
  EXPECT_EQ(PoppedBy(json::parse(R"({"popped": "d/a"})")), "d/a");
  EXPECT_EQ(PoppedBy(json::parse(kCycle)), "d/a");
  EXPECT_EQ(PoppedBy(json::parse("{}")), "");
  EXPECT_EQ(PoppedBy(json()), "");
}

TEST(AttemptsInTest, OnlyAnIntegerCounts) {
  EXPECT_EQ(AttemptsIn(json::parse(R"({"attempts": 3})")), 3);
  EXPECT_EQ(AttemptsIn(json::parse(R"({"attempts": "3"})")), std::nullopt);
  EXPECT_EQ(AttemptsIn(json::parse("{}")), std::nullopt);
  EXPECT_EQ(AttemptsIn(json()), std::nullopt);
}

}  // namespace
}  // namespace schedtrace
