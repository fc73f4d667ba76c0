// What a step source (run/step_source.h) takes, for every front end:
// pool sizes, clock steps, informer perturbations and their levels, the
// hostile mode and the odd-case rates, with the one parser of the command
// line's spelling of them (`schedtrace gen` and `diff`, SCHEDTRACE_GEN for
// the RapidCheck tests). The perturbations and the hostile mode are
// described in run/step_source.h.
#ifndef SCHEDTRACE_RUN_GEN_OPTIONS_H_
#define SCHEDTRACE_RUN_GEN_OPTIONS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/upstream_versions.h"

namespace schedtrace {

// Probabilities (0..1) of each informer perturbation; see
// run/step_source.h.
struct Perturbations {
  double resync = 0;
  double race = 0;
  double tombstone = 0;
  double recreate = 0;
  double recreate_update = 0;
  double node_recreate = 0;
  double node_burst = 0;
  bool operator==(const Perturbations&) const = default;
  // Every perturbation with probability p (the CLI's "all:P").
  static Perturbations All(double p) { return {p, p, p, p, p, p, p}; }
};

// The informer perturbations, in the order of Perturbations' fields (the
// order the step source tries them in, and the fuzz inputs' perturbation
// header's).
enum class PerturbKind {
  kResync,
  kRace,
  kTombstone,
  kRecreate,
  kRecreateUpdate,
  kNodeRecreate,
  kNodeBurst,
};
inline constexpr int kPerturbKinds = 7;

// Perturbations' fields in PerturbKind order.
inline constexpr std::array<double Perturbations::*, kPerturbKinds>
    kPerturbFields = {
        &Perturbations::resync,          &Perturbations::race,
        &Perturbations::tombstone,       &Perturbations::recreate,
        &Perturbations::recreate_update, &Perturbations::node_recreate,
        &Perturbations::node_burst};

// As ParsePerturbations spells it: "resync", "race", ..., "node_burst".
std::string_view PerturbKindName(PerturbKind kind);

// Parses "resync:0.1,race:0.2" (names as in Perturbations; "all:P" sets
// every one). An InvalidArgument error names the bad item.
absl::StatusOr<Perturbations> ParsePerturbations(std::string_view spec);

// How far the clock moves between two steps (milliseconds). An ordinary
// step is uniform in [min_ms, max_ms]; a jump, drawn first, replaces it with
// its own probability. Steps never go back: t strictly increases.
struct ClockJump {
  double p = 0;  // 0..1
  int min_ms = 1;
  int max_ms = 1;  // min_ms == max_ms: exactly that, no draw
  bool operator==(const ClockJump&) const = default;
};
struct ClockSteps {
  int min_ms = 100;
  int max_ms = 3000;
  // Queue and scheduler layers: past the 5-minute leftover flush
  // (podMaxInUnschedulablePodsDuration), drawn first; then, failing that,
  // across backoff (1 to 10 s).
  ClockJump flush = {.p = 0.05, .min_ms = 310000, .max_ms = 310000};
  ClockJump backoff = {.p = 0.15, .min_ms = 5000, .max_ms = 20000};
  // Cache layer: across the 30 s assumed-pod TTL.
  ClockJump ttl = {.p = 0.1, .min_ms = 20000, .max_ms = 40000};
  // Queue and scheduler layers: when a pod the trace put back in the queue
  // has a boundary within reach (its backoff expiry, the end of its
  // podMaxInUnschedulablePodsDuration), the probability that the clock lands
  // on it (1 ms before, on or 1 ms after) instead of advancing
  // (run/step_source.h).
  double land = 0.1;
  // The probability that a trace's clock starts high: just below
  // 9223372036854 ms, the int64-nanosecond limit, or near kMaxTraceMs
  // (run/step_source_layers.h, StartClock).
  double high_start = 0.1;
  // Queue and scheduler layers: the probability per step, once per trace
  // and while the clock is below the int64-nanosecond limit, that the clock
  // leaps 10^13 ms ahead (Time.Sub across the leap saturates).
  double leap = 0.004;
  bool operator==(const ClockSteps&) const = default;
};

// How often the generators make the odd-but-valid and the invalid (0..1).
struct GenVariety {
  // With `hostile`: the share of steps that are hostile (all layers).
  double hostile_rate = 0.15;
  // Scheduler layer: a schedule_one whose Reserve fails, a bind whose
  // PreBind fails, a bind whose Bind fails (each drawn on its own).
  double failure_rate = 0.1;
  // Scheduler layer: a trace with "other-scheduler" as a second profile of
  // ours (one pod in ten is scheduled under it).
  double two_profiles = 0.25;
  // Scheduler layer: a node whose TraceScore is outside [0, 100], which
  // fails a cycle that scores it (upstream: RunScorePlugins).
  double bad_score = 0.03;
  // Queue layer: a trace with a huge podMaxBackoffMs (Go's Duration
  // arithmetic wraps: docs/UPSTREAM.md item 29), re-popping one pod so that
  // its attempts climb past the cap.
  double huge_backoff = 0.1;
  // Scheduler layer: the probability per step of a step aimed at a pod the
  // last cycles left unschedulable, lifting what rejected it (a node's
  // cpu, zone label, taint or unschedulable flag changed, an assigned pod
  // deleted, the pod's own request lowered, a nomination cleared), so that
  // traces reach property 11's wake-ups. 0: no such step (the default keeps
  // every trace as it was).
  double wake_ups = 0;
  bool operator==(const GenVariety&) const = default;
};

// Everything a generator takes, for every front end (schedtrace gen and
// diff through the flags below, ci/nightly-diff, the RapidCheck tests
// through SCHEDTRACE_GEN, the tests and the mutants' self-test). The
// defaults are what the generators did when each field came: adding a field
// changed no trace.
struct GenOptions {
  uint64_t seed = 1;
  int steps = 60;
  int pods = 7;   // pods 0..pods-1, named by PoolNames (step_source.h)
  int nodes = 4;  // nodes 0..nodes-1 (PoolNames); the queue layer names 0..2
  // Queue layer: pods are drawn from the first min(pods, queue_pool), so
  // that keys collide; raise both to grow the heaps past a few levels.
  int queue_pool = 5;
  Perturbations perturb;
  bool hostile = false;
  ClockSteps clock;
  GenVariety variety;
  // The upstream version the generated header names (`gen --upstream`,
  // `diff --upstream` without PATH). The sources only write it in the
  // header; what they generate does not depend on it yet.
  std::string upstream = std::string(kDefaultUpstream);
  bool operator==(const GenOptions&) const = default;
};

// The options as the command line spells them, in the order `--help` lists
// them: `schedtrace gen` and `schedtrace diff` take exactly these
// (cli/gen_flags.h), the RapidCheck tests read them from SCHEDTRACE_GEN.
struct GenFlag {
  std::string_view name;  // without "--": "queue-pool"
  std::string_view help;
  // The value that leaves GenOptions{} as it is ("" for a switch, and for
  // --perturb: none).
  std::string_view default_value;
  bool boolean = false;  // a switch: --hostile
};
const std::vector<GenFlag>& GenFlags();

// `flags` (name without "--", value; "" for a switch), in order, applied to
// `options`: the one parser and validator of the options. An
// InvalidArgument error names the flag and its bad value; a flag that is not
// in GenFlags() is an error too, and so is --hostile-rate without
// --hostile.
absl::StatusOr<GenOptions> ApplyGenFlags(
    const std::vector<std::pair<std::string, std::string>>& flags,
    GenOptions options = {});

// The same from one string, flags as a shell spells them, separated by
// blanks: "--pods=40 --queue-pool=40 --hostile" (what SCHEDTRACE_GEN holds).
absl::StatusOr<GenOptions> ApplyGenFlags(std::string_view flags,
                                         GenOptions options = {});

// Options for a valid trace at a larger scale than the defaults: 700 steps,
// 40 pods (all of them in the queue layer's pool) and 12 nodes, so heaps
// grow past a few levels and a scheduling cycle sees many nodes; even seeds
// add every informer perturbation at 0.05. The differential tests and the
// mutants' self-test use it (impl/scale_differential_test.cc,
// mutants/catcher.h).
GenOptions LargePoolOptions(uint64_t seed);

// `schedtrace diff --count`'s large pools: of the traces of a
// run, those whose seed is a multiple of 4 (one in four) take 40 + (seed /
// 4) % 25 pods (40 to 64), all of them in the queue layer's pool, and at
// least 12 steps per pod (480 to 768), so that most pods come and heaps grow
// deep (a queue-layer trace may end sooner, at an update with no old
// object, upstream's fatal exit). A flag the user gave wins:
// --pods turns the share off, --queue-pool and --steps keep their values.
struct PinnedGenFlags {
  bool pods = false;
  bool queue_pool = false;
  bool steps = false;
};
GenOptions CountRunOptions(GenOptions options, const PinnedGenFlags& pinned);

// The three kinds of generated trace. `schedtrace diff --count` mixes them
// unless a flag chooses one (--plain, --perturb=..., --hostile): plain
// traces alone miss what only an informer's perturbations show (a cache
// keyed by pod name instead of uid passes hundreds of them), hostile ones
// alone miss what valid input reaches.
enum class TraceMode { kPlain, kPerturbed, kHostile };

// "plain", "perturbed" or "hostile".
std::string_view TraceModeName(TraceMode mode);

// The mix: seed % 3 == 1 plain, 2 perturbed, 0 hostile, so that any run of
// three consecutive seeds holds one of each, and seed 1, a run's default
// first, is plain.
TraceMode MixedTraceMode(uint64_t seed);

// Every perturbation's probability in the mix's perturbed traces: the rate
// at which `diff --perturb=all:P` caught the uid-keyed cache above most
// often.
inline constexpr double kMixedPerturbation = 0.2;

// `options` for a trace of `mode`: kPerturbed sets every perturbation to
// kMixedPerturbation, kHostile turns the hostile mode on, kPlain leaves
// `options` as they are.
GenOptions WithTraceMode(GenOptions options, TraceMode mode);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_GEN_OPTIONS_H_
