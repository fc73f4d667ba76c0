#include "run/header_refusals.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;

TEST(HeaderRefusalsTest, NothingIsSettledBeforeAReply) {
  HeaderRefusals r;
  EXPECT_EQ(r.Settled(Layer::kCache, "v1.26.7"), std::nullopt);
  EXPECT_TRUE(r.TakeSaved().empty());
}

TEST(HeaderRefusalsTest, ARefusedLayerSkipsThatLayerOnly) {
  HeaderRefusals r;
  r.RefusedLayer(Layer::kCache, "exec:x: ", "does not support the cache layer");
  EXPECT_EQ(r.Settled(Layer::kCache, "v1.26.7"),
            "exec:x: does not support the cache layer");
  EXPECT_EQ(r.Settled(Layer::kCache, "v1.37.2"),
            "exec:x: does not support the cache layer");
  EXPECT_EQ(r.Settled(Layer::kQueue, "v1.26.7"), std::nullopt);
  EXPECT_THAT(r.TakeSaved(),
              ElementsAre(Pair("does not support the cache layer", 2)));
  EXPECT_TRUE(r.TakeSaved().empty()) << "TakeSaved resets the counts";
}

TEST(HeaderRefusalsTest, ADeclaredVersionSkipsTheOthersOfItsLayer) {
  HeaderRefusals r;
  const std::string reason = "the child implements v1.30.12, the trace is ";
  const std::string prefix = "exec:x: " + reason;
  r.DeclaredVersion(Layer::kQueue, "v1.30.12", "exec:x: ", reason);
  EXPECT_EQ(r.Settled(Layer::kQueue, "v1.30.12"), std::nullopt);
  EXPECT_EQ(r.Settled(Layer::kQueue, "v1.26.7"), prefix + "v1.26.7");
  EXPECT_EQ(r.Settled(Layer::kCache, "v1.26.7"), std::nullopt);
  // The version is checked before the layer, as the child's own reply is.
  r.RefusedLayer(Layer::kQueue, "exec:x: ", "does not support the queue layer");
  EXPECT_EQ(r.Settled(Layer::kQueue, "v1.25.12"), prefix + "v1.25.12");
  EXPECT_THAT(r.TakeSaved(), ElementsAre(Pair(reason + "another version", 2)));
}

}  // namespace
}  // namespace schedtrace
