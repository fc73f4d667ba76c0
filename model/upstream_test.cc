// The version profiles: every switch differs between some two neighbouring
// versions, and each is pinned by a golden trace: replayed with that one
// switch flipped back to the neighbouring version's value, some trace of the
// version fails. So no switch can be broken, removed or swapped without a
// golden trace noticing.
#include "model/upstream.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "run/replay.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::model {
namespace {

TEST(UpstreamTest, ProfilesNameEveryKnownVersionAndRefuseOthers) {
  for (const std::string& v : KnownUpstreams()) {
    absl::StatusOr<Upstream> up = UpstreamProfile(v);
    ASSERT_TRUE(up.ok()) << up.status();
    EXPECT_EQ(up->version, v);
  }
  EXPECT_FALSE(UpstreamProfile("v1.27.0").ok());
  TraceHeader h;
  EXPECT_EQ(UpstreamFor(h)->version, "v1.26.7");  // "" is v1.26.7
  h.upstream = "v1.30.12";
  h.config.features["PodSchedulingReadiness"] = false;
  absl::StatusOr<Upstream> refused = UpstreamFor(h);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("locked"), std::string::npos);
  h.upstream = "v1.26.7";
  EXPECT_TRUE(UpstreamFor(h).ok());  // the gate may be off there
  h.config.features["SchedulerQueueingHints"] = true;
  EXPECT_FALSE(UpstreamFor(h).ok());
}

TEST(UpstreamTest, EverySwitchIsTheNewerBehaviourAndChangesOnce) {
  const std::vector<std::string>& versions = KnownUpstreams();
  for (const UpstreamSwitch& s : UpstreamSwitches()) {
    SCOPED_TRACE(std::string(s.name));
    int changes = 0;
    for (size_t i = 0; i + 1 < versions.size(); ++i) {
      const bool older = (*UpstreamProfile(versions[i])).*s.field;
      const bool newer = (*UpstreamProfile(versions[i + 1])).*s.field;
      EXPECT_FALSE(older && !newer) << "true must be the newer behaviour";
      changes += older != newer;
    }
    EXPECT_EQ(changes, 1);
    EXPECT_FALSE(s.change.empty());
    EXPECT_FALSE(s.summary.empty());
  }
}

// The golden traces of `version`: its recordings and handwritten traces,
// without those of a layer the model does not model yet for it (UpstreamFor
// says Unimplemented: a flipped profile would run them, and fail them, all
// the same).
std::vector<GoldenFile> TracesOf(const std::string& version) {
  std::vector<GoldenFile> files;
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (GoldenFile& f : ReadGoldenLayer(GoldenDir(), layer)) {
      if (UpstreamFor(f.trace.header).status().code() ==
          absl::StatusCode::kUnimplemented) {
        continue;
      }
      if (EffectiveUpstream(f.trace.header.upstream) == version) {
        files.push_back(std::move(f));
      }
    }
  }
  return files;
}

bool FailsOn(const Upstream& profile, const std::vector<GoldenFile>& files,
             std::string* which) {
  for (const GoldenFile& f : files) {
    std::unique_ptr<System> sys = NewSystemOnProfile(profile);
    TraceResult r = Replay(*sys, f.trace);
    if (r.verdict != Verdict::kPassed) {
      *which = f.path.substr(GoldenDir().size() + 1);
      return true;
    }
  }
  return false;
}

TEST(UpstreamTest, EverySwitchIsPinnedByAGoldenTraceOfItsVersion) {
  const std::vector<std::string>& versions = KnownUpstreams();
  std::map<std::string, std::vector<GoldenFile>> traces;
  for (const std::string& v : versions) traces[v] = TracesOf(v);
  for (const UpstreamSwitch& s : UpstreamSwitches()) {
    SCOPED_TRACE(std::string(s.name));
    bool pinned = false;
    std::string which;
    for (size_t i = 0; i + 1 < versions.size() && !pinned; ++i) {
      const Upstream older = *UpstreamProfile(versions[i]);
      const Upstream newer = *UpstreamProfile(versions[i + 1]);
      if (older.*s.field == newer.*s.field) continue;
      // The newer version's traces with this switch as the older had it,
      // and the older's with it as the newer has it.
      Upstream flipped = newer;
      flipped.*s.field = older.*s.field;
      pinned = FailsOn(flipped, traces[versions[i + 1]], &which);
      if (!pinned) {
        flipped = older;
        flipped.*s.field = newer.*s.field;
        pinned = FailsOn(flipped, traces[versions[i]], &which);
      }
    }
    // A switch whose first version's layer is not modelled yet: flipped
    // alone in a later version that has it on.
    for (size_t i = 0; i < versions.size() && !pinned; ++i) {
      Upstream flipped = *UpstreamProfile(versions[i]);
      if (!(flipped.*s.field)) continue;
      flipped.*s.field = false;
      pinned = FailsOn(flipped, traces[versions[i]], &which);
    }
    EXPECT_TRUE(pinned) << "no golden trace fails with " << s.name
                        << " flipped alone: add a handwritten trace";
    if (pinned) std::cout << s.name << ": pinned by " << which << "\n";
  }
}

}  // namespace
}  // namespace schedtrace::model
