// Runs every property after every step of a trace and sorts what fires into
// failures and known upstream violations.
//
//   Checker checker(trace.header);
//   ... after each step:
//   for (const Finding& f : checker.Observe(before, step, out, after))
//     if (!f.known) fail(f.violation.Format());
//
// It runs on every step of the fuzz targets, so a step where nothing fires
// allocates nothing: the findings live in a buffer the checker reuses.
//
// By default the properties are evaluated incrementally, on what each step
// changed (properties/incremental.h): the same findings as the full check
// (CheckAll on every pod, every step), which stays selectable as the
// reference.
//
// A system that shows only part of its state (`shown`, an exec: child's
// declared `"state"`) gets the properties whose inputs it shows checked
// (properties/inputs.h); the others are not evaluated, and `unchecked()` says
// which and what they need.
//
// `AsStepCheck` adapts it to the replayer's ReplayOptions::check.
#ifndef SCHEDTRACE_PROPERTIES_CHECKER_H_
#define SCHEDTRACE_PROPERTIES_CHECKER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "properties/history.h"
#include "properties/incremental.h"
#include "properties/inputs.h"
#include "properties/known_violations.h"
#include "properties/properties.h"
#include "run/replay.h"

namespace schedtrace::properties {

struct Finding {
  Violation violation;
  const KnownViolation* known = nullptr;  // null: a real failure
};

// How a checker evaluates the properties: on what a step changed, or every
// property over the whole state (the reference).
enum class CheckMode { kIncremental, kFull };

class Checker {
 public:
  // Keeps a copy of `header`.
  // `shown`: what the system shows (null: everything); asked at the first
  // Observe, when a child has declared it.
  explicit Checker(const TraceHeader& header,
                   CheckMode mode = CheckMode::kIncremental,
                   Shown shown = nullptr);
  // Refers to `*header`, which must outlive the checker (no copy: the fuzz
  // targets make a checker per input, from the decoder's header).
  explicit Checker(const TraceHeader* header,
                   CheckMode mode = CheckMode::kIncremental,
                   Shown shown = nullptr);

  // What fired on this step; valid until the next call. Steps must come in
  // order: each `before` is the previous call's `after`.
  // `touch`: what the step may have changed (null: anything); the
  // incremental check reads only that of the states.
  const std::vector<Finding>& Observe(const State& before, const Step& step,
                                      const StepOut& out, const State& after,
                                      const StateTouch* touch = nullptr);

  // How often each known violation fired so far (by id).
  const std::map<std::string, int>& known_counts() const;

  // The properties not checked (inputs the system does not show), known
  // from the first Observe on; empty before.
  const std::vector<Unchecked>& unchecked() const { return unchecked_; }

 private:
  CheckMode mode_;
  Shown shown_;
  std::string version_;  // the trace's effective upstream version
  bool shown_asked_ = false;
  std::vector<Unchecked> unchecked_;
  bool skip_[12] = {};  // by property id: not checked
  bool skips_any_ = false;
  History history_;
  IncrementalCheck incremental_;
  // Counted by KnownViolations() index (counting by id would build the id's
  // string each time); known_counts() names them.
  std::vector<int> counts_;
  mutable std::map<std::string, int> known_counts_;
  std::vector<Violation> violations_;  // this step's, reused
  std::vector<Finding> findings_;      // this step's, reused
};

// A StepCheck for `header`'s trace that fails the trace on the first
// unknown violation and adds known ones to `*known_counts` (may be null).
// With `shown` (what the system shows; null: everything), the properties it
// cannot check are left out and, at the first step, stored in `*unchecked`
// (may be null). `on_known` (may be null) is told each known one: "ID:
// violation" (explain shows them at their step).
StepCheck AsStepCheck(
    const TraceHeader& header, std::map<std::string, int>* known_counts,
    CheckMode mode = CheckMode::kIncremental, Shown shown = nullptr,
    std::vector<Unchecked>* unchecked = nullptr,
    std::function<void(const std::string&)> on_known = nullptr);

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_CHECKER_H_
