#include "run/state_diff.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using nlohmann::json;

std::vector<Difference> State(const json& expected, const json& actual,
                              const json* sent = nullptr,
                              const ReportsState& reports = nullptr) {
  std::vector<Difference> d;
  DiffState(expected, actual, sent, reports, d);
  return d;
}

json Queue(json active, json backoff = json::array(),
           json unschedulable = json::array()) {
  return {{"queue",
           {{"active", std::move(active)},
            {"backoff", std::move(backoff)},
            {"unschedulable", std::move(unschedulable)},
            {"schedulingCycle", 0},
            {"moveRequestCycle", -1}}},
          {"nominated", json::object()}};
}

json Entry(const std::string& pod, int attempts = 0) {
  return {{"pod", pod}, {"attempts", attempts}};
}

TEST(StateDiffTest, EqualStatesHaveNoDifference) {
  json s = Queue({Entry("d/a"), Entry("d/b")});
  EXPECT_TRUE(State(s, s).empty());
}

TEST(StateDiffTest, PodListsAreMatchedByKeyNotPosition) {
  // d/a is gone, d/c is new: by position every element would differ.
  json expected = Queue({Entry("d/a"), Entry("d/b")});
  json actual = Queue({Entry("d/b"), Entry("d/c", 2)});
  EXPECT_EQ(State(expected, actual),
            (std::vector<Difference>{
                {"state.queue.active[d/a]", "missing",
                 R"({"attempts":0,"pod":"d/a"})", "(absent)"},
                {"state.queue.active[d/c]", "extra", "(absent)",
                 R"({"attempts":2,"pod":"d/c"})"},
            }));
}

TEST(StateDiffTest, MovedIsTheFewestElementsExplainingTheNewOrder) {
  // d/d jumped from last to first: one move, not four.
  json expected =
      Queue({Entry("d/a"), Entry("d/b"), Entry("d/c"), Entry("d/d")});
  json actual = Queue({Entry("d/d"), Entry("d/a"), Entry("d/b"), Entry("d/c")});
  EXPECT_EQ(State(expected, actual),
            (std::vector<Difference>{
                {"state.queue.active[d/d]", "moved", "#4", "#1"}}));
  // Two swapped: the one that went ahead moved.
  EXPECT_EQ(State(Queue({Entry("d/a"), Entry("d/b")}),
                  Queue({Entry("d/b"), Entry("d/a")})),
            (std::vector<Difference>{
                {"state.queue.active[d/b]", "moved", "#2", "#1"}}));
}

TEST(StateDiffTest, ChangedFieldsAreNamedByPodKey) {
  json expected =
      Queue(json::array(),
            {{{"pod", "d/p"}, {"attempts", 1}, {"backoffExpiresAt", 2000}},
             {{"pod", "d/q"}, {"attempts", 1}, {"backoffExpiresAt", 3000}}},
            {{{"pod", "d/u"},
              {"attempts", 1},
              {"plugins", {"NodeResourcesFit"}},
              {"gated", false}}});
  json actual = expected;
  actual["queue"]["backoff"][1]["backoffExpiresAt"] = 4000;
  actual["queue"]["backoff"][1]["attempts"] = 2;
  actual["queue"]["unschedulable"][0]["plugins"] = {"NodeResourcesFit",
                                                    "TaintToleration"};
  actual["queue"]["unschedulable"][0]["gated"] = true;
  EXPECT_EQ(
      State(expected, actual),
      (std::vector<Difference>{
          {"state.queue.backoff[d/q].attempts", "changed", "1", "2"},
          {"state.queue.backoff[d/q].backoffExpiresAt", "changed", "3000",
           "4000"},
          {"state.queue.unschedulable[d/u].gated", "changed", "false", "true"},
          // A list of plugins is a value: shown whole.
          {"state.queue.unschedulable[d/u].plugins", "changed",
           R"(["NodeResourcesFit"])",
           R"(["NodeResourcesFit","TaintToleration"])"},
      }));
}

TEST(StateDiffTest, NodesByNameAndTheirPodsByKey) {
  json node = {{"name", "n1"},
               {"present", true},
               {"pods", {"d/a", "d/b"}},
               {"requested", {{"cpu", 200}}}};
  json expected = {{"cache",
                    {{"nodes", {node}},
                     {"assumed", {"d/a"}},
                     {"bindingFinished", json::array()}}}};
  json actual = expected;
  actual["cache"]["nodes"][0]["pods"] = {"d/b", "d/c"};
  actual["cache"]["nodes"][0]["requested"] = {{"cpu", 300}, {"memory", 5}};
  actual["cache"]["nodes"].push_back({{"name", "n0"},
                                      {"present", false},
                                      {"pods", json::array()},
                                      {"requested", json::object()}});
  actual["cache"]["assumed"] = json::array();
  EXPECT_EQ(
      State(expected, actual),
      (std::vector<Difference>{
          {"state.cache.nodes[n0]", "extra", "(absent)",
           R"({"name":"n0","pods":[],"present":false,"requested":{}})"},
          {"state.cache.nodes[n1].pods[d/a]", "missing", R"("d/a")",
           "(absent)"},
          {"state.cache.nodes[n1].pods[d/c]", "extra", "(absent)", R"("d/c")"},
          {"state.cache.nodes[n1].requested.cpu", "changed", "200", "300"},
          {"state.cache.nodes[n1].requested.memory", "extra", "(absent)", "5"},
          {"state.cache.assumed[d/a]", "missing", R"("d/a")", "(absent)"},
      }));
}

TEST(StateDiffTest, NominatedWaitingAndParkedByKey) {
  json expected = {{"nominated", {{"n1.example", {"d/a", "d/b"}}}},
                   {"waiting", {"d/w"}},
                   {"parked", json::array()}};
  json actual = {{"nominated", {{"n1.example", {"d/b"}}, {"n2", {"d/a"}}}},
                 {"waiting", json::array()},
                 {"parked", {"d/z"}}};
  EXPECT_EQ(State(expected, actual),
            (std::vector<Difference>{
                {"state.nominated.n1.example[d/a]", "missing", R"("d/a")",
                 "(absent)"},
                {"state.nominated.n2", "extra", "(absent)", R"(["d/a"])"},
                {"state.waiting[d/w]", "missing", R"("d/w")", "(absent)"},
                {"state.parked[d/z]", "extra", "(absent)", R"("d/z")"},
            }));
}

TEST(StateDiffTest, RepeatedKeysFallBackToPositions) {
  // d/a twice: keys do not identify elements, so positions do.
  json expected = Queue({Entry("d/a"), Entry("d/a", 1)});
  json actual = Queue({Entry("d/a"), Entry("d/a", 3)});
  EXPECT_EQ(State(expected, actual),
            (std::vector<Difference>{
                {"state.queue.active[1].attempts", "changed", "1", "3"}}));
  // ... and of different lengths, whole.
  actual = Queue(json::array({Entry("d/a")}));
  EXPECT_EQ(State(expected, actual),
            (std::vector<Difference>{
                {"state.queue.active", "changed",
                 R"([{"attempts":0,"pod":"d/a"},{"attempts":1,"pod":"d/a"}])",
                 R"([{"attempts":0,"pod":"d/a"}])"}}));
}

TEST(StateDiffTest, ActualShowsWhatWasSentNotTheDefault) {
  json entry = {{"pod", "d/u"},
                {"attempts", 1},
                {"plugins", json::array()},
                {"gated", true}};
  json expected = Queue(json::array(), json::array(), json::array({entry}));
  json actual = expected;  // the canonical re-encoding of what was sent
  actual["queue"]["unschedulable"][0]["gated"] = false;
  actual["queue"]["unschedulable"][0]["plugins"] = {"X"};
  json sent = {{"queue",
                {{"active", json::array()},
                 {"unschedulable",
                  {{{"pod", "d/u"}, {"attempts", 1}, {"plugins", {"X"}}}}},
                 {"unknownKey", 7}}}};
  EXPECT_EQ(State(expected, actual, &sent),
            (std::vector<Difference>{
                {"state.queue.unschedulable[d/u].gated", "changed", "true",
                 "(absent)"},
                {"state.queue.unschedulable[d/u].plugins", "changed", "[]",
                 R"(["X"])"},
            }));
  // Without what was sent, the canonical value.
  EXPECT_EQ(State(expected, actual)[0].actual, "false");
}

TEST(StateDiffTest, APartTheSystemDoesNotShowIsMissing) {
  json expected = {{"waiting", json::array()},
                   {"queue", {{"active", json(nullptr)}}}};
  json actual = {{"queue", {{"active", json::array()}}}};
  EXPECT_EQ(State(expected, actual),
            (std::vector<Difference>{
                {"state.queue.active", "changed", "null", "[]"},
                {"state.waiting", "missing", "[]", "(absent)"}}));
}

TEST(StateDiffTest, PartsAndKeysLeftOutOrUnreportedAreNotCompared) {
  json expected = {{"queue", {{"schedulingCycle", 4}}},
                   {"waiting", {"d/w"}},
                   {"parked", {"d/p"}}};
  json actual = Queue(json::array({Entry("d/a")}));
  actual["waiting"] = json::array();
  actual["parked"] = json::array();
  auto reports = [](std::string_view path) { return path != "parked"; };
  EXPECT_EQ(State(expected, actual, nullptr, reports),
            (std::vector<Difference>{
                {"state.queue.schedulingCycle", "changed", "4", "0"},
                {"state.waiting[d/w]", "missing", R"("d/w")", "(absent)"}}));
}

TEST(StateDiffTest, OrderIsTheFormatsThenFoundOrder) {
  // Parts in format order (queue before cache, whatever JSON's key order),
  // keys of queue likewise; within a list: missing, extra, moved, changed.
  json expected = Queue({Entry("d/a"), Entry("d/b"), Entry("d/c", 1)});
  expected["queue"]["schedulingCycle"] = 1;
  expected["cache"] = {{"assumed", {"d/x"}}};
  json actual = Queue({Entry("d/c", 2), Entry("d/b"), Entry("d/n")});
  actual["queue"]["backoff"] = json::array({Entry("d/a")});
  actual["cache"] = {{"assumed", json::array()}};
  const std::vector<Difference> want = {
      {"state.queue.active[d/a]", "missing", R"({"attempts":0,"pod":"d/a"})",
       "(absent)"},
      {"state.queue.active[d/n]", "extra", "(absent)",
       R"({"attempts":0,"pod":"d/n"})"},
      // d/b is where it was: d/c moved (not d/b, as many would say).
      {"state.queue.active[d/c]", "moved", "#3", "#1"},
      {"state.queue.active[d/c].attempts", "changed", "1", "2"},
      {"state.queue.backoff[d/a]", "extra", "(absent)",
       R"({"attempts":0,"pod":"d/a"})"},
      {"state.queue.schedulingCycle", "changed", "1", "0"},
      {"state.cache.assumed[d/x]", "missing", R"("d/x")", "(absent)"},
  };
  EXPECT_EQ(State(expected, actual), want);
  EXPECT_EQ(State(expected, actual), want);  // and again, the same
}

TEST(StateDiffTest, OutListsByPodAndKeysByName) {
  json expected = {
      {"popped", "d/p"},
      {"result", {{"pod", "d/p"}, {"outcome", "scheduled"}, {"node", "n1"}}},
      {"events", {{{"pod", "d/p"}, {"reason", "Scheduled"}}}}};
  json actual = {
      {"popped", "d/p"},
      {"error", true},
      {"result", {{"pod", "d/p"}, {"outcome", "unschedulable"}}},
      {"events", {{{"pod", "d/p"}, {"reason", "FailedScheduling"}}}}};
  std::vector<Difference> d;
  DiffOut(expected, actual, d);
  EXPECT_EQ(d, (std::vector<Difference>{
                   {"out.events[d/p].reason", "changed", R"("Scheduled")",
                    R"("FailedScheduling")"},
                   {"out.result.node", "missing", R"("n1")", "(absent)"},
                   {"out.result.outcome", "changed", R"("scheduled")",
                    R"("unschedulable")"},
                   {"out.error", "extra", "(absent)", "true"},
               }));
}

TEST(StateDiffTest, ValuesOfDifferentTypesDifferWhole) {
  std::vector<Difference> d;
  DiffValues(json{{"a", 1}}, json::array(), nullptr, false, "x", d);
  EXPECT_EQ(d, (std::vector<Difference>{{"x", "changed", R"({"a":1})", "[]"}}));
  // With `use_sent` and nothing sent there: (absent).
  d.clear();
  DiffValues(json(1), json(2), nullptr, true, "y", d);
  EXPECT_EQ(d, (std::vector<Difference>{{"y", "changed", "1", "(absent)"}}));
}

TEST(StateDiffTest, ALongActiveQueueIsDiffedByKeyQuickly) {
  // 20,000 pods, the last moved to the front: one difference, found in
  // n log n (a quadratic longest common subsequence would take minutes).
  json expected = json::array(), actual = json::array();
  for (int i = 0; i < 20000; ++i) {
    expected.push_back(Entry("d/p" + std::to_string(i)));
  }
  actual.push_back(expected.back());
  for (int i = 0; i + 1 < 20000; ++i) actual.push_back(expected[i]);
  EXPECT_EQ(State(Queue(expected), Queue(actual)),
            (std::vector<Difference>{
                {"state.queue.active[d/p19999]", "moved", "#20000", "#1"}}));
}

}  // namespace
}  // namespace schedtrace
