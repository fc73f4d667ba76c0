#include "fuzz/encoder.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/codec.h"
#include "fuzz/decoder.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::fuzz {
namespace {

// GoldenSample(): every op, argument and config variant of the golden
// corpus, layer by layer, in 25 traces.
const std::vector<Trace>& GoldenTraces() {
  static const std::vector<Trace>* traces = [] {
    auto* v = new std::vector<Trace>;
    for (const std::string& f : GoldenSamplePaths()) {
      absl::StatusOr<Trace> t = ReadTraceFile(f);
      EXPECT_TRUE(t.ok()) << t.status();
      if (t.ok()) v->push_back(*std::move(t));
    }
    return v;
  }();
  return *traces;
}

Trace Decode(Layer layer, Mode mode, std::string_view bytes) {
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> t =
      DecodeTrace(layer, mode, bytes, model.get(), /*record=*/false);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : Trace{};
}

// golden -> bytes -> decoded: the step source sends the golden trace's op
// at nearly every step (what it cannot send, e.g. an object shape it never
// builds or a call the world makes invalid, becomes the nearest step), in
// valid and in hostile mode, and the clock still increases.
TEST(EncoderTest, GoldenTracesDecodeToTheirOps) {
  int steps = 0, same = 0;
  for (const Trace& golden : GoldenTraces()) {
    SCOPED_TRACE(golden.path);
    const Layer layer = golden.header.layer;
    const Trace valid = Decode(layer, Mode::kValid, EncodeForFuzzing(golden));
    const std::string hostile = EncodeForHostile(golden);
    ASSERT_FALSE(hostile.empty());
    EXPECT_EQ(HostileLayer(static_cast<uint8_t>(hostile[0])), layer);
    const Trace h =
        Decode(layer, Mode::kHostile, std::string_view(hostile).substr(1));
    for (const Trace* t : {&valid, &h}) {
      for (size_t i = 0; i < t->steps.size(); ++i) {
        if (i > 0) {
          EXPECT_GT(t->steps[i].t, t->steps[i - 1].t);
        }
        if (i < golden.steps.size()) {
          ++steps;
          same += t->steps[i].op == golden.steps[i].op;
        }
      }
    }
  }
  EXPECT_GT(steps, 500);
  EXPECT_GT(same, steps * 85 / 100) << same << " of " << steps;
}

// Traces the source can send as they are come back step for step: the
// same ops, and mostly the same clock.
TEST(EncoderTest, TracesTheSourceCanSendComeBack) {
  int steps = 0, same_op = 0, same_advance = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    // The steps: a seeded run of the source itself, so every one is
    // sendable.
    const std::string bytes = Recorded(Layer::kScheduler, Mode::kValid,
                                       ConfigByte(0, 0, false), {}, seed, 40);
    Trace run = Decode(Layer::kScheduler, Mode::kValid, bytes);
    ASSERT_EQ(run.steps.size(), 40u);
    run.header.name = "run";
    const Trace back =
        Decode(Layer::kScheduler, Mode::kValid, EncodeForFuzzing(run));
    ASSERT_EQ(back.steps.size(), run.steps.size());
    for (size_t i = 0; i < run.steps.size(); ++i) {
      ++steps;
      same_op += back.steps[i].op == run.steps[i].op;
      // The clock's advance before the step: one missed advance shifts
      // every later t, so the advances are what the encoder gets right.
      const int64_t run_before = i == 0 ? 0 : run.steps[i - 1].t;
      const int64_t back_before = i == 0 ? 0 : back.steps[i - 1].t;
      same_advance +=
          back.steps[i].t - back_before == run.steps[i].t - run_before;
    }
  }
  EXPECT_GE(same_op, steps * 90 / 100) << same_op << " of " << steps;
  // The clock mostly (encoder.cc, Tune; a jump's chance is its one
  // systematic miss).
  EXPECT_GE(same_advance, steps * 60 / 100) << same_advance << " of " << steps;
}

TEST(EncoderTest, ThePoolHoldsTheTracesPodsAndNodes) {
  for (const Trace& golden : GoldenTraces()) {
    const std::string bytes = EncodeForFuzzing(golden);
    ASSERT_FALSE(bytes.empty());
    std::set<std::string> pods;
    for (const Step& s : golden.steps) {
      if (s.pod) pods.insert(s.pod->Key());
    }
    const Pool& pool = kPools[static_cast<uint8_t>(bytes[0]) & 3];
    if (pods.size() <= static_cast<size_t>(kPools.back().pods)) {
      EXPECT_GE(pool.pods, static_cast<int>(pods.size())) << golden.path;
    }
    EXPECT_FALSE(static_cast<uint8_t>(bytes[0]) & kPerturbHeaderBit);
  }
}

TEST(EncoderTest, LevelsGiveThePerturbationHeader) {
  const Trace& golden = GoldenTraces().front();
  PerturbLevels levels = {};
  levels[static_cast<int>(PerturbKind::kTombstone)] = 3;
  const std::string bytes = EncodeForFuzzing(golden, levels);
  Decoder dec(golden.header.layer, Mode::kValid, bytes);
  EXPECT_EQ(dec.options().perturb.tombstone, 3 / 16.0);
  EXPECT_EQ(dec.options().perturb.race, 0);
}

TEST(EncoderTest, LevelsForRoundsProbabilities) {
  Perturbations p;
  p.resync = 0.01;  // rounds to 0 but is on: level 1
  p.race = 1;       // at most 15
  p.node_burst = 0.5;
  EXPECT_EQ(LevelsFor(p), (PerturbLevels{1, 15, 0, 0, 0, 0, 8}));
  EXPECT_EQ(LevelsFor(PerturbationsOf(LevelsFor(p))), LevelsFor(p));
  EXPECT_EQ(LevelsFor(Perturbations{}), PerturbLevels{});
}

TEST(EncoderTest, RecordedHostileRunsDecodeInHostileMode) {
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    const std::string bytes =
        Recorded(layer, Mode::kHostile, ConfigByte(0, 2, false), {}, 9, 60);
    const Trace t = Decode(layer, Mode::kHostile, bytes);
    EXPECT_FALSE(t.steps.empty()) << LayerName(layer);
  }
}

}  // namespace
}  // namespace schedtrace::fuzz
