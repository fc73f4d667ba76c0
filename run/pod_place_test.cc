#include "run/pod_place.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

State QueueOf(std::vector<QueuedPod> active, std::vector<QueuedPod> backoff,
              std::vector<QueuedPod> unschedulable) {
  State s;
  s.queue = QueueState{std::move(active), std::move(backoff),
                       std::move(unschedulable), 0, -1};
  s.nominated = Nominated{};
  return s;
}

TEST(PlacesOfTest, EachQueueWithWhatItSays) {
  State s = QueueOf({{"d/x", 0}, {"d/a", 2}}, {{"d/b", 1, 3500}},
                    {{"d/c", 1, 0, {"NodeAffinity", "NodeResourcesFit"}},
                     {"d/g", 0, 0, {}, true}});
  auto p = PlacesOf(s, {"d/a", "d/b", "d/c", "d/g"}, {});
  EXPECT_EQ(p["d/a"].where, "activeQ #2");
  EXPECT_EQ(p["d/a"].attempts, 2);
  EXPECT_EQ(p["d/b"].where, "backoffQ until 3500");
  EXPECT_EQ(p["d/b"].attempts, 1);
  EXPECT_EQ(p["d/c"].where, "unschedulable [NodeAffinity, NodeResourcesFit]");
  EXPECT_EQ(p["d/g"].where, "unschedulable (gated)");
  EXPECT_EQ(p["d/g"].attempts, 0);
  EXPECT_THAT(p["d/c"].places,
              ElementsAre("unschedulable [NodeAffinity, NodeResourcesFit]"));
}

TEST(PlacesOfTest, APodInTwoPlacesShowsBoth) {
  State s = QueueOf({{"d/p", 1}}, {}, {{"d/p", 1, 0, {"NodeResourcesFit"}}});
  auto p = PlacesOf(s, {"d/p"}, {});
  EXPECT_EQ(p["d/p"].where, "activeQ #1 + unschedulable [NodeResourcesFit]");
  EXPECT_THAT(p["d/p"].places,
              ElementsAre("activeQ #1", "unschedulable [NodeResourcesFit]"));
  EXPECT_EQ(p["d/p"].attempts, 1);
  // Entries that disagree on attempts say each their own.
  State t = QueueOf({{"d/p", 2}, {"d/p", 1}}, {{"d/p", 1, 900}}, {});
  auto q = PlacesOf(t, {"d/p"}, {});
  EXPECT_EQ(q["d/p"].where,
            "activeQ #1 (attempts 2) + activeQ #2 (attempts 1) + backoffQ "
            "until 900 (attempts 1)");
  EXPECT_FALSE(q["d/p"].attempts.has_value());
  // Two places never read as one: the text of one place differs.
  EXPECT_NE(p["d/p"],
            PlacesOf(QueueOf({{"d/p", 1}}, {}, {}), {"d/p"}, {})["d/p"]);
}

TEST(PlacesOfTest, InFlightGoneAndNoState) {
  State s = QueueOf({}, {}, {});
  auto p = PlacesOf(s, {"d/a", "d/b"}, {"d/a"});
  EXPECT_EQ(p["d/a"].where, "in flight");
  EXPECT_EQ(p["d/b"].where, "gone");
  EXPECT_TRUE(p["d/a"].places.empty());
  auto none = PlacesOf(State{}, {"d/a"}, {"d/a"});
  EXPECT_EQ(none["d/a"].where, "?");
}

TEST(PlacesOfTest, NominationsIncludingTheEmptyNode) {
  State s = QueueOf({{"d/a", 0}}, {}, {});
  s.nominated = Nominated{{"n1", {"d/a"}}, {"", {"d/b"}}};
  auto p = PlacesOf(s, {"d/a", "d/b"}, {});
  EXPECT_EQ(p["d/a"].nominated, "n1");
  EXPECT_EQ(p["d/b"].nominated, "\"\"");
  EXPECT_EQ(p["d/b"].where, "gone");  // nominated, in no queue
}

State Scheduler() {
  State s = QueueOf({}, {}, {});
  s.cache = CacheState{};
  s.waiting = std::vector<std::string>{};
  s.parked = std::vector<std::string>{};
  return s;
}

TEST(PlacesOfTest, TheSchedulingAndBindingCycle) {
  State s = Scheduler();
  s.cache->nodes = {{"n1", true, {"d/b", "d/p", "d/w"}, {}},
                    {"n2", false, {"d/x"}, {}}};
  s.cache->assumed = {"d/b", "d/p", "d/w"};
  s.cache->binding_finished = {"d/b"};
  s.waiting = std::vector<std::string>{"d/w"};
  s.parked = std::vector<std::string>{"d/p"};
  auto p = PlacesOf(s, {"d/w", "d/p", "d/b", "d/x"}, {});
  EXPECT_EQ(p["d/w"].where, "waiting on Permit (n1)");
  EXPECT_EQ(p["d/p"].where, "parked before bind (n1)");
  EXPECT_EQ(p["d/b"].where, "assumed on n1 (binding finished)");
  EXPECT_EQ(p["d/x"].where, "bound on n2 (placeholder node)");
}

TEST(PlacesOfTest, AnythingUnusualAroundACycleIsSpelledOut) {
  State s = Scheduler();
  // Parked with its binding finished already; waiting and not assumed;
  // counted twice; assumed on no node; queued while parked.
  s.cache->nodes = {{"n1", true, {"d/p", "d/w", "d/2", "d/2"}, {}}};
  s.cache->assumed = {"d/p", "d/0"};
  s.cache->binding_finished = {"d/p"};
  s.waiting = std::vector<std::string>{"d/w"};
  s.parked = std::vector<std::string>{"d/p", "d/q"};
  s.queue->active = {{"d/q", 0}};
  auto p = PlacesOf(s, {"d/p", "d/w", "d/2", "d/0", "d/q"}, {});
  EXPECT_EQ(p["d/p"].where,
            "parked before bind + assumed on n1 (binding finished)");
  EXPECT_EQ(p["d/w"].where, "waiting on Permit + bound on n1");
  EXPECT_EQ(p["d/2"].where, "bound on n1 (counted 2 times)");
  EXPECT_EQ(p["d/0"].where, "assumed (on no node)");
  EXPECT_EQ(p["d/q"].where, "activeQ #1 + parked before bind");
}

TEST(PlacesOfTest, OnlyWhatASideShows) {
  State s = Scheduler();
  s.queue->backoff = {{"d/b", 1, 1700}};
  s.cache->nodes = {{"n1", true, {"d/w"}, {}}};
  s.cache->assumed = {"d/w"};
  s.waiting = std::vector<std::string>{"d/w"};
  const std::vector<std::string> unshown = {"queue.backoff", "waiting",
                                            "parked", "cache.assumed"};
  auto p = PlacesOf(s, {"d/b", "d/w"}, {}, unshown);
  EXPECT_EQ(p["d/b"].where,
            "not in activeQ, unschedulablePods, cache nodes (backoffQ, "
            "assumed pods, waiting, parked not shown)");
  // Seen on a node, not knowing whether it is assumed: "on", not "bound".
  EXPECT_EQ(p["d/w"].where, "on n1");
  // A side that shows nothing that holds a pod cannot place it.
  auto none = PlacesOf(s, {"d/b"}, {}, PlaceKeys(Layer::kScheduler));
  EXPECT_EQ(none["d/b"].where, "?");
}

TEST(PlaceKeysTest, ThoseOfTheLayersParts) {
  EXPECT_THAT(PlaceKeys(Layer::kQueue),
              ElementsAre("queue.active", "queue.backoff",
                          "queue.unschedulable", "nominated"));
  EXPECT_THAT(
      PlaceKeys(Layer::kCache),
      ElementsAre("cache.nodes", "cache.assumed", "cache.bindingFinished"));
  EXPECT_EQ(PlaceKeys(Layer::kScheduler).size(), 9);
}

TEST(FormatPlaceTest, NotesThenOut) {
  PodPlace p;
  p.where = "backoffQ until 3500";
  EXPECT_EQ(FormatPlace(p), "backoffQ until 3500");
  p.attempts = 1;
  p.nominated = "n1";
  EXPECT_EQ(FormatPlace(p), "backoffQ until 3500 (attempts 1, nominated n1)");
  p.note = "deleted at step 7";
  p.out = "status Unschedulable";
  EXPECT_EQ(FormatPlace(p),
            "backoffQ until 3500 (attempts 1, nominated n1, deleted at step "
            "7); out: status Unschedulable");
}

TEST(UnshownPlaceKeysTest, AStateLeavesOutItsAbsentPartsAndUnreportedKeys) {
  State s = QueueOf({}, {}, {});
  s.nominated.reset();
  EXPECT_THAT(UnshownPlaceKeys(s, Layer::kQueue, nullptr),
              ElementsAre("nominated"));
  const ReportsState no_backoff = [](std::string_view key) {
    return key != "queue.backoff";
  };
  EXPECT_THAT(UnshownPlaceKeys(s, Layer::kQueue, no_backoff),
              ElementsAre("queue.backoff", "nominated"));
  EXPECT_THAT(UnshownPlaceKeys(Scheduler(), Layer::kScheduler, nullptr),
              IsEmpty());
}

TEST(UnshownPlaceKeysTest, AnExpectationLeavesOutTheKeysItOmits) {
  const nlohmann::json expected = nlohmann::json::parse(
      R"({"queue": {"active": [], "unschedulable": []}, "waiting": []})");
  EXPECT_THAT(UnshownPlaceKeys(expected, Layer::kScheduler),
              ElementsAre("queue.backoff", "nominated", "cache.nodes",
                          "cache.assumed", "cache.bindingFinished", "parked"));
  EXPECT_THAT(
      UnshownPlaceKeys(nlohmann::json(), Layer::kCache),
      ElementsAre("cache.nodes", "cache.assumed", "cache.bindingFinished"));
}

TEST(SamePlaceTest, OutsAsideEveryFieldCounts) {
  PodPlace a;
  a.where = "activeQ #1";
  a.attempts = 1;
  PodPlace b = a;
  b.out = "popped";
  EXPECT_TRUE(SamePlace(a, b));
  b.note = "popped at step 2";
  EXPECT_FALSE(SamePlace(a, b));
  b = a;
  b.attempts = 2;
  EXPECT_FALSE(SamePlace(a, b));
  b = a;
  b.nominated = "n1";
  EXPECT_FALSE(SamePlace(a, b));
}

}  // namespace
}  // namespace schedtrace
