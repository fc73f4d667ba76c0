#include "harness/generator.h"

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

TEST(ParsePerturbationsTest, EmptyIsAllOff) {
  absl::StatusOr<Perturbations> p = ParsePerturbations("");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, Perturbations{});
}

TEST(ParsePerturbationsTest, NamesAndAll) {
  absl::StatusOr<Perturbations> p =
      ParsePerturbations("resync:0.1,race:0.2,node_burst:1");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_DOUBLE_EQ(p->resync, 0.1);
  EXPECT_DOUBLE_EQ(p->race, 0.2);
  EXPECT_DOUBLE_EQ(p->node_burst, 1);
  EXPECT_DOUBLE_EQ(p->tombstone, 0);
  absl::StatusOr<Perturbations> all = ParsePerturbations("all:0.05,race:0");
  ASSERT_TRUE(all.ok());
  EXPECT_DOUBLE_EQ(all->recreate_update, 0.05);
  EXPECT_DOUBLE_EQ(all->node_recreate, 0.05);
  EXPECT_DOUBLE_EQ(all->race, 0);  // later items win
}

TEST(ParsePerturbationsTest, AllIsWhatTheCliCallsAll) {
  absl::StatusOr<Perturbations> all = ParsePerturbations("all:0.2");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(Perturbations::All(0.2), *all);
  EXPECT_NE(Perturbations::All(0.2), Perturbations{});
}

TEST(ParsePerturbationsTest, ErrorsNameTheItem) {
  for (const char* bad : {"race", "race:x", "race:-0.1", "race:1.01",
                          "flood:0.1", "race:0.1,", "race:0.1:2"}) {
    absl::StatusOr<Perturbations> p = ParsePerturbations(bad);
    EXPECT_FALSE(p.ok()) << bad;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_NE(ParsePerturbations("flood:0.1").status().message().find("flood"),
            std::string::npos);
}

TEST(QueueHeaderTest, UsesTheRecordingsConfig) {
  TraceHeader h = QueueHeader("x");
  EXPECT_EQ(h.layer, Layer::kQueue);
  EXPECT_EQ(h.config.nominator_pod_lister, "queue-ops");
  EXPECT_EQ(h.config.pre_enqueue_plugins.at("default-scheduler"),
            std::vector<std::string>{"SchedulingGates"});
  EXPECT_TRUE(h.config.Feature("PodSchedulingReadiness"));
}

}  // namespace
}  // namespace schedtrace
