// The golden corpus (golden/) for tests: where it is, its traces read one
// layer at a time, the codec's checks on them, and a small fixed sample.
//
// The test suite replays the whole corpus once per system: model
// and impl each get one pass, every step checked at once for everything a
// golden replay is asked (properties/golden_pass_test_util.h; the model's
// pass also runs the codec's checks below, so the corpus is read once).
// Tests that need real traces only as varied inputs (the fuzz encoder and
// lockstep runner, the CLI's systems compared with each other) take
// GoldenSample() instead.
#ifndef SCHEDTRACE_TESTKIT_GOLDEN_TEST_UTIL_H_
#define SCHEDTRACE_TESTKIT_GOLDEN_TEST_UTIL_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/codec.h"
#include "core/json_codec.h"
#include "core/trace.h"
#include "gtest/gtest.h"
#include "run/trace_files.h"
#include "testkit/k8s_json_check.h"
#include "testkit/step_eq_test_util.h"

namespace schedtrace {

inline std::string GoldenDir() {
  return std::string(SCHEDTRACE_SOURCE_DIR) + "/golden";
}

// One golden trace: the file as read and as decoded.
struct GoldenFile {
  std::string path;
  std::string text;
  Trace trace;
};

// Every trace of `layer` under `golden_dir` (each source keeps a layer's
// traces in a directory named after it: upstream-v1.26.7/queue/,
// handwritten/queue/, regression/upstream/queue/), in sorted order. A file
// that does not read or decode, or whose header names another layer, fails
// the test.
inline std::vector<GoldenFile> ReadGoldenLayer(const std::string& golden_dir,
                                               Layer layer) {
  std::vector<GoldenFile> files;
  absl::StatusOr<std::vector<std::string>> paths = FindTraceFiles({golden_dir});
  EXPECT_TRUE(paths.ok()) << paths.status();
  if (!paths.ok()) return files;
  const std::string dir = absl::StrCat("/", std::string(LayerName(layer)), "/");
  for (const std::string& path : *paths) {
    if (path.find(dir, golden_dir.size()) == std::string::npos) continue;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    absl::StatusOr<Trace> trace = ParseTrace(text.str(), path);
    EXPECT_TRUE(trace.ok()) << trace.status();
    if (!trace.ok()) continue;
    EXPECT_EQ(trace->header.layer, layer) << path;
    files.push_back({path, text.str(), *std::move(trace)});
  }
  return files;
}

// What the codec checks of one golden trace counted.
struct CodecCounts {
  int outs = 0;      // expected outs decoded and re-encoded exactly
  int states = 0;    // expected states decoded and re-encoded exactly
  int deleting = 0;  // traces whose written form carries deletionTimestamp
};

// The codec on one golden trace:
//  - every expected out and state decodes (OutFromJson, StateFromJson) and
//    re-encodes to exactly the JSON the trace holds;
//  - the trace written back (EncodeTrace) decodes to the same header and
//    steps, member by member;
//  - its pods and nodes, as read and as written, are what Kubernetes' Go
//    types accept (CheckTraceK8sJson).
inline void ExpectCodecRoundTrip(const GoldenFile& f, CodecCounts& counts) {
  SCOPED_TRACE(f.path);
  const Trace& trace = f.trace;
  ASSERT_FALSE(trace.steps.empty());
  for (const Step& step : trace.steps) {
    ASSERT_NE(step.expect, nullptr) << "line " << step.line;
    if (step.expect->out) {
      absl::StatusOr<StepOut> out = OutFromJson(*step.expect->out);
      ASSERT_TRUE(out.ok()) << "line " << step.line << ": " << out.status();
      ASSERT_EQ(OutToJson(*out), *step.expect->out) << "line " << step.line;
      ++counts.outs;
    }
    if (step.expect->state) {
      absl::StatusOr<State> state = StateFromJson(*step.expect->state);
      ASSERT_TRUE(state.ok()) << "line " << step.line << ": " << state.status();
      ASSERT_EQ(StateToJson(*state), *step.expect->state)
          << "line " << step.line;
      ++counts.states;
    }
  }
  const std::string written = EncodeTrace(trace);
  absl::StatusOr<Trace> back = ParseTrace(written, f.path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->header, trace.header);
  ASSERT_EQ(back->steps.size(), trace.steps.size());
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    ExpectStepEq(trace.steps[i], back->steps[i]);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(CheckTraceK8sJson(f.text, f.path), std::vector<std::string>{});
  EXPECT_EQ(CheckTraceK8sJson(written, f.path + " (written)"),
            std::vector<std::string>{});
  counts.deleting += written.find("\"deletionTimestamp\"") != std::string::npos;
}

// A fixed sample of the corpus, 26 traces and about 575 of its steps,
// for tests that need real traces as varied inputs: together they show what
// the whole corpus shows, layer by layer — every op, every op's error and
// fatal outs, every scheduling outcome, every non-default step argument
// (tombstones, Reserve, Permit, PreBind and Bind failures, explicit cycles,
// prechecks), every config variant, every source, and every known upstream
// violation the corpus fires. model/golden_test.cc checks that they still
// do as the corpus grows (ExpectSampleShowsWhatTheCorpusShows). Paths are
// relative to golden/.
inline const std::vector<std::string>& GoldenSample() {
  static const auto* sample = new std::vector<std::string>{
      // queue: every op and config key, prechecks (and
      // in-flight-update-requeues); explicit cycles; a backoff config; a
      // fatal q_update; the queue layer's other known violations.
      "upstream-v1.26.7/queue/random-73.jsonl",
      "handwritten/queue/add-unschedulable-explicit-cycle.jsonl",
      "handwritten/queue/backoff-cap-not-power-of-two.jsonl",
      "upstream-v1.26.7/queue/update-nil-old-unschedulable-panics.jsonl",
      "handwritten/queue/activate-gated-pod-in-backoffq.jsonl",
      "handwritten/queue/gates-added-in-activeq-and-backoffq.jsonl",
      "regression/upstream/queue/gated-add-keeps-queued-copy.jsonl",
      "regression/upstream/queue/gated-add-keeps-old-object-in-activeq.jsonl",
      // v1.35.4+'s in-flight-add-queues-copy, v1.37.2's second-copy-on-v137 and
      // second-copy-ordered-by-older-object.
      "regression/upstream/queue/add-of-in-flight-pod-queues-copy.jsonl",
      "regression/upstream/queue/add-beside-backoff-copy.jsonl",
      "regression/upstream/queue/second-copy-ordered-by-older-object.jsonl",
      // From v1.35.4 (FORMAT.md E14): q_done, a move's objects, hints.
      "handwritten/v1.35.4/queue/done-ends-time-in-flight.jsonl",
      "handwritten/v1.35.4/queue/pop-from-backoffq-off.jsonl",
      "handwritten/v1.35.4/queue/plugin-hints-read-move-objects.jsonl",
      // cache: every op and its errors; fatal c_remove_pod and c_update_pod;
      // caller-object-accounting; a cluster event map.
      "upstream-v1.26.7/cache/random-38.jsonl",
      "upstream-v1.26.7/cache/remove-pod-other-node-fatal.jsonl",
      "upstream-v1.26.7/cache/update-pod-stale-old-placeholder-panics.jsonl",
      "handwritten/cache/empty-uid-errors.jsonl",
      "handwritten/cache/caller-object-accounting.jsonl",
      // v1.25.12's add-keeps-assumed-object.
      "handwritten/v1.25.12/cache/add-keeps-assumed-object.jsonl",
      "handwritten/cache/forgotten-pod-deadline-not-inherited.jsonl",
      "regression/upstream/cache/"
      "pr86919-placeholder-removed-with-last-pod.jsonl",
      // v1.35.4's update-old-on-other-node-counts-twice.
      "regression/upstream/cache/"
      "update-old-on-other-node-counts-twice.jsonl",
      // scheduler: every op, tombstones, a Reserve error, Permit waits, a
      // Bind error; two profiles, a PreBind error, WaitForFirstConsumer and
      // recreated-uid-second-pod; other kinds of cluster events; a Permit
      // rejection; a waiting pod deleted (events, status updates); the
      // scheduler layer's other known violations.
      "upstream-v1.26.7/scheduler/random-59.jsonl",
      "upstream-v1.26.7/scheduler/random-47.jsonl",
      "handwritten/scheduler/other-kind-events.jsonl",
      "handwritten/scheduler/second-profile-waiting-pod-deleted.jsonl",
      "regression/upstream/scheduler/"
      "update-other-uid-of-assumed-requeues.jsonl",
      "regression/upstream/scheduler/delete-other-uid-keeps-nomination.jsonl",
      "regression/upstream/scheduler/duplicate-add-requeues-assumed.jsonl",
      "regression/upstream/scheduler/"
      "foreign-update-of-waiting-pod-requeues-informer-object.jsonl",
      "regression/upstream/scheduler/"
      "pr141255-recreated-uid-while-nominated.jsonl",
      "regression/upstream/scheduler/"
      "pr141255-recreated-uid-while-waiting.jsonl",
      // v1.30.12's fatal flush_backoff (a PreEnqueue rejection of a nil
      // plugin set).
      "handwritten/v1.30.12/scheduler/nil-plugin-set-pre-enqueue-panic.jsonl",
      // v1.37.2's delete-of-unassumed-waiting-pod-keeps-it-waiting and
      // scheduler-name-handover-not-queued.
      "upstream-v1.37.2/scheduler/random-80.jsonl",
      "upstream-v1.37.2/handwritten/scheduler/scheduler-name-handover.jsonl",
      // v1.35.4's binding-pod-forgotten-then-queued and fatal pod_update
      // (the gating plugin of another profile).
      "regression/upstream/scheduler/"
      "deleting-parked-pod-requeued-by-update-v1.35.4.jsonl",
      "regression/upstream/scheduler/"
      "gated-pod-recreated-for-other-scheduler-panics.jsonl",
      // The v1.35+ scheduler-layer entries of the registry, each on its
      // recorded trace.
      "regression/upstream/scheduler/"
      "failure-requeues-assumed-recreated-pod.jsonl",
      "regression/upstream/scheduler/in-flight-copy-discarded-by-pop.jsonl",
      "regression/upstream/scheduler/new-uid-in-backoff-lost.jsonl",
      "regression/upstream/scheduler/new-uid-in-backoff-outlives-binding.jsonl",
      "regression/upstream/scheduler/"
      "new-uid-in-backoff-queued-beside-cycle.jsonl",
      "regression/upstream/scheduler/"
      "new-uid-merged-into-old-keeps-old-order.jsonl",
      "regression/upstream/scheduler/"
      "new-uid-merged-into-old-requeued-while-assumed.jsonl",
      "regression/upstream/scheduler/"
      "recreated-other-scheduler-stays-queued-when-bound.jsonl",
      "regression/upstream/scheduler/"
      "recreated-other-scheduler-waiting-stays-nominated.jsonl",
      "regression/upstream/scheduler/"
      "recreated-uid-deleting-waiting-requeued.jsonl",
      "regression/upstream/scheduler/"
      "recreated-uid-nominated-in-activeq-v1.37.2.jsonl",
      "regression/upstream/scheduler/"
      "new-uid-old-record-keeps-nomination.jsonl",
      // Property 4 counts a key's assumptions: another uid stays assumed.
      "regression/upstream/scheduler/"
      "deleted-waiting-uid-beside-binding-uid.jsonl",
      // A duplicate add's second record (v1.37).
      "regression/upstream/scheduler/"
      "duplicate-add-copy-outlives-binding.jsonl",
      "regression/upstream/scheduler/duplicate-add-copy-beside-cycle.jsonl",
      "regression/upstream/scheduler/"
      "duplicate-add-merged-keeps-old-order.jsonl",
      // Property 11's lost wake-ups, one per registry entry.
      "handwritten/scheduler/assigned-pod-update-no-move.jsonl",
      "regression/upstream/scheduler/assumed-pod-bound-elsewhere.jsonl",
      "regression/upstream/scheduler/nomination-change-wakes-no-one.jsonl",
      "regression/upstream/scheduler/precheck-hides-a-changed-rejector.jsonl",
      "regression/upstream/scheduler/"
      "stale-tombstone-wakes-no-one.jsonl",
  };
  return *sample;
}

// GoldenSample() as paths under `golden_dir`.
inline std::vector<std::string> GoldenSamplePaths(
    const std::string& golden_dir = GoldenDir()) {
  std::vector<std::string> paths;
  for (const std::string& rel : GoldenSample()) {
    paths.push_back(golden_dir + "/" + rel);
  }
  return paths;
}

// Copies GoldenSample() from `golden_dir` into the directory `to`, emptied
// first (a trace an earlier sample held must not stay), each trace at its
// path relative to golden/, for a test that takes a directory; returns
// `to`.
inline std::string CopyGoldenSample(
    const std::string& to, const std::string& golden_dir = GoldenDir()) {
  namespace fs = std::filesystem;
  fs::remove_all(to);
  for (const std::string& rel : GoldenSample()) {
    const fs::path out = fs::path(to) / rel;
    fs::create_directories(out.parent_path());
    fs::copy_file(fs::path(golden_dir) / rel, out,
                  fs::copy_options::overwrite_existing);
  }
  return to;
}

}  // namespace schedtrace

#endif  // SCHEDTRACE_TESTKIT_GOLDEN_TEST_UTIL_H_
