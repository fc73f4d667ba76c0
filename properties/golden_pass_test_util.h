// The golden corpus's one replay per System in the test suite:
// model/golden_test.cc and impl/golden_test.cc run RunGoldenPass on each
// layer's traces, and every step is checked at once for everything a golden
// replay is asked:
//  - the trace's expectations (run/replay.h), every step run;
//  - no property violation but the known upstream ones (properties/checker.h),
//    and the incremental check finding what the full check finds
//    (properties/incremental.h);
//  - SnapshotInto writing what Snapshot returns (testkit/snapshot_into_check.h)
//    before the first Configure, after Configure and after every step (a
//    fatal one too), into the replayer's two reused States, into one State
//    carried through every trace and into a fresh DirtyState();
//  - Configure resetting everything: one System replays all the traces.
// A trace failing on the reused System is replayed on a fresh one, to tell
// state left behind by an earlier trace from a failure of its own.
//
//   std::vector<GoldenFile> files = ReadGoldenLayer(GoldenDir(), layer);
//   GoldenPassResult r = properties::RunGoldenPass(&NewSystem, files);
#ifndef SCHEDTRACE_PROPERTIES_GOLDEN_PASS_TEST_UTIL_H_
#define SCHEDTRACE_PROPERTIES_GOLDEN_PASS_TEST_UTIL_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/codec.h"
#include "core/layered_system.h"
#include "core/state.h"
#include "core/system.h"
#include "core/trace.h"
#include "gtest/gtest.h"
#include "properties/checker.h"
#include "run/replay.h"
#include "testkit/golden_test_util.h"
#include "testkit/snapshot_into_check.h"

namespace schedtrace::properties {

// What a pass saw, per trace (in the order of the files given).
struct GoldenPassResult {
  int traces = 0;     // replayed, passing or not
  int steps = 0;      // applied
  int snapshots = 0;  // points where SnapshotInto was checked
  // The known upstream violations each trace fired (id -> findings).
  std::vector<std::map<std::string, int>> known;
  // What each trace shows (AddStepFeatures, AddHeaderFeatures, the known
  // violations it fired), for ExpectSampleShowsWhatTheCorpusShows.
  std::vector<std::set<std::string>> features;
};

namespace golden_pass_internal {

// What a trace shows that a sample standing for the corpus must show too,
// as "layer what" strings: ops, their error and fatal outs, scheduling
// outcomes, non-default step arguments, non-empty out lists.
inline void AddStepFeatures(Layer layer, const Step& step, const StepOut& out,
                            std::set<std::string>& features) {
  const std::string at = absl::StrCat(std::string(LayerName(layer)), " ",
                                      std::string(OpName(step.op)));
  features.insert(at);
  if (out.error) features.insert(at + " error");
  if (out.fatal) features.insert(at + " fatal");
  if (out.popped_present && !out.popped) features.insert(at + " popped null");
  if (out.result) features.insert(at + " " + out.result->outcome);
  if (!out.bindings.empty()) features.insert(at + " bindings");
  if (!out.status_updates.empty()) features.insert(at + " status updates");
  if (!out.events.empty()) features.insert(at + " events");
  if (step.tombstone) features.insert(at + " tombstone");
  if (step.cycle) features.insert(at + " cycle");
  if (step.precheck) features.insert(at + " precheck");
  if (step.wait_for_first_consumer) {
    features.insert(at + " waitForFirstConsumer");
  }
  if (step.op == Op::kScheduleOne) {
    if (step.reserve == ReserveOutcome::kError)
      features.insert(at + " reserve");
    if (step.permit == PermitOutcome::kWait) features.insert(at + " wait");
    if (step.permit == PermitOutcome::kReject) features.insert(at + " reject");
  }
  if (step.op == Op::kBind) {
    if (!step.prebind_ok) features.insert(at + " prebind error");
    if (!step.bind_ok) features.insert(at + " bind error");
  }
}

// The header's: its source and its config's variants.
inline void AddHeaderFeatures(const TraceHeader& h,
                              std::set<std::string>& features) {
  const std::string layer(LayerName(h.layer));
  const Config& c = h.config;
  const Config defaults;
  features.insert(layer + " source " + h.source);
  for (const auto& [name, on] : c.features) {
    features.insert(
        absl::StrCat(layer, " feature ", name, on ? "=on" : "=off"));
  }
  if (c.profiles.size() > 1) features.insert(layer + " profiles");
  if (c.pod_initial_backoff_ms != defaults.pod_initial_backoff_ms ||
      c.pod_max_backoff_ms != defaults.pod_max_backoff_ms) {
    features.insert(layer + " backoff config");
  }
  if (c.assumed_pod_ttl_ms > 0) features.insert(layer + " assumedPodTtl");
  if (!c.cluster_event_map.empty()) features.insert(layer + " clusterEventMap");
  if (!c.pre_enqueue_plugins.empty()) features.insert(layer + " preEnqueue");
  if (!c.plugins.empty()) features.insert(layer + " plugins");
  if (c.percentage_of_nodes_to_score) features.insert(layer + " percentage");
  if (!c.nominator_pod_lister.empty()) features.insert(layer + " lister");
}

// The DirtyState() every check starts a fresh State from (made once).
inline const State& Dirty() {
  static const State* dirty = new State(DirtyState());
  return *dirty;
}

// The System under test, checked on every Configure and Apply: whether
// SnapshotInto writes what Snapshot returns into `carried` (kept across
// traces) and into a DirtyState(); keeps the fresh Snapshot for the
// replayer's check to compare its reused States with, and the features of
// every step applied.
class Checked : public System {
 public:
  Checked(System& sut, State& carried, GoldenPassResult& result)
      : sut_(sut), carried_(carried), result_(result) {}

  absl::Status Configure(const TraceHeader& header) override {
    layer_ = header.layer;
    absl::Status s = sut_.Configure(header);
    if (s.ok()) Check("after Configure");
    return s;
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    absl::StatusOr<StepOut> out = sut_.Apply(step);
    if (!out.ok()) return out;
    ++result_.steps;
    if (features_ != nullptr) AddStepFeatures(layer_, step, *out, *features_);
    Check(absl::StrCat("after the step at line ", step.line));
    return out;
  }
  State Snapshot() const override { return sut_.Snapshot(); }
  void SnapshotInto(State& out) const override { sut_.SnapshotInto(out); }
  std::optional<std::string_view> OutAsSent() const override {
    return sut_.OutAsSent();
  }
  std::optional<std::string_view> StateAsSent() const override {
    return sut_.StateAsSent();
  }

  // Where the features of the steps applied go (null: nowhere).
  void set_features(std::set<std::string>* features) { features_ = features; }
  // The Snapshot taken after the last Configure or Apply.
  const State& fresh() const { return fresh_; }
  // The first disagreement since the last call, "" for none.
  std::string TakeMismatch() { return std::exchange(mismatch_, ""); }

 private:
  void Check(const std::string& when) {
    ++result_.snapshots;
    fresh_ = sut_.Snapshot();
    sut_.SnapshotInto(carried_);
    dirty_ = Dirty();  // assigned: the storage of the last check is reused
    sut_.SnapshotInto(dirty_);
    if (!mismatch_.empty()) return;
    for (auto [into, what] :
         {std::pair{&carried_, "the State carried through every trace"},
          std::pair{&dirty_, "a DirtyState()"}}) {
      if (*into == fresh_) continue;
      mismatch_ = absl::StrCat(
          when, ": SnapshotInto ", what,
          " differs from Snapshot\nSnapshotInto: ", EncodeState(*into),
          "\nSnapshot:     ", EncodeState(fresh_));
      return;
    }
  }

  System& sut_;
  State& carried_;
  GoldenPassResult& result_;
  Layer layer_ = Layer::kQueue;
  std::set<std::string>* features_ = nullptr;
  State fresh_;
  State dirty_;
  std::string mismatch_;
};

inline std::string Describe(const Finding& f) {
  return absl::StrCat(
      f.violation.Format(), " node=", f.violation.node,
      " known=", f.known != nullptr ? std::string(f.known->id) : "-");
}

// Replays `trace` on `sut` with the full and the incremental checkers side by
// side; "" when it passes every check, else why not.
inline std::string ReplayChecked(Checked& sut, const Trace& trace,
                                 std::map<std::string, int>& known) {
  Checker full(trace.header, CheckMode::kFull);
  Checker incremental(trace.header, CheckMode::kIncremental);
  ReplayOptions options;
  options.check = [&](const State& before, const Step& step, const StepOut& out,
                      const State& after,
                      const StateTouch& touch) -> std::string {
    if (after != sut.fresh()) {
      return absl::StrCat(
          "the replayer's reused State (SnapshotInto) differs "
          "from Snapshot\nSnapshotInto: ",
          EncodeState(after), "\nSnapshot:     ", EncodeState(sut.fresh()));
    }
    std::vector<std::string> a, b;
    std::string unknown;
    for (const Finding& f : full.Observe(before, step, out, after)) {
      a.push_back(Describe(f));
      if (f.known != nullptr) {
        ++known[std::string(f.known->id)];
      } else if (unknown.empty()) {
        unknown = f.violation.Format();
      }
    }
    // The incremental check reads only what the system says its step
    // touched: a system that leaves out a change fails here.
    for (const Finding& f :
         incremental.Observe(before, step, out, after, &touch)) {
      b.push_back(Describe(f));
    }
    if (a != b) {
      return absl::StrCat("the incremental check differs from the full one\n",
                          "full:\n  ", absl::StrJoin(a, "\n  "),
                          "\nincremental:\n  ", absl::StrJoin(b, "\n  "));
    }
    return unknown;
  };
  const TraceResult r = Replay(sut, trace, options);
  std::string why;
  if (r.verdict != Verdict::kPassed) {
    why = absl::StrCat(std::string(VerdictName(r.verdict)), " ", r.message,
                       r.divergence ? r.divergence->Format(trace.path) : "");
  } else if (r.steps_run != static_cast<int>(trace.steps.size())) {
    why =
        absl::StrCat("ran ", r.steps_run, " of ", trace.steps.size(), " steps");
  }
  const std::string mismatch = sut.TakeMismatch();
  if (!mismatch.empty()) {
    why = absl::StrCat(why, why.empty() ? "" : "\n", mismatch);
  }
  return why;
}

}  // namespace golden_pass_internal

// Replays `files` on one System `make` makes, configured again for each
// trace, with every check the file comment lists; each failing trace fails
// the test (ADD_FAILURE, naming it), and the pass goes on with a fresh
// System.
inline GoldenPassResult RunGoldenPass(const SystemFactory& make,
                                      const std::vector<GoldenFile>& files) {
  using golden_pass_internal::Checked;
  GoldenPassResult result;
  State carried = DirtyState();
  std::unique_ptr<System> sut = make();
  {
    State dirty = DirtyState();
    sut->SnapshotInto(dirty);
    ++result.snapshots;
    EXPECT_TRUE(dirty == sut->Snapshot())
        << "before Configure: SnapshotInto a DirtyState() differs from "
           "Snapshot\nSnapshotInto: "
        << EncodeState(dirty)
        << "\nSnapshot:     " << EncodeState(sut->Snapshot());
  }
  for (const GoldenFile& f : files) {
    ++result.traces;
    std::map<std::string, int>& known = result.known.emplace_back();
    std::set<std::string>& features = result.features.emplace_back();
    golden_pass_internal::AddHeaderFeatures(f.trace.header, features);
    Checked checked(*sut, carried, result);
    checked.set_features(&features);
    const std::string why =
        golden_pass_internal::ReplayChecked(checked, f.trace, known);
    for (const auto& [id, n] : known) features.insert("known " + id);
    if (why.empty()) continue;
    // Again on a fresh System (and a fresh carried State): did an earlier
    // trace leave something behind?
    std::unique_ptr<System> fresh = make();
    State fresh_carried = DirtyState();
    GoldenPassResult scratch;
    Checked again(*fresh, fresh_carried, scratch);
    std::map<std::string, int> ignored;
    const bool alone =
        golden_pass_internal::ReplayChecked(again, f.trace, ignored).empty();
    ADD_FAILURE() << f.path << ": " << why << "\n"
                  << (alone ? "(it passes on a fresh System: an earlier trace "
                              "left state that Configure did not reset, or "
                              "left the carried State in a shape "
                              "SnapshotInto mishandles)"
                            : "(it fails on a fresh System too)");
    sut = std::move(fresh);
    carried = std::move(fresh_carried);
  }
  return result;
}

// Whether GoldenSample() still stands for the corpus: every feature (ops,
// outs, arguments, config, sources, known violations: GoldenPassResult's
// features) that some of `files` show, the sample's traces among them show
// too. Fails
// naming what the sample misses and a trace that shows it.
inline void ExpectSampleShowsWhatTheCorpusShows(
    const std::vector<GoldenFile>& files, const GoldenPassResult& result) {
  ASSERT_EQ(result.features.size(), files.size());
  const std::set<std::string> sample(GoldenSample().begin(),
                                     GoldenSample().end());
  std::set<std::string> shown;
  std::map<std::string, std::string> example;  // feature -> a trace
  int in_sample = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string rel = files[i].path.substr(GoldenDir().size() + 1);
    const bool sampled = sample.contains(rel);
    in_sample += sampled;
    for (const std::string& feature : result.features[i]) {
      if (sampled) shown.insert(feature);
      example.emplace(feature, rel);
    }
  }
  EXPECT_GT(in_sample, 0) << "no sample trace of this layer";
  for (const auto& [feature, rel] : example) {
    EXPECT_TRUE(shown.contains(feature))
        << "GoldenSample() (testkit/golden_test_util.h) shows no \"" << feature
        << "\"; " << rel << " does";
  }
}

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_GOLDEN_PASS_TEST_UTIL_H_
