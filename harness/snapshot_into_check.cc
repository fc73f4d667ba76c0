#include "harness/snapshot_into_check.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/codec.h"

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
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": Configure: ", s.message()));
  }
  if (absl::Status s = check("after Configure"); !s.ok()) return s;
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    absl::StatusOr<StepOut> out = sut.Apply(trace.steps[i]);
    if (!out.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          name, ", step ", i + 1, ": Apply: ", out.status().message()));
    }
    if (absl::Status s = check(absl::StrCat("after step ", i + 1)); !s.ok()) {
      return s;
    }
    if (out->fatal) break;
  }
  return absl::OkStatus();
}

}  // namespace schedtrace
