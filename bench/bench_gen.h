// The benchmark input generator: large scheduler-layer traces with realistic
// churn, made deterministically from a seed, of the same kinds of steps as
// bench/upstream-large.jsonl.gz (which upstream's own harness chose
// while driving kube-scheduler v1.26.7).
//
// Like that file, the steps are chosen while driving a System (the model by
// default): the generator reads each step's `out` to aim `bind`,
// `permit_allow` and `permit_reject` at pods really parked or waiting, and to
// deliver the apiserver's answer to a successful bind (the `pod_update` that
// sets spec.nodeName). The stream is valid for an apiserver: stable uids,
// resourceVersion increasing per object, spec.nodeName set once, `t`
// strictly increasing. Steps are written as they are made, so memory stays
// proportional to the cluster, not to the trace.
//
//   BenchGenOptions o{.seed = 1, .nodes = 5000, .pods = 100000};
//   std::unique_ptr<System> model = model::NewSystem();
//   absl::StatusOr<BenchGenStats> s = GenerateBenchTrace(*model, o, out);
//
// Two modes: `churn` (pods arrive in small batches and are scheduled, bound,
// updated, deleted and retried while nodes change), and `pending` (all pods
// arrive before any is scheduled, so `pods` pods are pending at once — the
// input of the memory target — then a tail of cycles, binds and churn).
#ifndef SCHEDTRACE_BENCH_BENCH_GEN_H_
#define SCHEDTRACE_BENCH_BENCH_GEN_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "core/system.h"

namespace schedtrace::bench {

enum class BenchGenMode { kChurn, kPending };

struct BenchGenOptions {
  uint64_t seed = 1;
  int nodes = 5000;
  int pods = 100000;
  BenchGenMode mode = BenchGenMode::kChurn;
};

struct BenchGenStats {
  int64_t steps = 0;
  std::map<std::string, int64_t> ops;  // op name -> steps
  int64_t max_pending = 0;             // most pods pending at once
  int64_t bound = 0;                   // pods bound when the trace ends
};

// Writes the header line and every step line (no `expect`) to `out`,
// applying each step to `sut` as it goes.
absl::StatusOr<BenchGenStats> GenerateBenchTrace(System& sut,
                                                 const BenchGenOptions& options,
                                                 std::ostream& out);

}  // namespace schedtrace::bench

#endif  // SCHEDTRACE_BENCH_BENCH_GEN_H_
