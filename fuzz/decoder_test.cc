#include "fuzz/decoder.h"

#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/codec.h"
#include "core/upstream_versions.h"
#include "fuzz/encoder.h"
#include "gtest/gtest.h"
#include "model/system.h"

namespace schedtrace::fuzz {
namespace {

std::string RandomBytes(std::mt19937& rng, int max_len) {
  std::string s(std::uniform_int_distribution<int>(0, max_len)(rng), '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

// Decoded as the targets decode: with the model's outs as feedback. An
// input whose version's layer the model does not judge yet decodes to no
// step, as the targets skip it (fuzz/lockstep.h).
Trace MustDecode(Layer layer, Mode mode, const std::string& bytes,
                 const DecoderOptions& options = {}) {
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> t =
      DecodeTrace(layer, mode, bytes, model.get(), /*record=*/false, options);
  if (absl::IsUnimplemented(t.status())) return Trace{};
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : Trace{};
}

// Every step of a valid decoding is one the model applies: the source never
// sends what an apiserver would not, whatever the bytes (the config byte's
// pools and perturbations included).
TEST(DecoderTest, ValidInputsDecodeToStepsTheModelApplies) {
  std::mt19937 rng(11);
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    int steps = 0;
    for (int i = 0; i < 150; ++i) {
      const std::string bytes = RandomBytes(rng, 600);
      Decoder dec(layer, Mode::kValid, bytes);
      std::unique_ptr<System> model = model::NewSystem();
      const absl::Status configured = model->Configure(dec.header());
      if (absl::IsUnimplemented(configured)) continue;  // skipped, as above
      ASSERT_TRUE(configured.ok()) << configured;
      while (std::optional<Step> step = dec.Next()) {
        absl::StatusOr<StepOut> out = model->Apply(*step);
        ASSERT_TRUE(out.ok()) << LayerName(layer) << " input " << i << ": "
                              << out.status() << "\n"
                              << EncodeStep(*step, false);
        ++steps;
        // Upstream exits (the queue layer's Update with no old object, which
        // the source sends now and then): the trace ends, as in a target.
        if (out->fatal) break;
        dec.Observe(*step, *out);
      }
    }
    EXPECT_GT(steps, 3000) << LayerName(layer);
  }
}

// Whether the source names pod `key` (node `node`) within pools of
// `options`' sizes, in either of its valid namings (PoolNames).
bool PodInPool(const std::string& key, Layer layer, const GenOptions& options) {
  for (bool corners : {false, true}) {
    const PoolNames names{.layer = layer, .corners = corners};
    for (int i = 0; i < options.pods; ++i) {
      if (names.Key(i) == key) return true;
    }
  }
  return false;
}
bool NodeInPool(const std::string& node, const GenOptions& options) {
  for (bool corners : {false, true}) {
    const PoolNames names{.corners = corners};
    for (int j = 0; j < options.nodes; ++j) {
      if (names.Node(j) == node) return true;
    }
  }
  return false;
}

// Whether `step` carries what an apiserver never sends within the source's
// pools: a pod or node outside them, a resourceVersion of 0.
bool OutsideThePools(const Step& step, Layer layer, const GenOptions& options) {
  for (const PodPtr& p : {step.pod, step.old_pod, step.new_pod}) {
    if (p == nullptr) continue;
    if (!PodInPool(p->Key(), layer, options) || p->resource_version == "0") {
      return true;
    }
  }
  for (const NodePtr& node : {step.node, step.old_node, step.new_node}) {
    if (node == nullptr) continue;
    if (!NodeInPool(node->name, options) || node->resource_version == "0") {
      return true;
    }
  }
  return false;
}

// Over 100 random inputs of `layer` in `mode`: adds of pods already added,
// deletes of pods not there, steps outside the pools, steps the model
// refuses (which end a decoding).
int RuleBreaks(Layer layer, Mode mode) {
  std::mt19937 rng(12);
  int breaks = 0;
  for (int i = 0; i < 100; ++i) {
    const std::string bytes = RandomBytes(rng, 600);
    Decoder dec(layer, mode, bytes);
    std::unique_ptr<System> model = model::NewSystem();
    const absl::Status configured = model->Configure(dec.header());
    if (absl::IsUnimplemented(configured)) continue;  // a skipped input
    if (!configured.ok()) return -1;
    std::set<std::string> live;
    while (std::optional<Step> step = dec.Next()) {
      const Op op = step->op;
      if (step->pod && (op == Op::kQAdd || op == Op::kPodAdd)) {
        breaks += !live.insert(step->pod->Key()).second;
      }
      if (step->pod && (op == Op::kQDelete || op == Op::kPodDelete)) {
        breaks += live.erase(step->pod->Key()) == 0;
      }
      breaks += OutsideThePools(*step, layer, dec.options());
      absl::StatusOr<StepOut> out = model->Apply(*step);
      breaks += !out.ok();
      if (!out.ok() || out->fatal) break;
      dec.Observe(*step, *out);
    }
  }
  return breaks;
}

// Hostile mode sends what an apiserver never would; valid mode, on the same
// inputs, does not.
TEST(DecoderTest, HostileInputsBreakTheApiserversRules) {
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    EXPECT_EQ(RuleBreaks(layer, Mode::kValid), 0) << LayerName(layer);
    EXPECT_GT(RuleBreaks(layer, Mode::kHostile), 10) << LayerName(layer);
  }
}

TEST(DecoderTest, DecodingIsDeterministicAndGivesSpecTraces) {
  std::mt19937 rng(13);
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (int i = 0; i < 20; ++i) {
      const std::string bytes = RandomBytes(rng, 400);
      const std::string a = EncodeTrace(MustDecode(layer, Mode::kValid, bytes));
      EXPECT_EQ(a, EncodeTrace(MustDecode(layer, Mode::kValid, bytes)));
      absl::StatusOr<Trace> parsed = ParseTrace(a, "decoded.jsonl");
      ASSERT_TRUE(parsed.ok()) << parsed.status();
      EXPECT_EQ(EncodeTrace(*parsed), a);
    }
  }
}

TEST(DecoderTest, InputsEndWithTheirBytesOrAtTheStepLimit) {
  EXPECT_TRUE(MustDecode(Layer::kQueue, Mode::kValid, "").steps.empty());
  // The config byte alone: the header, no step.
  EXPECT_TRUE(MustDecode(Layer::kScheduler, Mode::kValid, std::string(1, 0))
                  .steps.empty());
  EXPECT_EQ(MustDecode(Layer::kQueue, Mode::kValid, std::string(20000, 'x'))
                .steps.size(),
            static_cast<size_t>(kMaxSteps));
}

TEST(DecoderTest, TheConfigByteChoosesPoolsHostileShareAndPerturbations) {
  const std::string small(1, static_cast<char>(ConfigByte(1, 0, false)));
  Decoder a(Layer::kScheduler, Mode::kValid, small);
  EXPECT_EQ(a.options().pods, kPools[1].pods);
  EXPECT_EQ(a.options().nodes, kPools[1].nodes);
  EXPECT_FALSE(a.options().hostile);
  EXPECT_EQ(a.options().perturb, Perturbations{});

  const std::string hostile(1, static_cast<char>(ConfigByte(3, 2, false)));
  Decoder b(Layer::kCache, Mode::kHostile, hostile);
  EXPECT_EQ(b.options().pods, kPools[3].pods);
  EXPECT_TRUE(b.options().hostile);
  EXPECT_EQ(b.options().variety.hostile_rate, kHostileRates[2]);

  PerturbLevels levels = {};
  levels[static_cast<int>(PerturbKind::kRace)] = 4;
  levels[static_cast<int>(PerturbKind::kNodeBurst)] = 8;
  const std::string perturbed = InputPrefix(ConfigByte(0, 0, false), levels);
  ASSERT_EQ(perturbed.size(), 1u + kPerturbHeaderBytes);
  Decoder c(Layer::kScheduler, Mode::kValid, perturbed);
  EXPECT_EQ(c.options().perturb.race, 4 / 16.0);
  EXPECT_EQ(c.options().perturb.node_burst, 8 / 16.0);
  EXPECT_NE(c.header().description.find("perturb race:0.25,node_burst:0.5"),
            std::string::npos)
      << c.header().description;
  // The queue sees no nodes: its node kinds are off.
  Decoder q(Layer::kQueue, Mode::kValid, perturbed);
  EXPECT_EQ(q.options().perturb.node_burst, 0);
  EXPECT_EQ(q.options().perturb.race, 4 / 16.0);
}

// Config bits 6-7 and 4 choose the version the header names; 0 is v1.26.7,
// the version of inputs from before there were versions, and bit 4 clear
// keeps the meaning of inputs from before it chose one.
TEST(DecoderTest, TheConfigByteChoosesTheVersion) {
  for (int v = 0; v < static_cast<int>(kFuzzVersions.size()); ++v) {
    const uint8_t config = ConfigByte(0, 0, false, v);
    EXPECT_EQ(VersionOf(config), v);
    EXPECT_EQ((config & kVersionHighBit) != 0, v >= 4) << v;
    const std::string input(1, static_cast<char>(config));
    Decoder d(Layer::kQueue, Mode::kValid, input);
    EXPECT_EQ(d.options().upstream, kFuzzVersions[v]);
    EXPECT_EQ(d.header().upstream, kFuzzVersions[v]);
  }
  EXPECT_EQ(VersionIndex("v1.26.7"), 0);
  EXPECT_EQ(VersionIndex("v1.37.2"), 6);
  EXPECT_EQ(kFuzzVersions[0], std::string("v1.26.7"));
  // Every known version is reachable, whatever the systems judge today.
  for (const std::string& version : KnownUpstreams()) {
    EXPECT_EQ(kFuzzVersions[VersionIndex(version)], version);
  }
}

TEST(DecoderTest, OptionsForcePerturbationsOnAnyInput) {
  std::mt19937 rng(14);
  DecoderOptions forced;
  forced.perturb = Perturbations::All(0.3);
  int changed = 0;
  for (int i = 0; i < 20; ++i) {
    std::string bytes = RandomBytes(rng, 400);
    if (!bytes.empty()) bytes[0] &= ~kPerturbHeaderBit;
    Decoder dec(Layer::kScheduler, Mode::kValid, bytes, forced);
    EXPECT_EQ(dec.options().perturb, Perturbations::All(0.3));
    changed += EncodeTrace(MustDecode(Layer::kScheduler, Mode::kValid, bytes,
                                      forced)) !=
               EncodeTrace(MustDecode(Layer::kScheduler, Mode::kValid, bytes));
  }
  EXPECT_GT(changed, 10);
}

// A perturbed input makes the perturbations: an update with a new uid
// (recreate_update), a resync (the same object again), a delete carrying a
// stale version (tombstone).
TEST(DecoderTest, PerturbedInputsPerturb) {
  std::mt19937 rng(15);
  PerturbLevels levels;
  levels.fill(4);
  int new_uid = 0, resync = 0, tombstone = 0;
  for (int i = 0; i < 60; ++i) {
    const std::string bytes =
        InputPrefix(ConfigByte(0, 0, false), levels) + RandomBytes(rng, 600);
    for (const Step& s :
         MustDecode(Layer::kScheduler, Mode::kValid, bytes).steps) {
      if (s.old_pod && s.new_pod) {
        new_uid += s.old_pod->uid != s.new_pod->uid;
        resync += s.old_pod == s.new_pod || *s.old_pod == *s.new_pod;
      }
      tombstone += s.tombstone;
    }
  }
  EXPECT_GT(new_uid, 0);
  EXPECT_GT(resync, 0);
  EXPECT_GT(tombstone, 0);
}

// A recorded seeded run decodes to exactly the steps the source makes on
// that seed (what `schedtrace gen` would make with those options).
TEST(DecoderTest, RecordedRunsDecodeToTheSeedsSteps) {
  PerturbLevels levels;
  levels.fill(2);
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (uint64_t seed : {1, 2, 3}) {
      const uint8_t config = ConfigByte(seed % 4, 0, false);
      const std::string bytes =
          Recorded(layer, Mode::kValid, config, levels, seed, 80);
      const Trace decoded = MustDecode(layer, Mode::kValid, bytes);

      std::unique_ptr<System> model = model::NewSystem();
      const GenOptions options =
          OptionsFor(layer, Mode::kValid,
                     static_cast<uint8_t>(config | kPerturbHeaderBit), levels);
      std::unique_ptr<StepSource> source = StepSource::New(layer, options);
      RandomChoices random(seed);
      ASSERT_TRUE(model->Configure(source->Header(random)).ok());
      ASSERT_EQ(decoded.steps.size(), 80u) << LayerName(layer);
      for (const Step& got : decoded.steps) {
        const Step want = source->Next(random);
        ASSERT_EQ(EncodeStep(got, false), EncodeStep(want, false));
        absl::StatusOr<StepOut> out = model->Apply(want);
        ASSERT_TRUE(out.ok());
        source->Observe(want, *out);
      }
    }
  }
}

}  // namespace
}  // namespace schedtrace::fuzz
