#include "fuzz/encoder.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "fuzz/decoder.h"
#include "gtest/gtest.h"
#include "harness/codec.h"
#include "harness/golden_test_util.h"
#include "model/system.h"

namespace schedtrace::fuzz {
namespace {

// GoldenSample(): every op, argument and config variant of the golden
// corpus, layer by layer, in 25 traces (the corpus is for the systems'
// golden passes, model/golden_test.cc and impl/golden_test.cc).
std::vector<Trace> ReadGolden() {
  std::vector<Trace> traces;
  for (const std::string& f : GoldenSamplePaths()) {
    absl::StatusOr<Trace> t = ReadTraceFile(f);
    EXPECT_TRUE(t.ok()) << t.status();
    if (t.ok()) traces.push_back(*std::move(t));
  }
  return traces;
}

// Read once: every test here walks all of them.
const std::vector<Trace>& GoldenTraces() {
  static const std::vector<Trace>* traces =
      new std::vector<Trace>(ReadGolden());
  return *traces;
}

// The key of the pod (or pod key) a step is about, "" for none.
std::string KeyOf(const Step& s) {
  if (s.pod) return s.pod->Key();
  if (s.new_pod) return s.new_pod->Key();
  return s.pod_key;
}
std::string NodeOf(const Step& s) {
  if (s.node) return s.node->name;
  if (s.new_node) return s.new_node->name;
  return "";
}

// golden -> bytes -> hostile decode gives back every op, on the same pods
// and nodes (renamed into the pools), with the clock still increasing.
TEST(EncoderTest, EveryGoldenTraceRoundTripsItsOps) {
  const std::vector<Trace>& traces = GoldenTraces();
  ASSERT_EQ(traces.size(), GoldenSample().size());
  int fitting = 0;
  for (const Trace& golden : traces) {
    const std::string bytes = EncodeForFuzzing(golden);
    absl::StatusOr<Trace> decoded =
        DecodeTrace(golden.header.layer, Mode::kHostile, bytes, nullptr, false);
    ASSERT_TRUE(decoded.ok());
    const size_t n = std::min<size_t>(golden.steps.size(), kMaxSteps);
    ASSERT_EQ(decoded->steps.size(), n) << golden.path;
    std::map<std::string, std::string> keys, nodes;
    std::map<std::string, std::string> keys_back;
    int64_t last_t = 0;
    for (size_t i = 0; i < n; ++i) {
      const Step& g = golden.steps[i];
      const Step& d = decoded->steps[i];
      ASSERT_EQ(OpName(d.op), OpName(g.op)) << golden.path << " step " << i + 1;
      ASSERT_GT(d.t, last_t);
      last_t = d.t;
      const std::string gk = KeyOf(g), dk = KeyOf(d);
      ASSERT_EQ(gk.empty(), dk.empty()) << golden.path << " step " << i + 1;
      if (!gk.empty()) {
        auto [it, fresh] = keys.emplace(gk, dk);
        ASSERT_EQ(it->second, dk) << golden.path << " step " << i + 1;
        keys_back.emplace(dk, gk);
      }
      if (!NodeOf(g).empty()) {
        auto [it, fresh] = nodes.emplace(NodeOf(g), NodeOf(d));
        ASSERT_EQ(it->second, NodeOf(d)) << golden.path << " step " << i + 1;
      }
      EXPECT_EQ(d.tombstone, g.tombstone);
      if (g.op == Op::kScheduleOne) {
        EXPECT_EQ(d.reserve, g.reserve);
        EXPECT_EQ(d.permit, g.permit);
      }
      if (g.op == Op::kBind) {
        EXPECT_EQ(d.prebind_ok, g.prebind_ok);
        EXPECT_EQ(d.bind_ok, g.bind_ok);
      }
      const auto& events = MoveEvents();
      if (g.op == Op::kQMoveAll &&
          std::find(events.begin(), events.end(), g.event) != events.end()) {
        EXPECT_EQ(d.event, g.event) << golden.path;
      }
    }
    // Within the pools, the renaming is one to one.
    if (keys.size() <= static_cast<size_t>(kPodPool)) {
      ++fitting;
      EXPECT_EQ(keys_back.size(), keys.size()) << golden.path;
    }
  }
  EXPECT_GT(fitting, 20);
}

TEST(EncoderTest, HostileSeedsCarryTheLayer) {
  for (const Trace& golden : GoldenTraces()) {
    const std::string bytes = EncodeForHostile(golden);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(HostileLayer(static_cast<uint8_t>(bytes[0])),
              golden.header.layer);
    EXPECT_EQ(bytes.substr(1), EncodeForFuzzing(golden));
  }
}

TEST(EncoderTest, TheConfigByteKeepsTheConfig) {
  for (const Trace& golden : GoldenTraces()) {
    const Config& c = golden.header.config;
    const Config d =
        HeaderFor(golden.header.layer, ConfigByte(golden.header)).config;
    if (c.pod_initial_backoff_ms == 1000 && c.pod_max_backoff_ms == 10000) {
      EXPECT_EQ(d.pod_initial_backoff_ms, 1000);
      EXPECT_EQ(d.pod_max_backoff_ms, 10000);
    }
    EXPECT_EQ(d.assumed_pod_ttl_ms > 0, c.assumed_pod_ttl_ms > 0)
        << golden.path;
    EXPECT_EQ(d.profiles.size() > 1, c.profiles.size() > 1);
  }
}

// The encoder's seeds decode unperturbed: no perturbation header, draw
// nibble 0 in every record.
TEST(EncoderTest, SeedsCarryNoPerturbation) {
  for (const Trace& golden : GoldenTraces()) {
    const std::string bytes = EncodeForFuzzing(golden);
    ASSERT_FALSE(bytes.empty());
    EXPECT_EQ(bytes[0] & kPerturbHeaderBit, 0) << golden.path;
    size_t pos = 1;
    while (pos < bytes.size()) {
      const Op op =
          OpTable(golden.header.layer)[static_cast<uint8_t>(bytes[pos]) & 15];
      ASSERT_LT(pos + 1, bytes.size());
      EXPECT_EQ(static_cast<uint8_t>(bytes[pos + 1]) >> 4, 0) << golden.path;
      pos += 2 + ArgBytes(op);
    }
    EXPECT_EQ(pos, bytes.size()) << golden.path;
    Decoder dec(golden.header.layer, Mode::kValid, bytes);
    EXPECT_EQ(dec.perturbations(), Perturbations{});
  }
}

TEST(EncoderTest, WithPerturbationsWritesTheHeader) {
  const PerturbLevels levels = {1, 2, 3, 4, 5, 6, 7};
  const std::string plain("\x03\x00\x05\x00\x00\x00", 6);
  const std::string on = WithPerturbations(plain, levels);
  EXPECT_EQ(on, std::string("\x23\x21\x43\x65\x07", 5) + plain.substr(1));
  // A header already there is replaced; the records stay.
  EXPECT_EQ(WithPerturbations(on, {}),
            std::string("\x23\x00\x00\x00\x00", 5) + plain.substr(1));
  EXPECT_EQ(WithPerturbations("", {}), std::string("\x20\x00\x00\x00\x00", 5));
  Decoder dec(Layer::kScheduler, Mode::kValid, on);
  EXPECT_EQ(dec.perturbations(), PerturbationsOf(levels));
  EXPECT_EQ(dec.perturbations().node_burst, 7 / 16.0);
  EXPECT_EQ(dec.header().config, HeaderFor(Layer::kScheduler, 3).config);
  std::optional<Step> s = dec.Next();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->op, Op::kPodAdd);  // the first record, in its place
  // The queue sees no nodes: its node kinds are off.
  Decoder queue(Layer::kQueue, Mode::kValid, on);
  EXPECT_EQ(queue.perturbations().node_recreate, 0);
  EXPECT_EQ(queue.perturbations().node_burst, 0);
  EXPECT_EQ(queue.perturbations().race, 2 / 16.0);
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

// Where each record of a per-layer input starts (after the config byte and
// the perturbation header, if any).
std::vector<size_t> RecordStarts(Layer layer, std::string_view input) {
  std::vector<size_t> starts;
  if (input.empty()) return starts;
  size_t pos = 1;
  if (static_cast<uint8_t>(input[0]) & kPerturbHeaderBit) {
    pos += kPerturbHeaderBytes;
  }
  while (pos < input.size()) {
    starts.push_back(pos);
    pos += 2 + ArgBytes(OpTable(layer)[static_cast<uint8_t>(input[pos]) & 15]);
  }
  return starts;
}

PerturbLevels AllAt(uint8_t level) {
  PerturbLevels l;
  l.fill(level);
  return l;
}

// WithDraws changes only the draw nibbles: the same records at the same
// places, the same ops, clock deltas and arguments, the header kept.
TEST(EncoderTest, WithDrawsChangesOnlyTheDrawNibbles) {
  int records = 0, firing = 0;
  uint64_t seed = 0;
  for (const Trace& golden : GoldenTraces()) {
    ++seed;
    const Layer layer = golden.header.layer;
    const std::string plain = EncodeForFuzzing(golden);
    for (const std::string& in : {plain, WithPerturbations(plain, AllAt(2))}) {
      const std::string out = WithDraws(layer, in, seed);
      ASSERT_EQ(out.size(), in.size()) << golden.path;
      const std::vector<size_t> starts = RecordStarts(layer, in);
      ASSERT_EQ(RecordStarts(layer, out), starts) << golden.path;
      std::set<size_t> dts;
      for (size_t s : starts) dts.insert(s + 1);
      for (size_t i = 0; i < in.size(); ++i) {
        const auto a = static_cast<uint8_t>(in[i]);
        const auto b = static_cast<uint8_t>(out[i]);
        if (dts.contains(i)) {
          EXPECT_EQ(b & 15, a & 15) << golden.path << " byte " << i;
          ++records;
          firing += (b >> 4) >= 14;
        } else {
          EXPECT_EQ(b, a) << golden.path << " byte " << i;
        }
      }
      // Decoded literally (hostile mode ignores draws): the same steps.
      absl::StatusOr<Trace> x =
          DecodeTrace(layer, Mode::kHostile, in, nullptr, false);
      absl::StatusOr<Trace> y =
          DecodeTrace(layer, Mode::kHostile, out, nullptr, false);
      ASSERT_TRUE(x.ok() && y.ok());
      ASSERT_EQ(y->steps.size(), x->steps.size()) << golden.path;
      for (size_t i = 0; i < x->steps.size(); ++i) {
        EXPECT_EQ(y->steps[i].op, x->steps[i].op) << golden.path;
        EXPECT_EQ(y->steps[i].t, x->steps[i].t) << golden.path;
        EXPECT_EQ(KeyOf(y->steps[i]), KeyOf(x->steps[i])) << golden.path;
      }
    }
  }
  // The draws are about uniform (over many seeds): 2 of 16 nibbles fire at
  // level 2.
  ASSERT_GT(records, 1000);
  EXPECT_GT(firing, records / 12);
  EXPECT_LT(firing, records / 6);
  // Short and cut-short inputs.
  EXPECT_EQ(WithDraws(Layer::kQueue, "", 1), "");
  EXPECT_EQ(WithDraws(Layer::kQueue, "\x23", 1), "\x23");
  EXPECT_EQ(WithDraws(Layer::kQueue, std::string("\x20\x22\x22", 3), 1),
            std::string("\x20\x22\x22", 3));  // a header cut short
  const std::string one =
      WithDraws(Layer::kQueue, std::string("\x00\x00", 2), 1);
  EXPECT_EQ(one, std::string("\x00\x00", 2));  // an op byte without its dt
}

TEST(EncoderTest, WithDrawsIsDeterministic) {
  int differ = 0, traces = 0;
  for (const Trace& golden : GoldenTraces()) {
    const Layer layer = golden.header.layer;
    const std::string in =
        WithPerturbations(EncodeForFuzzing(golden), AllAt(2));
    const std::string a = WithDraws(layer, in, 7);
    EXPECT_EQ(WithDraws(layer, in, 7), a) << golden.path;
    // Draws depend on the seed only, not on what was there.
    EXPECT_EQ(WithDraws(layer, a, 7), a) << golden.path;
    if (RecordStarts(layer, in).size() >= 8) {
      ++traces;
      differ += WithDraws(layer, in, 8) != a;
    }
  }
  ASSERT_GE(traces, 10);
  EXPECT_EQ(differ, traces);
}

// With a perturbation header and drawn nibbles, the golden seeds decode
// perturbed (with the model's feedback, as the fuzz targets decode them), in
// every layer and every kind the layer has; with draw 0 they never do. Each
// trace is drawn with several seeds.
TEST(EncoderTest, DrawnSeedsDecodePerturbed) {
  std::map<Layer, std::set<PerturbKind>> kinds;
  std::map<Layer, int> perturbed, steps;
  uint64_t seed = 0;
  for (int round = 0; round < 8; ++round) {
    for (const Trace& golden : GoldenTraces()) {
      ++seed;
      const Layer layer = golden.header.layer;
      const std::string header =
          WithPerturbations(EncodeForFuzzing(golden), AllAt(2));
      for (const bool drawn : {false, true}) {
        const std::string in = drawn ? WithDraws(layer, header, seed) : header;
        std::unique_ptr<System> model = model::NewSystem();
        Decoder dec(layer, Mode::kValid, in);
        ASSERT_TRUE(model->Configure(dec.header()).ok());
        while (std::optional<Step> s = dec.Next()) {
          if (dec.last_perturbation()) {
            EXPECT_TRUE(drawn) << golden.path;
            kinds[layer].insert(*dec.last_perturbation());
            ++perturbed[layer];
          }
          steps[layer] += drawn;
          absl::StatusOr<StepOut> out = model->Apply(*s);
          ASSERT_TRUE(out.ok()) << golden.path << ": " << out.status();
          if (out->fatal) break;
          dec.Observe(*s, *out);
        }
      }
    }
  }
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    SCOPED_TRACE(LayerName(layer));
    EXPECT_GT(perturbed[layer], steps[layer] / 50);
    // Every pod kind; the node kinds too where there are nodes.
    EXPECT_GE(kinds[layer].size(), layer == Layer::kQueue ? 5u : 6u);
  }
}

TEST(EncoderTest, ValidDecodingOfASimpleTraceKeepsItsOps) {
  // A trace that is valid and fits the pools decodes to itself in valid mode
  // too (same ops, same pods, same nodes).
  TraceHeader h = HeaderFor(Layer::kScheduler, 0);
  const std::string input(
      "\x00"                  // config
      "\x03\x05\x00\x00"      // node_add n0
      "\x00\x05\x01\x04\x00"  // pod_add team/p1, cpu 100m
      "\x09\x05"              // schedule_one
      "\x2c\x06\x00",         // bind (bind error)
      15);
  Decoder dec(Layer::kScheduler, Mode::kValid, input);
  std::vector<std::string> ops;
  while (std::optional<Step> s = dec.Next()) ops.emplace_back(OpName(s->op));
  EXPECT_EQ(ops, (std::vector<std::string>{"node_add", "pod_add",
                                           "schedule_one", "bind"}));
  Trace t;
  t.header = h;
  const std::string two = input.substr(0, 10);
  Decoder again(Layer::kScheduler, Mode::kValid, two);
  while (std::optional<Step> s = again.Next()) t.steps.push_back(*s);
  ASSERT_EQ(t.steps.size(), 2u);
  EXPECT_EQ(t.steps[1].pod->Key(), "team/p1");
  EXPECT_EQ(t.steps[1].pod->containers[0].requests.at("cpu").text(), "100m");
  // Encoded and decoded again (valid mode): the same ops and objects, the
  // pod renamed to the first slot.
  const std::string bytes = EncodeForFuzzing(t);
  Decoder back(Layer::kScheduler, Mode::kValid, bytes);
  std::optional<Step> s1 = back.Next(), s2 = back.Next();
  ASSERT_TRUE(s1 && s2);
  EXPECT_FALSE(back.Next().has_value());
  EXPECT_EQ(s1->op, Op::kNodeAdd);
  EXPECT_EQ(*s1->node, *t.steps[0].node);
  EXPECT_EQ(s2->op, Op::kPodAdd);
  EXPECT_EQ(s2->pod->Key(), "default/p0");
  EXPECT_EQ(s2->pod->containers, t.steps[1].pod->containers);
  EXPECT_EQ(s2->t, t.steps[1].t);
}

}  // namespace
}  // namespace schedtrace::fuzz
