#include "run/gen_options.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace schedtrace {

GenOptions LargePoolOptions(uint64_t seed) {
  GenOptions options{
      .seed = seed, .steps = 700, .pods = 40, .nodes = 12, .queue_pool = 40};
  if (seed % 2 == 0) {
    options.perturb = Perturbations::All(0.05);
  }
  return options;
}

GenOptions CountRunOptions(GenOptions options, const PinnedGenFlags& pinned) {
  if (pinned.pods || options.seed % 4 != 0) return options;
  options.pods = 40 + static_cast<int>(options.seed / 4 % 25);
  if (!pinned.queue_pool) options.queue_pool = options.pods;
  if (!pinned.steps) options.steps = std::max(options.steps, 12 * options.pods);
  return options;
}

std::string_view TraceModeName(TraceMode mode) {
  switch (mode) {
    case TraceMode::kPlain:
      return "plain";
    case TraceMode::kPerturbed:
      return "perturbed";
    case TraceMode::kHostile:
      return "hostile";
  }
  return "plain";
}

TraceMode MixedTraceMode(uint64_t seed) {
  switch (seed % 3) {
    case 1:
      return TraceMode::kPlain;
    case 2:
      return TraceMode::kPerturbed;
    default:
      return TraceMode::kHostile;
  }
}

GenOptions WithTraceMode(GenOptions options, TraceMode mode) {
  switch (mode) {
    case TraceMode::kPlain:
      break;
    case TraceMode::kPerturbed:
      options.perturb = Perturbations::All(kMixedPerturbation);
      break;
    case TraceMode::kHostile:
      options.hostile = true;
      break;
  }
  return options;
}

namespace {

constexpr int kMaxPods = 100000;
// Node scores stay unique and in [0, 100] up to 100 nodes (Score).
constexpr int kMaxNodes = 100;

absl::Status BadValue(const std::string& name, const std::string& takes,
                      const std::string& value) {
  return absl::InvalidArgumentError(
      absl::StrCat("--", name, " takes ", takes, ", not \"", value, "\""));
}

// A whole number in [lo, hi].
absl::Status SetInt(const std::string& name, const std::string& value, int lo,
                    int hi, int& out) {
  int v = 0;
  if (!absl::SimpleAtoi(value, &v) || v < lo || v > hi) {
    return BadValue(
        name,
        hi == std::numeric_limits<int>::max()
            ? absl::StrCat("a whole number >= ", lo)
            : absl::StrCat("a whole number in [", lo, ", ", hi, "]"),
        value);
  }
  out = v;
  return absl::OkStatus();
}

bool ParseProbability(const std::string& text, double& out) {
  double v = 0;
  if (!absl::SimpleAtod(text, &v) || !(v >= 0) || v > 1) return false;
  out = v;
  return true;
}

absl::Status SetProbability(const std::string& name, const std::string& value,
                            double& out) {
  if (!ParseProbability(value, out)) {
    return BadValue(name, "a probability in [0, 1]", value);
  }
  return absl::OkStatus();
}

// "MIN:MAX" or "MS" (both MIN and MAX), whole milliseconds, 1 <= MIN <= MAX.
bool ParseRange(const std::vector<std::string>& parts, int& lo, int& hi) {
  int a = 0, b = 0;
  if (parts.empty() || parts.size() > 2 || !absl::SimpleAtoi(parts[0], &a) ||
      !absl::SimpleAtoi(parts.back(), &b) || a < 1 || a > b) {
    return false;
  }
  lo = a;
  hi = b;
  return true;
}

absl::Status SetRange(const std::string& name, const std::string& value,
                      int& lo, int& hi) {
  std::vector<std::string> parts = absl::StrSplit(value, ':');
  if (!ParseRange(parts, lo, hi)) {
    return BadValue(
        name, "MIN:MAX (or MS), whole milliseconds, 1 <= MIN <= MAX", value);
  }
  return absl::OkStatus();
}

// "P:MIN:MAX" or "P:MS".
absl::Status SetJump(const std::string& name, const std::string& value,
                     ClockJump& out) {
  std::vector<std::string> parts = absl::StrSplit(value, ':');
  ClockJump j;
  if (parts.size() < 2 || !ParseProbability(parts[0], j.p) ||
      !ParseRange(std::vector<std::string>(parts.begin() + 1, parts.end()),
                  j.min_ms, j.max_ms)) {
    return BadValue(name,
                    "P:MIN:MAX (or P:MS), P in [0, 1], whole milliseconds, "
                    "1 <= MIN <= MAX",
                    value);
  }
  out = j;
  return absl::OkStatus();
}

absl::Status SetGenFlag(GenOptions& o, const std::string& name,
                        const std::string& value) {
  const auto it =
      std::find_if(GenFlags().begin(), GenFlags().end(),
                   [&](const GenFlag& f) { return f.name == name; });
  if (it == GenFlags().end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " is not a generator flag"));
  }
  if (it->boolean) {
    if (!value.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--", name, " is a switch and takes no value, not \"", value, "\""));
    }
    if (name == "hostile") {
      o.hostile = true;
      return absl::OkStatus();
    }
    return absl::InternalError(absl::StrCat("--", name, " has no setter"));
  }
  if (name == "seed") {
    if (!absl::SimpleAtoi(value, &o.seed)) {
      return BadValue(name, "a whole number >= 0", value);
    }
    return absl::OkStatus();
  }
  if (name == "steps") {
    return SetInt(name, value, 0, std::numeric_limits<int>::max(), o.steps);
  }
  if (name == "pods") return SetInt(name, value, 1, kMaxPods, o.pods);
  if (name == "nodes") return SetInt(name, value, 1, kMaxNodes, o.nodes);
  if (name == "queue-pool") {
    return SetInt(name, value, 1, kMaxPods, o.queue_pool);
  }
  if (name == "perturb") {
    absl::StatusOr<Perturbations> p = ParsePerturbations(value);
    if (!p.ok()) return p.status();
    o.perturb = *p;
    return absl::OkStatus();
  }
  if (name == "hostile-rate") {
    return SetProbability(name, value, o.variety.hostile_rate);
  }
  if (name == "step-ms") {
    return SetRange(name, value, o.clock.min_ms, o.clock.max_ms);
  }
  if (name == "flush-jump") return SetJump(name, value, o.clock.flush);
  if (name == "backoff-jump") return SetJump(name, value, o.clock.backoff);
  if (name == "ttl-jump") return SetJump(name, value, o.clock.ttl);
  if (name == "boundary-landing") {
    return SetProbability(name, value, o.clock.land);
  }
  if (name == "high-clock") {
    return SetProbability(name, value, o.clock.high_start);
  }
  if (name == "clock-leap") return SetProbability(name, value, o.clock.leap);
  if (name == "failure-rate") {
    return SetProbability(name, value, o.variety.failure_rate);
  }
  if (name == "two-profiles") {
    return SetProbability(name, value, o.variety.two_profiles);
  }
  if (name == "bad-score") {
    return SetProbability(name, value, o.variety.bad_score);
  }
  if (name == "huge-backoff") {
    return SetProbability(name, value, o.variety.huge_backoff);
  }
  if (name == "wake-ups") {
    return SetProbability(name, value, o.variety.wake_ups);
  }
  return absl::InternalError(absl::StrCat("--", name, " has no setter"));
}

}  // namespace

const std::vector<GenFlag>& GenFlags() {
  static const std::vector<GenFlag> kFlags = {
      {"seed", "the random seed", "1"},
      {"steps", "steps per trace", "60"},
      {"pods",
       "pods p0..p(N-1) (or corner names), 1..100000; the queue layer draws "
       "from the first min(--pods, --queue-pool)",
       "7"},
      {"nodes",
       "nodes n0..n(N-1) (or corner names), 1..100 (scheduler and cache "
       "layers; the queue layer names the first three)",
       "4"},
      {"queue-pool",
       "queue layer: how many pods its steps draw from, capped at --pods (a "
       "small pool makes keys collide; --pods=40 --queue-pool=40 fills "
       "heaps deep enough to show sift-order bugs)",
       "5"},
      {"perturb",
       "informer perturbations with their probabilities, e.g. "
       "resync:0.1,race:0.2 (resync, race, tombstone, recreate, "
       "recreate_update, node_recreate, node_burst, all; "
       "run/step_source.h); default none",
       ""},
      {"hostile",
       "mix in sequences the apiserver never sends (duplicate adds, unknown "
       "pods, node name changes, decreasing resourceVersions)",
       "", true},
      {"hostile-rate", "with --hostile: the share of steps that are hostile",
       "0.15"},
      {"step-ms",
       "an ordinary step's clock advance: MIN:MAX milliseconds (or MS)",
       "100:3000"},
      {"flush-jump",
       "queue and scheduler layers: P:MIN:MAX (or P:MS), a clock jump past "
       "the 5-minute leftover flush with probability P, drawn first",
       "0.05:310000"},
      {"backoff-jump",
       "queue and scheduler layers: P:MIN:MAX (or P:MS), a clock jump across "
       "backoff with probability P, drawn next",
       "0.15:5000:20000"},
      {"ttl-jump",
       "cache layer: P:MIN:MAX (or P:MS), a clock jump across the 30 s "
       "assumed-pod TTL with probability P",
       "0.1:20000:40000"},
      {"boundary-landing",
       "queue and scheduler layers: the probability that the clock lands 1 ms "
       "before, on or 1 ms after a boundary the trace reached (a pod's "
       "backoff expiry, the end of its 5 minutes in unschedulablePods) "
       "instead of advancing",
       "0.1"},
      {"high-clock",
       "the probability that a trace's clock starts high: just below "
       "9223372036854 ms (the int64-nanosecond limit) or near 2^62 ms (the "
       "format's bound)",
       "0.1"},
      {"clock-leap",
       "queue and scheduler layers: the probability per step that the clock "
       "leaps 10^13 ms ahead (once per trace, while below the "
       "int64-nanosecond limit)",
       "0.004"},
      {"failure-rate",
       "scheduler layer: the probability that Reserve fails (per "
       "schedule_one), PreBind fails and Bind fails (each, per bind)",
       "0.1"},
      {"wake-ups",
       "scheduler layer: the probability per step of a step that lifts "
       "what rejected a pod the cycles left unschedulable (a node's cpu, "
       "zone, taint or unschedulable flag, an assigned pod deleted, the "
       "pod's request lowered, a nomination cleared)",
       "0"},
      {"two-profiles",
       "scheduler layer: the probability that a trace has a second profile "
       "of ours, other-scheduler",
       "0.25"},
      {"bad-score",
       "scheduler layer: the probability that a node's score is outside "
       "[0, 100] (a cycle that scores it fails)",
       "0.03"},
      {"huge-backoff",
       "queue layer: the probability that a trace has a huge "
       "podMaxBackoffMs and re-pops one pod past the backoff cap",
       "0.1"},
  };
  return kFlags;
}

absl::StatusOr<GenOptions> ApplyGenFlags(
    const std::vector<std::pair<std::string, std::string>>& flags,
    GenOptions options) {
  bool rate = false;
  for (const auto& [name, value] : flags) {
    if (absl::Status s = SetGenFlag(options, name, value); !s.ok()) return s;
    rate = rate || name == "hostile-rate";
  }
  if (rate && !options.hostile) {
    return absl::InvalidArgumentError(
        "--hostile-rate applies only with --hostile");
  }
  return options;
}

absl::StatusOr<GenOptions> ApplyGenFlags(std::string_view flags_view,
                                         GenOptions options) {
  const std::string flags(flags_view);
  std::vector<std::string> words =
      absl::StrSplit(flags, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t k = 0; k < words.size(); ++k) {
    const std::string& word = words[k];
    if (word.rfind("--", 0) != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", word, "\" is not a flag (--name=value)"));
    }
    const size_t eq = word.find('=');
    std::string name = word.substr(2, eq == std::string::npos ? eq : eq - 2);
    std::string value;
    if (eq != std::string::npos) {
      value = word.substr(eq + 1);
    } else {
      const auto it =
          std::find_if(GenFlags().begin(), GenFlags().end(),
                       [&](const GenFlag& f) { return f.name == name; });
      if (it != GenFlags().end() && !it->boolean) {
        if (k + 1 == words.size()) {
          return absl::InvalidArgumentError(
              absl::StrCat("--", name, " needs a value"));
        }
        value = words[++k];
      }
    }
    pairs.emplace_back(std::move(name), std::move(value));
  }
  return ApplyGenFlags(pairs, std::move(options));
}

std::string_view PerturbKindName(PerturbKind kind) {
  static constexpr std::array<std::string_view, kPerturbKinds> kNames = {
      "resync",          "race",          "tombstone", "recreate",
      "recreate_update", "node_recreate", "node_burst"};
  return kNames[static_cast<int>(kind)];
}

absl::StatusOr<Perturbations> ParsePerturbations(std::string_view spec_view) {
  Perturbations p;
  const std::string spec(spec_view);
  if (spec.empty()) return p;
  for (const std::string& item :
       std::vector<std::string>(absl::StrSplit(spec, ','))) {
    std::vector<std::string> kv = absl::StrSplit(item, ':');
    double v = 0;
    if (kv.size() != 2 || !absl::SimpleAtod(kv[1], &v) || !(v >= 0) || v > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--perturb: \"", item, "\" is not NAME:P with P in [0, 1]"));
    }
    const std::string& name = kv[0];
    double* fields[] = {
        &p.resync,          &p.race,          &p.tombstone, &p.recreate,
        &p.recreate_update, &p.node_recreate, &p.node_burst};
    static const char* const kNames[] = {
        "resync",          "race",          "tombstone", "recreate",
        "recreate_update", "node_recreate", "node_burst"};
    bool found = false;
    for (size_t k = 0; k < std::size(kNames); ++k) {
      if (name == kNames[k] || name == "all") {
        *fields[k] = v;
        found = true;
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--perturb: unknown perturbation \"", name,
          "\" (resync, race, tombstone, recreate, recreate_update, "
          "node_recreate, node_burst, all)"));
    }
  }
  return p;
}

}  // namespace schedtrace
