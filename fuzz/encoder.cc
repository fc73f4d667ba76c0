// The encoder's search (encoder.h): per step, one choice at a time, the value
// whose step scores nearest the trace's.
#include "fuzz/encoder.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/upstream_versions.h"
#include "model/system.h"
#include "run/choice_stream.h"
#include "run/driver.h"
#include "run/step_source.h"

namespace schedtrace::fuzz {
namespace {

// One choice a step made: where its bytes start in the step's bytes, how
// many it took, and how many values it had (0 for a chance).
struct Choice {
  size_t at = 0;
  int bytes = 1;
  uint64_t range = 0;
};

// Reads bytes as ByteChoices does and notes the choices they answered.
class Probe : public ChoiceStream {
 public:
  explicit Probe(std::string_view bytes) : bytes_(bytes) {}
  int Uniform(int lo, int hi) override {
    const int n = ByteChoices::UniformBytes(lo, hi);
    if (n > 0) {
      choices_.push_back(
          {bytes_.reads(), n, static_cast<uint64_t>(int64_t{hi} - lo) + 1});
    }
    return bytes_.Uniform(lo, hi);
  }
  bool Chance(double p) override {
    choices_.push_back({bytes_.reads(), 1, 0});
    return bytes_.Chance(p);
  }
  size_t reads() const { return bytes_.reads(); }
  std::vector<Choice> choices() { return std::move(choices_); }

 private:
  ByteChoices bytes_;
  std::vector<Choice> choices_;
};

// `bytes` with `choice` answered by value `v` (a chance: 0 no, 1 yes).
std::string WithValue(std::string bytes, const Choice& choice, uint64_t v) {
  if (choice.range == 0) {
    bytes[choice.at] = static_cast<char>(v ? 255 : 0);
    return bytes;
  }
  for (int k = 0; k < choice.bytes; ++k, v >>= 8) {
    bytes[choice.at + k] = static_cast<char>(v & 255);
  }
  return bytes;
}

// The value `bytes` give `choice` (the range's reading of them).
uint64_t ValueOf(const std::string& bytes, const Choice& choice) {
  if (choice.range == 0) return static_cast<uint8_t>(bytes[choice.at]) >= 128;
  uint64_t v = 0;
  for (int k = choice.bytes - 1; k >= 0; --k) {
    v = v << 8 | static_cast<uint8_t>(bytes[choice.at + k]);
  }
  return v % choice.range;
}

// The pod and node a step is about.
std::string SubjectPod(const Step& s) {
  if (s.pod) return s.pod->Key();
  if (s.new_pod) return s.new_pod->Key();
  return s.pod_key;
}
const Pod* SubjectPodObject(const Step& s) {
  return s.pod ? s.pod.get() : s.new_pod.get();
}
const Node* SubjectNode(const Step& s) {
  return s.node ? s.node.get() : s.new_node.get();
}

bool Ready(const Node& n) {
  for (const NodeCondition& c : n.conditions) {
    if (c.type == "Ready") return c.status == "True";
  }
  return false;
}

int Requests(const Pod& p) {
  int n = 0;
  for (const Container& c : p.containers) n += c.requests.size();
  return n;
}

// How near a step the source made is to the trace's, with the trace's pod
// keys and node names mapped to the source's as they first appear.
class Scorer {
 public:
  double Score(const Step& a, const Step& b) const {
    double s = 0;
    if (a.op == b.op) s += 2000;
    s += 100.0 / (1.0 + std::abs(static_cast<double>(a.t - b.t)) / 1000.0);
    s += 200 * SamePod(SubjectPod(a), SubjectPod(b));
    const Node* an = SubjectNode(a);
    const Node* bn = SubjectNode(b);
    s += 100 * SameNode(an ? an->name : "", bn ? bn->name : "");
    s += PodShape(SubjectPodObject(a), SubjectPodObject(b));
    s += NodeShape(an, bn);
    s += 10 * ((a.old_pod == nullptr) == (b.old_pod == nullptr));
    if (a.old_pod && a.new_pod && b.old_pod && b.new_pod) {
      s += 30 * ((*a.old_pod == *a.new_pod) == (*b.old_pod == *b.new_pod));
      s += 30 * ((a.old_pod->uid == a.new_pod->uid) ==
                 (b.old_pod->uid == b.new_pod->uid));
    }
    s += 10 * ((a.old_node == nullptr) == (b.old_node == nullptr));
    s += 20 * (a.tombstone == b.tombstone);
    s += 20 * (a.reserve == b.reserve) + 20 * (a.permit == b.permit);
    s += 20 * (a.prebind_ok == b.prebind_ok) + 20 * (a.bind_ok == b.bind_ok);
    s += 10 * (a.cycle.has_value() == b.cycle.has_value());
    s += 15 * (a.event.resource == b.event.resource) +
         15 * (a.event.label == b.event.label);
    s += 20 * (a.plugins == b.plugins);
    s += 10 * (a.pod_keys.size() == b.pod_keys.size());
    s += 10 * (a.precheck.has_value() == b.precheck.has_value());
    s += 10 * SameNode(a.nominated_node, b.nominated_node);
    s += 5 * (a.wait_for_first_consumer == b.wait_for_first_consumer);
    return s;
  }

  // The source sent `a` for the trace's `b`: their pods and nodes are the
  // same from now on.
  void Bind(const Step& a, const Step& b) {
    Map(pods_, pod_images_, SubjectPod(a), SubjectPod(b));
    const Node* an = SubjectNode(a);
    const Node* bn = SubjectNode(b);
    if (an && bn) Map(nodes_, node_images_, an->name, bn->name);
    const Pod* ap = SubjectPodObject(a);
    const Pod* bp = SubjectPodObject(b);
    if (ap && bp) Map(nodes_, node_images_, ap->node_name, bp->node_name);
    for (size_t i = 0; i < std::min(a.pod_keys.size(), b.pod_keys.size());
         ++i) {
      Map(pods_, pod_images_, a.pod_keys[i], b.pod_keys[i]);
    }
  }

 private:
  using Names = std::map<std::string, std::string>;

  static bool Same(const Names& names, const std::set<std::string>& images,
                   const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return a.empty() == b.empty();
    auto it = names.find(b);
    return it != names.end() ? it->second == a : !images.contains(a);
  }
  static void Map(Names& names, std::set<std::string>& images,
                  const std::string& a, const std::string& b) {
    if (a.empty() || b.empty() || names.contains(b) || images.contains(a)) {
      return;
    }
    names[b] = a;
    images.insert(a);
  }
  bool SamePod(const std::string& a, const std::string& b) const {
    return Same(pods_, pod_images_, a, b);
  }
  bool SameNode(const std::string& a, const std::string& b) const {
    return Same(nodes_, node_images_, a, b);
  }

  double PodShape(const Pod* a, const Pod* b) const {
    if (a == nullptr || b == nullptr) return 40 * (a == b);
    double s = 20 * (a->node_name.empty() == b->node_name.empty());
    if (!a->node_name.empty() && !b->node_name.empty()) {
      s += 20 * SameNode(a->node_name, b->node_name);
    }
    s += 10 * (a->Priority() == b->Priority());
    s += 20 * (a->scheduling_gates.empty() == b->scheduling_gates.empty());
    s += 10 * (a->deletion_timestamp.has_value() ==
               b->deletion_timestamp.has_value());
    s +=
        10 * (a->nominated_node_name.empty() == b->nominated_node_name.empty());
    s += 5 * (a->tolerations.empty() == b->tolerations.empty());
    s += 10 *
         (a->required_pod_affinity.empty() == b->required_pod_affinity.empty());
    s += 5 * ((a->node_selector.empty() && !a->required_node_affinity) ==
              (b->node_selector.empty() && !b->required_node_affinity));
    s += 20 * (a->scheduler_name == b->scheduler_name);
    s += 5 * (Requests(*a) == Requests(*b));
    s += 2 * (a->labels.size() == b->labels.size());
    return s;
  }

  static double NodeShape(const Node* a, const Node* b) {
    if (a == nullptr || b == nullptr) return 40 * (a == b);
    return 10 * (a->unschedulable == b->unschedulable) +
           10 * (a->taints.size() == b->taints.size()) +
           10 * (Ready(*a) == Ready(*b)) +
           2 * (a->labels.size() == b->labels.size()) +
           5 * (a->allocatable == b->allocatable);
  }

  Names pods_, nodes_;
  std::set<std::string> pod_images_, node_images_;
};

struct Trial {
  std::string bytes;            // exactly what the step read
  std::vector<Choice> choices;  // the choices they answered
  Step step;
  double score = -1;
};

// `bytes` cut or padded to what `run` reads of them through a Probe, with
// the choices they answered; `run(probe, trial)` fills the step and score.
template <typename Run>
Trial Probed(std::string bytes, Run run) {
  Probe probe(bytes);
  Trial t;
  run(probe, t);
  bytes.resize(probe.reads(), '\0');
  t.bytes = std::move(bytes);
  t.choices = probe.choices();
  return t;
}

Trial Try(const StepSource& source, std::string bytes, const Scorer& scorer,
          const Step& target) {
  return Probed(std::move(bytes), [&](Probe& probe, Trial& t) {
    std::unique_ptr<StepSource> copy = source.Clone();
    t.step = copy->Next(probe);
    t.score = scorer.Score(t.step, target);
  });
}

// Sets choice `k` of `best` to the value that scores best, trying every
// value of a range of up to 256 and, for a wider one (the clock), a grid
// then a local search around its best point. True when `best` improved.
//
// One choice at a time finds the trace's op nearly always but not always its
// clock: a jump's chance comes before the ordinary step's value, and once
// the jump is taken (nearer than the smallest ordinary step) the ordinary
// value is no longer read. The clock then runs ahead by up to a jump.
template <typename TryFn>
bool Tune(Trial& best, size_t k, TryFn try_bytes) {
  const Choice choice = best.choices[k];
  bool improved = false;
  auto attempt = [&](uint64_t v) {
    Trial t = try_bytes(WithValue(best.bytes, choice, v));
    if (t.score <= best.score) return false;
    best = std::move(t);
    improved = true;
    return true;
  };
  const uint64_t current = ValueOf(best.bytes, choice);
  if (choice.range <= 256) {
    const uint64_t n = choice.range == 0 ? 2 : choice.range;
    for (uint64_t v = 0; v < n; ++v) {
      if (v != current) attempt(v);
      if (k >= best.choices.size() || best.choices[k].at != choice.at) break;
    }
    return improved;
  }
  constexpr uint64_t kGrid = 64;
  uint64_t at = current;
  for (uint64_t g = 0; g < kGrid; ++g) {
    const uint64_t v = g * choice.range / kGrid;
    if (v != current && attempt(v)) at = v;
  }
  for (uint64_t step = choice.range / kGrid; step >= 1; step /= 2) {
    while (true) {
      if (at >= step && attempt(at - step)) {
        at -= step;
      } else if (at + step < choice.range && attempt(at + step)) {
        at += step;
      } else {
        break;
      }
    }
  }
  return improved;
}

// The bytes of the step nearest `target` the source can send next: each
// choice in turn set to the value that scores best, in two sweeps.
Trial Search(const StepSource& source, const Step& target,
             const Scorer& scorer) {
  auto try_bytes = [&](std::string bytes) {
    return Try(source, std::move(bytes), scorer, target);
  };
  Trial best = try_bytes("");
  for (int sweep = 0; sweep < 2; ++sweep) {
    bool improved = false;
    for (size_t k = 0; k < best.choices.size(); ++k) {
      improved |= Tune(best, k, try_bytes);
    }
    if (!improved) break;
  }
  return best;
}

// How near a header the source made is to the trace's.
double HeaderScore(const TraceHeader& a, const TraceHeader& b) {
  return 10 * (a.config.profiles.size() == b.config.profiles.size()) +
         10 * (a.config.assumed_pod_ttl_ms == b.config.assumed_pod_ttl_ms) +
         10 * (a.config.pod_max_backoff_ms == b.config.pod_max_backoff_ms);
}

// The header's choices nearest `target`'s header, searched like a step's.
std::string HeaderBytes(Layer layer, const GenOptions& options,
                        const TraceHeader& target) {
  auto try_bytes = [&](std::string bytes) {
    return Probed(std::move(bytes), [&](Probe& probe, Trial& t) {
      std::unique_ptr<StepSource> source = StepSource::New(layer, options);
      t.score = HeaderScore(source->Header(probe), target);
    });
  };
  Trial best = try_bytes("");
  for (size_t k = 0; k < best.choices.size(); ++k) Tune(best, k, try_bytes);
  return best.bytes;
}

// The smallest pool that holds the trace's pods and nodes, else the largest.
int PoolFor(const Trace& trace) {
  std::set<std::string> pods, nodes;
  for (const Step& s : trace.steps) {
    if (const std::string key = SubjectPod(s); !key.empty()) pods.insert(key);
    if (const Node* n = SubjectNode(s)) nodes.insert(n->name);
  }
  int best = -1;
  for (int i = 0; i < static_cast<int>(kPools.size()); ++i) {
    if (kPools[i].pods < static_cast<int>(pods.size()) ||
        kPools[i].nodes < static_cast<int>(nodes.size())) {
      continue;
    }
    if (best < 0 || kPools[i].pods < kPools[best].pods) best = i;
  }
  return best >= 0 ? best : static_cast<int>(kPools.size()) - 1;
}

std::string Encode(const Trace& trace, Mode mode, uint8_t config,
                   const PerturbLevels& levels) {
  const Layer layer = trace.header.layer;
  std::string out = InputPrefix(config, levels);
  const GenOptions options =
      OptionsFor(layer, mode, static_cast<uint8_t>(out[0]), levels);
  const std::string header = HeaderBytes(layer, options, trace.header);
  out += header;
  std::unique_ptr<StepSource> source = StepSource::New(layer, options);
  std::unique_ptr<System> model = model::NewSystem();
  Driver driver(*model, nullptr);
  ByteChoices header_choices(header);
  if (driver.Configure(source->Header(header_choices))) return out;
  Scorer scorer;
  const size_t n = std::min<size_t>(trace.steps.size(), kMaxSteps);
  for (size_t i = 0; i < n; ++i) {
    const Trial best = Search(*source, trace.steps[i], scorer);
    ByteChoices choices(best.bytes);
    const Step step = source->Next(choices);
    out += best.bytes;
    scorer.Bind(step, trace.steps[i]);
    // A refused or fatal step: the decoding ends here too.
    if (driver.Apply(step) || driver.ended()) break;
    source->Observe(step, *driver.last_out());
  }
  return out;
}

}  // namespace

std::string EncodeForFuzzing(const Trace& trace, const PerturbLevels& levels) {
  return Encode(
      trace, Mode::kValid,
      ConfigByte(PoolFor(trace), 0, false,
                 VersionIndex(EffectiveUpstream(trace.header.upstream))),
      levels);
}

std::string EncodeForHostile(const Trace& trace) {
  return std::string(1,
                     static_cast<char>(HostileLayerByte(trace.header.layer))) +
         Encode(
             trace, Mode::kHostile,
             ConfigByte(PoolFor(trace), 0, false,
                        VersionIndex(EffectiveUpstream(trace.header.upstream))),
             {});
}

std::string Recorded(Layer layer, Mode mode, uint8_t config,
                     const PerturbLevels& levels, uint64_t seed, int steps) {
  std::string out = InputPrefix(config, levels);
  const GenOptions options =
      OptionsFor(layer, mode, static_cast<uint8_t>(out[0]), levels);
  std::unique_ptr<StepSource> source = StepSource::New(layer, options);
  std::unique_ptr<System> model = model::NewSystem();
  Driver driver(*model, nullptr);
  RandomChoices random(seed);
  RecordingChoices choices(random);
  if (!driver.Configure(source->Header(choices))) {
    for (int i = 0; i < std::min(steps, kMaxSteps); ++i) {
      const Step step = source->Next(choices);
      if (driver.Apply(step) || driver.ended()) break;
      source->Observe(step, *driver.last_out());
    }
  }
  return out + choices.bytes();
}

}  // namespace schedtrace::fuzz
