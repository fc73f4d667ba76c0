// The mutants table as every build sees it, and the guarantee that a normal
// build has no mutant active (the planted bugs, mutants/patches/, are only
// compiled into the mutants build).
#include "impl/mutants.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace schedtrace::impl {
namespace {

#ifndef SCHEDTRACE_MUTANTS
static_assert(!MutantsBuild());
static_assert(ActiveMutant() == Mutant::kNone,
              "no mutant is ever active outside the mutants build");
#endif

TEST(MutantsTest, TableCoversEveryMutantOnceInEnumOrder) {
  const std::vector<MutantInfo>& all = AllMutants();
  ASSERT_EQ(all.size(), static_cast<size_t>(Mutant::kCount) - 1);
  std::set<std::string_view> names;
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(all[i].mutant), i + 1) << all[i].name;
    EXPECT_TRUE(names.insert(all[i].name).second) << all[i].name;
    EXPECT_EQ(&Info(all[i].mutant), &all[i]);
  }
  EXPECT_GE(all.size(), 20u);
}

TEST(MutantsTest, ByNameRoundTrips) {
  EXPECT_EQ(MutantByName("two-queues-on-update"), Mutant::kTwoQueuesOnUpdate);
  EXPECT_EQ(MutantByName("pr73309-move-request-lost"),
            Mutant::kMoveRequestLost);
  EXPECT_EQ(MutantByName("none"), std::nullopt);
  EXPECT_EQ(Info(Mutant::kNone).name, "none");
}

TEST(MutantsTest, PlantedInNamesTheSystem) {
  EXPECT_EQ(PlantedInName(Info(Mutant::kTwoQueuesOnUpdate).planted_in), "impl");
  EXPECT_EQ(PlantedInName(Info(Mutant::kModelHintSkipsTaintRemoval).planted_in),
            "model");
  EXPECT_EQ(Info(Mutant::kNone).planted_in, PlantedIn::kImpl);
}

}  // namespace
}  // namespace schedtrace::impl
