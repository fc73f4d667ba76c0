#include "impl/upstream.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "model/upstream.h"

namespace schedtrace::impl {
namespace {

TraceHeader Header(const std::string& upstream) {
  TraceHeader h;
  h.upstream = upstream;
  return h;
}

TEST(UpstreamTest, EachKnownVersionHasItsProfile) {
  for (const std::string& v : KnownUpstreams()) {
    // The cache layer: the one implemented for every version.
    TraceHeader h = Header(v);
    h.layer = Layer::kCache;
    absl::StatusOr<Upstream> up = UpstreamFor(h);
    ASSERT_TRUE(up.ok()) << up.status();
    EXPECT_EQ(up->version, v);
  }
  absl::StatusOr<Upstream> none = UpstreamFor(Header(""));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->version, kDefaultUpstream);
}

// A default-constructed Upstream (what impl's unit tests and a header
// without `upstream` get) is the default version's profile.
TEST(UpstreamTest, TheDefaultsAreTheDefaultVersionsProfile) {
  const Upstream defaults;
  absl::StatusOr<Upstream> profile = UpstreamProfile(kDefaultUpstream);
  ASSERT_TRUE(profile.ok());
  EXPECT_EQ(defaults.version, profile->version);
  for (const UpstreamSwitch& s : UpstreamSwitches()) {
    EXPECT_EQ(defaults.*s.field, (*profile).*s.field) << s.name;
  }
}

TEST(UpstreamTest, AnUnknownVersionIsRefused) {
  for (const char* v : {"v1.27.0", "1.26.7", "v1.26", "latest"}) {
    absl::StatusOr<Upstream> up = UpstreamFor(Header(v));
    EXPECT_EQ(up.status().code(), absl::StatusCode::kInvalidArgument) << v;
  }
}

TEST(UpstreamTest, ConfigsAVersionCannotRunAreRefused) {
  TraceHeader h = Header("v1.30.12");
  h.config.features["PodSchedulingReadiness"] = false;  // locked on
  EXPECT_EQ(UpstreamFor(h).status().code(), absl::StatusCode::kInvalidArgument);
  h.config.features["PodSchedulingReadiness"] = true;
  EXPECT_TRUE(UpstreamFor(h).ok());
  // v1.25.12 has no such gate and ignores it; v1.26.7 has it off by
  // default.
  for (const char* v : {"v1.25.12", "v1.26.7"}) {
    TraceHeader off = Header(v);
    off.config.features["PodSchedulingReadiness"] = false;
    EXPECT_TRUE(UpstreamFor(off).ok()) << v;
  }
  for (const char* v : {"v1.25.12", "v1.26.7", "v1.30.12"}) {
    TraceHeader hints = Header(v);
    hints.config.features["SchedulerQueueingHints"] = true;
    EXPECT_EQ(UpstreamFor(hints).status().code(),
              absl::StatusCode::kInvalidArgument)
        << v;
    hints.config.features["SchedulerQueueingHints"] = false;
    EXPECT_TRUE(UpstreamFor(hints).ok()) << v;
  }
}

// docs/FORMAT.md, What each version accepts (E14): scripted hints are
// refused before v1.35, and accepted from v1.35 (the plugins' own too);
// SchedulerPopFromBackoffQ is as given; the gates impl does not model are
// refused on.
TEST(UpstreamTest, HintsAndGatesOfTheQueueFromV135) {
  TraceHeader h = Header("v1.30.12");
  h.layer = Layer::kQueue;
  h.config.cluster_event_map = {{"Node", {"Add"}, {"NodeName"}, "Error"}};
  EXPECT_EQ(UpstreamFor(h).status().code(), absl::StatusCode::kInvalidArgument);
  h.upstream = "v1.37.2";
  EXPECT_TRUE(UpstreamFor(h).ok());
  h.config.cluster_event_map[0].hint = "plugin";
  EXPECT_TRUE(UpstreamFor(h).ok());
  h.upstream = "v1.35.4";
  EXPECT_TRUE(UpstreamFor(h).ok());
  h.upstream = "v1.37.2";
  h.config.cluster_event_map[0].hint = "";
  h.config.features["SchedulerPopFromBackoffQ"] = false;
  EXPECT_FALSE(UpstreamFor(h)->pop_from_backoff_q);
  h.config.features["SchedulerPopFromBackoffQ"] = true;
  EXPECT_TRUE(UpstreamFor(h)->pop_from_backoff_q);
  h.config.features["SchedulerAsyncAPICalls"] = true;
  EXPECT_EQ(UpstreamFor(h).status().code(), absl::StatusCode::kInvalidArgument);
  h.config.features.erase("SchedulerAsyncAPICalls");
  h.config.features["SchedulerPreQueueingHints"] = true;
  EXPECT_EQ(UpstreamFor(h).status().code(), absl::StatusCode::kInvalidArgument);
  h.upstream = "v1.36.3";  // no such gate there: ignored
  EXPECT_TRUE(UpstreamFor(h).ok());
}

// The two sides share no code, but impl's table names the same switches as
// the model's, in the same order, and turns on the same ones in each
// version: each side's table is checked against the other's, neither is
// restated here.
TEST(UpstreamTest, TheModelsSwitchesWithTheSameValues) {
  const std::vector<UpstreamSwitch>& ours = UpstreamSwitches();
  const std::vector<model::UpstreamSwitch>& theirs = model::UpstreamSwitches();
  ASSERT_EQ(ours.size(), theirs.size());
  for (size_t i = 0; i < theirs.size(); ++i) {
    EXPECT_EQ(ours[i].name, theirs[i].name);
    const std::vector<std::string>& known = KnownUpstreams();
    EXPECT_TRUE(std::find(known.begin(), known.end(), ours[i].since) !=
                known.end())
        << ours[i].name << " since " << ours[i].since;
  }
  for (const std::string& version : KnownUpstreams()) {
    absl::StatusOr<Upstream> mine = UpstreamProfile(version);
    absl::StatusOr<model::Upstream> model = model::UpstreamProfile(version);
    ASSERT_TRUE(mine.ok() && model.ok()) << version;
    for (size_t i = 0; i < theirs.size(); ++i) {
      EXPECT_EQ((*mine).*(ours[i].field), (*model).*(theirs[i].field))
          << version << " " << theirs[i].name;
    }
  }
}

// Each switch is its own field: two table rows on one field would leave
// another field at its default in every version.
TEST(UpstreamTest, EachSwitchIsItsOwnField) {
  const std::vector<UpstreamSwitch>& switches = UpstreamSwitches();
  for (size_t i = 0; i < switches.size(); ++i) {
    for (size_t j = i + 1; j < switches.size(); ++j) {
      EXPECT_TRUE(switches[i].field != switches[j].field)
          << switches[i].name << " and " << switches[j].name;
    }
  }
}

}  // namespace
}  // namespace schedtrace::impl
