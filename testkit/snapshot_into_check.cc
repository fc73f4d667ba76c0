#include "testkit/snapshot_into_check.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/codec.h"
#include "core/upstream_versions.h"
#include "run/generator.h"
#include "run/trace_files.h"

namespace schedtrace {
namespace {

// Keys sorting before ("-a/..."), among ("default/p3", "team/p4") and after
// ("zz/...") real pod keys; one in four longer than 15 characters.
std::string DirtyKey(int i) {
  switch (i % 4) {
    case 0:
      return absl::StrCat("-a/p", i);
    case 1:
      return absl::StrCat("default/p", i);
    case 2:
      return absl::StrCat("team/a-pod-with-a-long-name-", i);
    default:
      return absl::StrCat("zz/p", i);
  }
}

std::vector<std::string> DirtyKeys(int n, int salt) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(DirtyKey(i * 7 + salt));
  return keys;
}

std::vector<QueuedPod> DirtyQueuedPods(int salt) {
  std::vector<QueuedPod> pods;
  for (int i = 0; i < 24; ++i) {
    pods.push_back({.pod = DirtyKey(i + salt),
                    .attempts = 100 + i,
                    .backoff_expires_at = 1000000 + i,
                    .plugins = {"AAA", "NodeResourcesFit", "TaintToleration",
                                "zz-a-plugin-with-a-long-name"},
                    .gated = true});
  }
  return pods;
}

// Node names before (""), among and after ("zz-...") real node names.
std::vector<std::string> DirtyNodeNames() {
  std::vector<std::string> names = {"", "a", "zz-a-node-with-a-long-name"};
  for (int i = 0; i < 24; ++i) names.push_back(absl::StrCat("n", i));
  return names;
}

// The parts of `a` and `b` that differ, e.g. "queue, cache".
std::string DifferingParts(const State& a, const State& b) {
  std::vector<std::string> parts;
  if (a.queue != b.queue) parts.push_back("queue");
  if (a.nominated != b.nominated) parts.push_back("nominated");
  if (a.cache != b.cache) parts.push_back("cache");
  if (a.waiting != b.waiting) parts.push_back("waiting");
  if (a.parked != b.parked) parts.push_back("parked");
  return absl::StrJoin(parts, ", ");
}

}  // namespace

State DirtyState() {
  State s;
  QueueState& q = s.queue.emplace();
  q.active = DirtyQueuedPods(0);
  q.backoff = DirtyQueuedPods(1);
  q.unschedulable = DirtyQueuedPods(2);
  q.scheduling_cycle = 1000;
  q.move_request_cycle = 999;
  Nominated& nominated = s.nominated.emplace();
  CacheState& cache = s.cache.emplace();
  int salt = 0;
  for (const std::string& name : DirtyNodeNames()) {
    ++salt;
    nominated[name] = DirtyKeys(5, salt);
    NodeInfoState& node = cache.nodes.emplace_back();
    node.name = name;
    node.present = salt % 2 == 0;
    node.pods = DirtyKeys(10, salt);
    node.requested = {{"", 1},
                      {"cpu", 2},
                      {"ephemeral-storage", 3},
                      {"example.com/gpu", 4},
                      {"hugepages-2Mi", 5},
                      {"memory", 6},
                      {"pods", 7},
                      {"zz-a-resource-with-a-long-name", 8}};
  }
  cache.assumed = DirtyKeys(24, 100);
  cache.binding_finished = DirtyKeys(24, 200);
  s.waiting = DirtyKeys(24, 300);
  s.parked = DirtyKeys(24, 400);
  return s;
}

absl::Status CheckSnapshotInto(System& sut, const Trace& trace, State& reused) {
  const std::string name = trace.path.empty() ? trace.header.name : trace.path;
  const State dirty_state = DirtyState();
  auto check = [&](const std::string& when) -> absl::Status {
    const State fresh = sut.Snapshot();
    State dirty = dirty_state;
    for (auto [into, what] : {std::pair{&reused, "the reused State"},
                              std::pair{&dirty, "a DirtyState()"}}) {
      sut.SnapshotInto(*into);
      if (*into == fresh) continue;
      return absl::InternalError(absl::StrCat(
          name, ", ", when, ": SnapshotInto ", what,
          " differs from Snapshot in ", DifferingParts(*into, fresh),
          "\nSnapshotInto: ", EncodeState(*into),
          "\nSnapshot:     ", EncodeState(fresh)));
    }
    return absl::OkStatus();
  };
  if (absl::Status s = sut.Configure(trace.header); !s.ok()) {
    // A layer the system does not judge yet in this version: nothing to
    // check (from v1.35 the layers come one by one).
    if (absl::IsUnimplemented(s)) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": Configure: ", s.message()));
  }
  if (absl::Status s = check("after Configure"); !s.ok()) return s;
  // The snapshot of the step before, refreshed in what each step says it
  // touched (System::Touched, RefreshInto): a step that leaves out a change
  // leaves this behind.
  State refreshed;
  sut.SnapshotInto(refreshed);
  StateTouch touch;
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    absl::StatusOr<StepOut> out = sut.Apply(trace.steps[i]);
    if (!out.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, ", step ", i + 1, ": Apply: ", out.status().message()));
    }
    const std::string when = absl::StrCat("after step ", i + 1);
    if (absl::Status s = check(when); !s.ok()) return s;
    if (out->fatal) break;
    sut.Touched(touch);
    sut.RefreshInto(refreshed, touch);
    if (const State fresh = sut.Snapshot(); refreshed != fresh) {
      return absl::InternalError(absl::StrCat(
          name, ", ", when,
          ": the snapshot before it, refreshed in what the step says it "
          "touched (Touched, RefreshInto), differs from Snapshot in ",
          DifferingParts(refreshed, fresh), "\nRefreshInto: ",
          EncodeState(refreshed), "\nSnapshot:    ", EncodeState(fresh)));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<SnapshotIntoCoverage> CheckSnapshotIntoEverywhere(
    const SystemFactory& sut, const SystemFactory& recorder,
    const std::string& golden_dir) {
  absl::StatusOr<std::vector<std::string>> files = FindTraceFiles({golden_dir});
  if (!files.ok()) return files.status();
  std::vector<Trace> golden;
  for (const std::string& file : *files) {
    absl::StatusOr<Trace> trace = ReadTraceFile(file);
    if (!trace.ok()) return trace.status();
    golden.push_back(*std::move(trace));
  }
  SnapshotIntoCoverage coverage;
  {
    std::unique_ptr<System> fresh = sut();
    State reused = DirtyState();
    fresh->SnapshotInto(reused);
    if (reused != fresh->Snapshot()) {
      return absl::InternalError(
          absl::StrCat("before Configure: SnapshotInto differs from Snapshot",
                       " in ", DifferingParts(reused, fresh->Snapshot())));
    }
  }
  for (const Trace& trace : golden) {
    State reused = DirtyState();
    if (absl::Status s = CheckSnapshotInto(*sut(), trace, reused); !s.ok()) {
      return s;
    }
    ++coverage.golden_traces[trace.header.layer];
  }
  const std::string newest = KnownUpstreams().back();
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (const std::string& version : {std::string(kDefaultUpstream), newest}) {
      const uint64_t seeds = version == newest ? 20 : 40;
      for (uint64_t seed = 1; seed <= seeds; ++seed) {
        GenOptions options{.seed = seed, .steps = 80};
        options.upstream = version;
        if (seed % 2 == 0) {
          options.perturb = Perturbations::All(0.1);
        }
        options.hostile = seed % 3 == 0;
        const std::string what =
            absl::StrCat(std::string(LayerName(layer)), " trace of ", version,
                         " generated with seed ", seed);
        absl::StatusOr<Trace> trace =
            GenerateTrace(layer, *recorder(), options);
        if (!trace.ok()) {
          return absl::InternalError(
              absl::StrCat(what, ": ", trace.status().message()));
        }
        State reused = DirtyState();
        std::unique_ptr<System> checked = sut();
        if (absl::Status s = CheckSnapshotInto(*checked, *trace, reused);
            !s.ok()) {
          return absl::InternalError(absl::StrCat(what, ": ", s.message()));
        }
        coverage.generated_steps[layer] += trace->steps.size();
        if (version == newest &&
            !absl::IsUnimplemented(sut()->Configure(trace->header))) {
          coverage.newest_steps[layer] += trace->steps.size();
        }
      }
    }
  }
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    if (coverage.golden_traces[layer] == 0) {
      return absl::NotFoundError(absl::StrCat(golden_dir,
                                              ": no golden trace of layer ",
                                              std::string(LayerName(layer))));
    }
  }
  std::unique_ptr<System> carried = sut();
  State reused = DirtyState();
  for (const Trace& trace : golden) {
    if (absl::Status s = CheckSnapshotInto(*carried, trace, reused); !s.ok()) {
      return absl::InternalError(
          absl::StrCat("one system through every trace: ", s.message()));
    }
    ++coverage.carried_traces;
  }
  return coverage;
}

}  // namespace schedtrace
