#include "fuzz/lockstep.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/codec.h"
#include "core/upstream_versions.h"
#include "fuzz/encoder.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/judged_upstreams.h"
#include "run/step_source.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::fuzz {
namespace {

// Forwards to a real system and plants one bug.
class Planted : public System {
 public:
  enum class Bug {
    kNone,
    kPopAttempts,
    kExtraActive,
    kTwoQueues,
    kNoLayer,
    kRefusesPop
  };
  Planted(std::unique_ptr<System> real, Bug bug)
      : real_(std::move(real)), bug_(bug) {}
  absl::Status Configure(const TraceHeader& h) override {
    if (bug_ == Bug::kNoLayer) return absl::UnimplementedError("not yet");
    return real_->Configure(h);
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    if (bug_ == Bug::kRefusesPop && step.op == Op::kQPop) {
      return absl::InvalidArgumentError("no pop today");
    }
    absl::StatusOr<StepOut> out = real_->Apply(step);
    if (out.ok() && bug_ == Bug::kPopAttempts && out->attempts) {
      *out->attempts += 1;
    }
    return out;
  }
  State Snapshot() const override {
    State s = real_->Snapshot();
    if (s.queue && !s.queue->active.empty()) {
      if (bug_ == Bug::kExtraActive) s.queue->active.push_back({"x/ghost"});
      if (bug_ == Bug::kTwoQueues) {
        s.queue->backoff.push_back(s.queue->active.front());
      }
    }
    return s;
  }

 private:
  std::unique_ptr<System> real_;
  Bug bug_;
};

// q_add, q_pop, q_add: a handwritten trace encoded for the step source
// (fuzz/encoder.h), checked to decode to those three steps.
std::string QueueInputOf() {
  Trace t;
  t.header = QueueHeader("three");
  auto pod = [](const char* name) {
    auto p = std::make_shared<Pod>();
    p->namespace_ = "default";
    p->name = name;
    p->uid = std::string("uid-") + name;
    p->resource_version = "1";
    p->scheduler_name = "default-scheduler";
    return p;
  };
  Step add_a, pop, add_b;
  add_a.t = 1000;
  add_a.op = Op::kQAdd;
  add_a.pod = pod("a");
  pop.t = 2000;
  pop.op = Op::kQPop;
  add_b.t = 3000;
  add_b.op = Op::kQAdd;
  add_b.pod = pod("b");
  t.steps = {add_a, pop, add_b};
  const std::string bytes = EncodeForFuzzing(t);
  Decoder dec(Layer::kQueue, Mode::kValid, bytes);
  std::vector<Op> ops;
  while (std::optional<Step> s = dec.Next()) ops.push_back(s->op);
  EXPECT_EQ(ops, (std::vector<Op>{Op::kQAdd, Op::kQPop, Op::kQAdd}));
  return bytes;
}
const std::string kQueueInput = QueueInputOf();

LockstepResult RunWith(Planted::Bug bug, Layer layer, const std::string& in,
                       bool with_impl = true) {
  std::unique_ptr<System> model = model::NewSystem();
  Planted impl(impl::NewSystem(), bug);
  return RunLockstepOn(*model, with_impl ? &impl : nullptr, layer, Mode::kValid,
                       in);
}

TEST(LockstepTest, AgreeingSystemsPass) {
  LockstepResult r = RunWith(Planted::Bug::kNone, Layer::kQueue, kQueueInput);
  EXPECT_FALSE(r.failed) << r.message;
  EXPECT_EQ(r.steps, 3);
  EXPECT_FALSE(r.impl_skipped);
}

TEST(LockstepTest, ADifferentOutIsCaught) {
  LockstepResult r =
      RunWith(Planted::Bug::kPopAttempts, Layer::kQueue, kQueueInput);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.signature, "out:q_pop");
  EXPECT_NE(r.message.find("step 2"), std::string::npos) << r.message;
}

TEST(LockstepTest, AStepOneSystemRefusesIsCaught) {
  LockstepResult r =
      RunWith(Planted::Bug::kRefusesPop, Layer::kQueue, kQueueInput);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.signature, "status:q_pop");
  EXPECT_NE(r.message.find("step 2 (q_pop, t="), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find(": model applied it, impl no pop today\nstep: "),
            std::string::npos)
      << r.message;
}

TEST(LockstepTest, ADifferentStateIsCaughtAndLocated) {
  LockstepResult r =
      RunWith(Planted::Bug::kExtraActive, Layer::kQueue, kQueueInput);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.signature, "state:state.queue.active");
  EXPECT_NE(r.message.find("x/ghost"), std::string::npos) << r.message;
}

TEST(LockstepTest, APropertyViolationIsCaughtOnTheModelAlone) {
  // A "model" that shows the pod in two queues breaks property 1.
  Planted model(model::NewSystem(), Planted::Bug::kTwoQueues);
  LockstepResult r =
      RunLockstepOn(model, nullptr, Layer::kQueue, Mode::kValid, kQueueInput);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.signature, "property:1");
}

TEST(LockstepTest, HostileModeDoesNotCheckProperties) {
  Planted model(model::NewSystem(), Planted::Bug::kTwoQueues);
  LockstepResult r =
      RunLockstepOn(model, nullptr, Layer::kQueue, Mode::kHostile, kQueueInput);
  EXPECT_FALSE(r.failed) << r.message;
}

TEST(LockstepTest, ALayerImplLacksRunsOnTheModelAlone) {
  LockstepResult r =
      RunWith(Planted::Bug::kNoLayer, Layer::kQueue, kQueueInput);
  EXPECT_FALSE(r.failed) << r.message;
  EXPECT_TRUE(r.impl_skipped);
  EXPECT_EQ(r.steps, 3);
}

// The config byte reaches every version: an input runs on the model and
// impl where both judge its layer there (properties/judged_upstreams.h), on
// the model alone where impl does not, and is skipped where the model does
// not; every version some layer is judged on runs somewhere.
TEST(LockstepTest, TheVersionBitsRunEveryJudgedVersion) {
  std::set<std::string> ran;
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (int v = 0; v < static_cast<int>(kFuzzVersions.size()); ++v) {
      const std::string version = kFuzzVersions[v];
      std::string bytes(1, static_cast<char>(ConfigByte(0, 0, false, v)));
      for (int i = 0; i < 300; ++i) bytes.push_back(static_cast<char>(i * 37));
      const LockstepResult r = RunLockstep(layer, Mode::kValid, bytes);
      const std::string what = absl::StrCat(std::string(LayerName(layer)), " ",
                                            version, ": ", r.message);
      EXPECT_FALSE(r.failed) << what;
      EXPECT_EQ(r.skipped, !properties::ModelJudges(version, layer)) << what;
      if (r.skipped) continue;
      EXPECT_GT(r.steps, 10) << what;
      EXPECT_EQ(r.impl_skipped, !properties::ImplJudges(version, layer))
          << what;
      ran.insert(version);
    }
  }
  for (const std::string& version : KnownUpstreams()) {
    EXPECT_TRUE(ran.contains(version)) << version;
  }
}

// Golden traces (GoldenSample(): every op, argument and config variant of
// the corpus), as seeds, pass every differential target, and the known
// upstream violations they show are counted, not failed.
TEST(LockstepTest, GoldenSeedsPassAndCountKnownViolations) {
  std::map<std::string, int> known;
  for (const std::string& f : GoldenSamplePaths()) {
    absl::StatusOr<Trace> t = ReadTraceFile(f);
    ASSERT_TRUE(t.ok()) << t.status();
    const std::string bytes = EncodeForFuzzing(*t);
    LockstepResult r = RunLockstep(t->header.layer, Mode::kValid, bytes);
    ASSERT_FALSE(r.failed) << f << ": " << r.message;
    for (const auto& [id, n] : r.known_counts) known[id] += n;
    const std::string hostile = EncodeForHostile(*t);
    r = RunLockstep(t->header.layer, Mode::kHostile,
                    std::string_view(hostile).substr(1));
    ASSERT_FALSE(r.failed) << f << " (hostile): " << r.message;
  }
  EXPECT_GT(known["in-flight-update-requeues"], 0);
}

// Every committed seed of the differential targets passes, read as its
// target reads it (fuzz/targets/fuzz_*.cc): crashes found once and fixed
// stay fixed in the normal build, not only in the sanitizer smoke.
TEST(LockstepTest, CommittedCorporaPass) {
  const std::string corpus = std::string(SCHEDTRACE_SOURCE_DIR) + "/corpus/";
  int inputs = 0;
  for (const auto& [target, layer] :
       {std::pair{"queue", Layer::kQueue}, std::pair{"cache", Layer::kCache},
        std::pair{"scheduler", Layer::kScheduler},
        std::pair{"hostile", Layer::kQueue}}) {
    const bool hostile = std::string(target) == "hostile";
    for (const auto& entry :
         std::filesystem::directory_iterator(corpus + target)) {
      std::ifstream in(entry.path(), std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      if (hostile && bytes.empty()) continue;
      LockstepResult r =
          hostile
              ? RunLockstep(HostileLayer(static_cast<uint8_t>(bytes[0])),
                            Mode::kHostile, std::string_view(bytes).substr(1))
              : RunLockstep(layer, Mode::kValid, bytes);
      EXPECT_FALSE(r.failed) << entry.path() << ": " << r.message;
      ++inputs;
    }
  }
  EXPECT_GT(inputs, 500);
}

}  // namespace
}  // namespace schedtrace::fuzz
