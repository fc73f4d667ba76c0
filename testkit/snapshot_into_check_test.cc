#include "testkit/snapshot_into_check.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::HasSubstr;

// A queue-layer System whose state after step i holds i % 3 + 1 active pods,
// and whose SnapshotInto has the bug it is built with.
enum class Bug {
  kNone,
  kKeepsOtherParts,   // leaves the parts its layer lacks as they were
  kKeepsStaleFields,  // overwrites only pod and attempts of reused entries
  kNeverTruncates,    // leaves entries past the ones it writes
};

class FakeSystem : public System {
 public:
  explicit FakeSystem(Bug bug) : bug_(bug) {}

  absl::Status Configure(const TraceHeader& header) override {
    if (header.layer != Layer::kQueue) {
      return absl::InvalidArgumentError("not the queue layer");
    }
    steps_ = 0;
    return absl::OkStatus();
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (step.op != Op::kQPop) return absl::InvalidArgumentError("not q_pop");
    ++steps_;
    return StepOut{};
  }
  State Snapshot() const override {
    State s;
    QueueState& q = s.queue.emplace();
    for (int i = 0; i < steps_ % 3 + 1; ++i) {
      q.active.push_back({.pod = "default/p" + std::to_string(i)});
    }
    s.nominated.emplace();
    return s;
  }
  void SnapshotInto(State& out) const override {
    const State fresh = Snapshot();
    switch (bug_) {
      case Bug::kNone:
        out = fresh;
        return;
      case Bug::kKeepsOtherParts:
        out.queue = fresh.queue;
        out.nominated = fresh.nominated;
        return;
      case Bug::kKeepsStaleFields: {
        std::vector<QueuedPod> active;
        if (out.queue) active = out.queue->active;
        active.resize(fresh.queue->active.size());
        for (size_t i = 0; i < active.size(); ++i) {
          active[i].pod = fresh.queue->active[i].pod;
          active[i].attempts = fresh.queue->active[i].attempts;
        }
        out = fresh;
        out.queue->active = active;
        return;
      }
      case Bug::kNeverTruncates: {
        std::vector<QueuedPod> active;
        if (out.queue) active = out.queue->active;
        if (active.size() < fresh.queue->active.size()) {
          active.resize(fresh.queue->active.size());
        }
        std::copy(fresh.queue->active.begin(), fresh.queue->active.end(),
                  active.begin());
        out = fresh;
        out.queue->active = active;
        return;
      }
    }
  }

 private:
  Bug bug_;
  int steps_ = 0;
};

Trace Pops(int n) {
  Trace t;
  t.header.name = "pops";
  t.header.layer = Layer::kQueue;
  for (int i = 0; i < n; ++i) t.steps.push_back({.t = i, .op = Op::kQPop});
  return t;
}

TEST(CheckSnapshotIntoTest, PassesACorrectSnapshotInto) {
  FakeSystem sut(Bug::kNone);
  State reused = DirtyState();
  EXPECT_TRUE(CheckSnapshotInto(sut, Pops(5), reused).ok());
  EXPECT_EQ(reused, sut.Snapshot());  // left as the last step's state
}

TEST(CheckSnapshotIntoTest, CatchesPartsLeftFromTheDirtyState) {
  FakeSystem sut(Bug::kKeepsOtherParts);
  State reused = DirtyState();
  absl::Status s = CheckSnapshotInto(sut, Pops(5), reused);
  EXPECT_THAT(s.ToString(), HasSubstr("after Configure"));
  EXPECT_THAT(s.ToString(), HasSubstr("in cache, waiting, parked"));
}

TEST(CheckSnapshotIntoTest, CatchesStaleFieldsOfReusedElements) {
  FakeSystem sut(Bug::kKeepsStaleFields);
  State reused = DirtyState();
  absl::Status s = CheckSnapshotInto(sut, Pops(5), reused);
  EXPECT_THAT(s.ToString(), HasSubstr("after Configure"));
  EXPECT_THAT(s.ToString(),
              HasSubstr("SnapshotInto the reused State differs from Snapshot "
                        "in queue\n"));
}

TEST(CheckSnapshotIntoTest, CatchesStaleFieldsFromADirtyStateEveryStep) {
  FakeSystem sut(Bug::kKeepsStaleFields);
  // From a clean State only new elements are written to `reused`: the bug
  // shows only in the DirtyState() written at every step.
  State reused;
  absl::Status s = CheckSnapshotInto(sut, Pops(5), reused);
  EXPECT_THAT(s.ToString(), HasSubstr("after Configure"));
  EXPECT_THAT(s.ToString(),
              HasSubstr("SnapshotInto a DirtyState() differs from Snapshot "
                        "in queue\n"));
}

TEST(CheckSnapshotIntoTest, CatchesAStateThatShrinks) {
  FakeSystem sut(Bug::kNeverTruncates);
  State reused;
  // The reused State agrees until the state shrinks (three active pods after
  // step 2, one after step 3); a DirtyState() is larger from the start.
  EXPECT_THAT(CheckSnapshotInto(sut, Pops(5), reused).ToString(),
              HasSubstr("pops, after Configure: SnapshotInto a DirtyState() "
                        "differs from Snapshot in queue"));
}

TEST(CheckSnapshotIntoTest, ReportsARefusedHeaderOrStep) {
  FakeSystem sut(Bug::kNone);
  State reused;
  Trace t = Pops(2);
  t.header.layer = Layer::kCache;
  EXPECT_THAT(CheckSnapshotInto(sut, t, reused).ToString(),
              HasSubstr("Configure: not the queue layer"));
  t = Pops(2);
  t.steps[1].op = Op::kQAdd;
  EXPECT_THAT(CheckSnapshotInto(sut, t, reused).ToString(),
              HasSubstr("step 2: Apply: not q_pop"));
}

// A fresh directory under the test's temporary directory.
std::string FreshDir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(CheckSnapshotIntoEverywhereTest, CatchesABugBeforeConfigure) {
  const std::string dir = FreshDir("snapshot-into-bug");
  std::ofstream(dir + "/pops.jsonl") << EncodeTrace(Pops(5));
  absl::StatusOr<SnapshotIntoCoverage> checked = CheckSnapshotIntoEverywhere(
      [] { return std::make_unique<FakeSystem>(Bug::kNeverTruncates); },
      [] { return std::make_unique<FakeSystem>(Bug::kNone); }, dir);
  EXPECT_THAT(checked.status().ToString(),
              HasSubstr("before Configure: SnapshotInto differs from Snapshot "
                        "in queue"));
}

TEST(CheckSnapshotIntoEverywhereTest, ChecksEveryGoldenTrace) {
  const std::string dir = FreshDir("snapshot-into-golden");
  std::ofstream(dir + "/a-pops.jsonl") << EncodeTrace(Pops(5));
  Trace cache = Pops(1);
  cache.header.layer = Layer::kCache;
  cache.steps[0].op = Op::kCCleanup;
  std::ofstream(dir + "/b-cache.jsonl") << EncodeTrace(cache);
  absl::StatusOr<SnapshotIntoCoverage> checked = CheckSnapshotIntoEverywhere(
      [] { return std::make_unique<FakeSystem>(Bug::kNone); },
      [] { return std::make_unique<FakeSystem>(Bug::kNone); }, dir);
  // The first trace passed; FakeSystem refuses the second one's layer.
  EXPECT_THAT(checked.status().ToString(),
              HasSubstr("b-cache.jsonl: Configure: not the queue layer"));
}

TEST(CheckSnapshotIntoEverywhereTest, RefusesToCheckOverNothing) {
  absl::StatusOr<SnapshotIntoCoverage> checked = CheckSnapshotIntoEverywhere(
      [] { return std::make_unique<FakeSystem>(Bug::kNone); },
      [] { return std::make_unique<FakeSystem>(Bug::kNone); },
      FreshDir("snapshot-into-empty"));
  EXPECT_FALSE(checked.ok());
}

TEST(DirtyStateTest, EveryPartEngagedAndAwayFromItsDefault) {
  const State s = DirtyState();
  ASSERT_TRUE(s.queue && s.nominated && s.cache && s.waiting && s.parked);
  for (const auto* list :
       {&s.queue->active, &s.queue->backoff, &s.queue->unschedulable}) {
    ASSERT_GE(list->size(), 20u);
    for (const QueuedPod& p : *list) {
      EXPECT_FALSE(p.pod.empty());
      EXPECT_NE(p.attempts, 0);
      EXPECT_NE(p.backoff_expires_at, 0);
      EXPECT_FALSE(p.plugins.empty());
      EXPECT_TRUE(p.gated);
    }
  }
  EXPECT_NE(s.queue->scheduling_cycle, 0);
  EXPECT_NE(s.queue->move_request_cycle, 0);
  EXPECT_GE(s.nominated->size(), 20u);
  EXPECT_TRUE(s.nominated->contains(""));
  ASSERT_GE(s.cache->nodes.size(), 20u);
  int present = 0;
  for (const NodeInfoState& n : s.cache->nodes) {
    present += n.present;
    EXPECT_FALSE(n.pods.empty());
    EXPECT_TRUE(n.requested.contains("cpu"));
    EXPECT_TRUE(n.requested.contains("ephemeral-storage"));
  }
  EXPECT_GT(present, 0);
  EXPECT_LT(present, static_cast<int>(s.cache->nodes.size()));
  EXPECT_FALSE(s.cache->assumed.empty());
  EXPECT_FALSE(s.cache->binding_finished.empty());
  EXPECT_FALSE(s.waiting->empty());
  EXPECT_FALSE(s.parked->empty());
}

}  // namespace
}  // namespace schedtrace
