#include "fuzz/byte_format.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::fuzz {
namespace {

using ::testing::ElementsAre;

TEST(ByteFormatTest, ThePoolsKeysAndTheirOrder) {
  EXPECT_THAT(PodKeys(), ElementsAre("default/p0", "team/p1", "default/p2",
                                     "team/p3", "default/p4", "team/p5"));
  // q_add_unschedulable picks among pods in flight in key order.
  EXPECT_THAT(SlotsByKey(), ElementsAre(0, 2, 4, 1, 3, 5));
}

TEST(ByteFormatTest, SlotsFromBytesKeysAndNames) {
  EXPECT_EQ(SlotOf(0x05), 5);
  EXPECT_EQ(SlotOf(0x07), 1);      // bits 0-2 mod kPodPool
  EXPECT_EQ(SlotOf(0xf8), 0);      // the high bits are not the slot's
  EXPECT_EQ(NodeSlotOf(0x03), 0);  // bits 0-1 mod kNodePool
  EXPECT_EQ(NodeSlotOf(0x06), 2);
  EXPECT_EQ(PodSlotOfKey("team/p3"), 3);
  EXPECT_EQ(PodSlotOfKey("default/p3"), -1);  // p3 lives in "team"
  EXPECT_EQ(PodSlotOfKey("default/p6"), -1);
  EXPECT_EQ(NodeSlotOfName("n2"), 2);
  EXPECT_EQ(NodeSlotOfName("n3"), -1);
  EXPECT_EQ(NodeSlotOfName("n10"), -1);
}

TEST(ByteFormatTest, PerturbationFieldsFollowTheKinds) {
  PerturbLevels levels = {};
  levels[static_cast<int>(PerturbKind::kTombstone)] = 8;
  levels[static_cast<int>(PerturbKind::kNodeBurst)] = 15;
  const Perturbations p = PerturbationsOf(levels);
  EXPECT_EQ(p.tombstone, 0.5);
  EXPECT_EQ(p.node_burst, 15 / 16.0);
  EXPECT_EQ(p.resync, 0);
  for (int k = 0; k < kPerturbKinds; ++k) {
    EXPECT_EQ(p.*kPerturbFields[k], levels[k] / 16.0)
        << PerturbKindName(static_cast<PerturbKind>(k));
  }
}

}  // namespace
}  // namespace schedtrace::fuzz
