// The RapidCheck tests' options (properties/rc_params.h RcGenOptions): the
// defaults, SCHEDTRACE_GEN, RC_PERTURB.
#include "properties/rc_params.h"

#include <cstdlib>
#include <optional>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::properties {
namespace {

using ::testing::HasSubstr;

// Sets (or, with nullopt, unsets) an environment variable for the scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      setenv(name, value->c_str(), 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

const GenOptions kDefaults = {.pods = 4, .nodes = 3, .queue_pool = 4};

TEST(RcGenOptionsTest, DefaultsWithPerturbationsAtFivePercent) {
  ScopedEnv gen("SCHEDTRACE_GEN", std::nullopt);
  ScopedEnv perturb("RC_PERTURB", std::nullopt);
  absl::StatusOr<GenOptions> o = RcGenOptions(kDefaults);
  ASSERT_TRUE(o.ok()) << o.status();
  GenOptions want = kDefaults;
  want.perturb = Perturbations::All(0.05);
  EXPECT_EQ(*o, want);
}

TEST(RcGenOptionsTest, SchedtraceGenSetsPoolsClockAndPerturbations) {
  ScopedEnv gen("SCHEDTRACE_GEN",
                "--pods=40 --queue-pool=40 --step-ms=5:9 --perturb=race:0.5");
  ScopedEnv perturb("RC_PERTURB", std::nullopt);
  absl::StatusOr<GenOptions> o = RcGenOptions(kDefaults);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->pods, 40);
  EXPECT_EQ(o->queue_pool, 40);
  EXPECT_EQ(o->nodes, 3);  // not named: the layer's
  EXPECT_EQ(o->clock.min_ms, 5);
  EXPECT_EQ(o->clock.max_ms, 9);
  EXPECT_EQ(o->perturb, *ParsePerturbations("race:0.5"));
  // RC_PERTURB comes last.
  ScopedEnv later("RC_PERTURB", "tombstone:1");
  EXPECT_EQ(RcGenOptions(kDefaults)->perturb,
            *ParsePerturbations("tombstone:1"));
}

TEST(RcGenOptionsTest, ErrorsNameTheVariable) {
  ScopedEnv perturb("RC_PERTURB", std::nullopt);
  {
    ScopedEnv gen("SCHEDTRACE_GEN", "--pods=0");
    EXPECT_THAT(RcGenOptions(kDefaults).status().message(),
                HasSubstr("SCHEDTRACE_GEN: --pods takes"));
  }
  // Flags the RapidCheck tests do not read are refused, not ignored.
  for (const char* unread : {"--hostile", "--seed=3", "--steps=9"}) {
    ScopedEnv gen("SCHEDTRACE_GEN", unread);
    EXPECT_THAT(RcGenOptions(kDefaults).status().message(),
                HasSubstr("take every flag of `schedtrace gen` but"))
        << unread;
  }
  {  // The source's variety is read now.
    ScopedEnv gen("SCHEDTRACE_GEN", "--failure-rate=0");
    ASSERT_TRUE(RcGenOptions(kDefaults).ok());
    EXPECT_EQ(RcGenOptions(kDefaults)->variety.failure_rate, 0);
  }
  ScopedEnv gen("SCHEDTRACE_GEN", std::nullopt);
  ScopedEnv bad("RC_PERTURB", "flood:1");
  EXPECT_THAT(RcGenOptions(kDefaults).status().message(),
              HasSubstr("RC_PERTURB: --perturb: unknown perturbation"));
}

}  // namespace
}  // namespace schedtrace::properties
