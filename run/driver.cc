#include "run/driver.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "run/record.h"
#include "run/step_summary.h"

namespace schedtrace {
namespace {

std::string ShowOut(const absl::StatusOr<StepOut>& o) {
  return o.ok() ? OutToJson(*o).dump()
                : absl::StrCat("(refused: ", o.status().message(), ")");
}

Verdict RefusalVerdict(const absl::Status& s) {
  return s.code() == absl::StatusCode::kUnimplemented ? Verdict::kSkipped
                                                      : Verdict::kError;
}

}  // namespace

Driver::Driver(System& a, System* b, DriveOptions options)
    : a_(a), options_(std::move(options)) {
  if (b != nullptr) b_.emplace(*b);
}

std::optional<DriveEnd> Driver::Configure(const TraceHeader& header,
                                          std::string path) {
  header_ = header;
  path_ = std::move(path);
  two_sided_ = b_.has_value();
  b_dropped_ = false;
  ended_ = false;
  step_no_ = 0;
  comparisons_skipped_ = 0;
  recent_count_ = 0;
  first_failure_.reset();
  check_a_ = check_b_ = nullptr;
  if (options_.make_check) {
    check_a_ = options_.make_check(header);
    if (two_sided_ && options_.check_b) {
      check_b_ = options_.make_check(header);
    }
  }
  // Snapshots after every step when something reads every one: a
  // comparison of two systems, a check, an observer that asks.
  const bool observer_state =
      options_.observer != nullptr && options_.observer->wants_state();
  const bool snapshots =
      two_sided_ || check_a_ || observer_state || options_.record;
  auto refused = [](const absl::Status& s, std::string side) {
    DriveEnd end;
    end.verdict = RefusalVerdict(s);
    end.status = s;
    end.side = std::move(side);
    end.message = std::string(s.message());
    return end;
  };
  if (absl::Status s = a_.Configure(header, snapshots); !s.ok()) {
    return refused(s, two_sided_ ? "a" : "");
  }
  if (two_sided_) {
    if (absl::Status s = b_->Configure(header, snapshots); !s.ok()) {
      if (options_.drop_unconfigurable_b &&
          s.code() == absl::StatusCode::kUnimplemented) {
        two_sided_ = false;
        b_dropped_ = true;
        check_b_ = nullptr;
      } else {
        return refused(s, "b");
      }
    }
  }
  return std::nullopt;
}

DriveEnd Driver::At(const Step& step, Verdict verdict) const {
  DriveEnd end;
  end.verdict = verdict;
  end.step_no = step_no_;
  end.line = step.line;
  end.op = std::string(OpName(step.op));
  return end;
}

std::optional<DriveEnd> Driver::Fail(DriveEnd end) {
  if (!options_.keep_going) return end;
  if (!first_failure_) first_failure_ = std::move(end);
  return std::nullopt;
}

void Driver::AddContext(Divergence& d) const {
  d.description = header_.description;
  d.before.clear();
  const int n = std::min<int>(recent_count_, kStepsBefore);
  for (int i = recent_count_ - n; i < recent_count_; ++i) {
    const Recent& r = recent_[static_cast<size_t>(i) % recent_.size()];
    d.before.push_back(StepLine(r.step, r.step_no));
  }
}

void Driver::Remember(const Step& step) {
  // Summarised only on a divergence: assigning into the ring reuses its
  // storage, where a summary per step would allocate.
  Recent& r = recent_[static_cast<size_t>(recent_count_) % recent_.size()];
  r.step = step;
  r.step_no = step_no_;
  ++recent_count_;
}

std::optional<Divergence> Driver::CompareTwo(const Step& step) {
  const absl::StatusOr<StepOut>& out_a = a_.out();
  const absl::StatusOr<StepOut>& out_b = b_->out();
  const StepOut none;
  const StepOut& oa = out_a.ok() ? *out_a : none;
  const StepOut& ob = out_b.ok() ? *out_b : none;
  const bool states = a_.has_after() && b_->has_after();
  // A child's out is compared as it wrote it (System::OutAsSent): a
  // non-canonical reply ({"error": false}, an unknown key) is a divergence
  // even where it decodes to a's out.
  System& b = b_->system();
  const std::optional<std::string_view> sent =
      out_b.ok() ? b.OutAsSent() : std::nullopt;
  // The cheap comparison, as values: equal values encode equally, so only
  // a difference needs the JSON comparison (which also leaves out what b
  // does not report, and so may still find them equal).
  // Only what either step touched: the rest was equal after the step
  // before, and neither changed it.
  if (!sent && oa == ob) {
    if (!states) return std::nullopt;
    both_touched_ = a_.touch();
    both_touched_.Add(b_->touch());
    if (EqualIn(a_.after(), b_->after(), both_touched_)) return std::nullopt;
  }
  static const State kNoState;
  return CompareStep(StepWithExpect(step, oa, states ? &a_.after() : nullptr),
                     step_no_, ob, states ? b_->after() : kNoState,
                     options_.reports, nullptr, sent,
                     out_b.ok() ? b.StateAsSent() : std::nullopt);
}

void Driver::Observe(const Step& step, const Divergence* divergence,
                     const std::string& violation, std::string_view side) {
  if (options_.observer == nullptr) return;
  DrivenStep driven{.step = step, .step_no = step_no_};
  driven.a = &a_;
  if (two_sided_) driven.b = &*b_;
  driven.divergence = divergence;
  if (!violation.empty()) {
    driven.violation = &violation;
    driven.violation_side = side;
  }
  options_.observer->OnStep(driven);
}

std::optional<DriveEnd> Driver::Apply(const Step& step) {
  ++step_no_;
  if (!two_sided_) {
    // One system, against the step's expectations.
    const bool compare = !options_.record;
    // The state after this step: when the expectation shows it, or an
    // observer reads every step's (after a fatal one too: the timeline shows
    // where each pod was left).
    const bool wants_state =
        (compare && step.expect != nullptr && step.expect->state) ||
        (options_.observer != nullptr && options_.observer->wants_state());
    const absl::StatusOr<StepOut>& out = a_.Apply(step, wants_state);
    if (!out.ok()) {
      DriveEnd end = At(step, RefusalVerdict(out.status()));
      end.status = out.status();
      end.message = std::string(out.status().message());
      if (options_.drop_refused) {
        --step_no_;  // as if never offered
        return end;
      }
      ended_ = true;
      Observe(step, nullptr, "", "");
      return Fail(std::move(end));
    }
    std::optional<DriveEnd> failure;
    std::string violation;
    static const State kNoState;
    std::optional<Divergence> d;
    // Past the first failure (keep_going) nothing more is decided: neither
    // comparison nor check runs.
    const bool deciding = !first_failure_.has_value();
    if (compare && deciding) {
      d = CompareStep(step, step_no_, *out,
                      a_.has_after() ? a_.after() : kNoState, options_.reports,
                      &comparisons_skipped_, a_.system().OutAsSent(),
                      a_.system().StateAsSent());
    }
    if (d) {
      failure = At(step, Verdict::kFailed);
      AddContext(*d);
      failure->divergence = std::move(d);
    } else if (check_a_ && !a_.fatal() && deciding) {
      violation = check_a_(a_.before(), step, *out, a_.after(), a_.touch());
      if (!violation.empty()) {
        failure = At(step, Verdict::kFailed);
        failure->message = violation;
      }
    }
    ended_ = a_.ended();
    Observe(step,
            failure && failure->divergence ? &*failure->divergence : nullptr,
            violation, "a");
    Remember(step);
    if (failure) return Fail(*std::move(failure));
    return std::nullopt;
  }

  // Two systems, b against a.
  const absl::StatusOr<StepOut>& out_a = a_.Apply(step);
  const absl::StatusOr<StepOut>& out_b = b_->Apply(step);
  std::optional<DriveEnd> failure;
  std::string violation;
  std::string_view side;
  if (first_failure_) {
    // Past the first failure (keep_going) nothing more is decided.
  } else if (out_a.ok() != out_b.ok()) {
    // One of two refused: its own path, so that shrinking keeps a refusal
    // apart from an out that differs.
    failure = At(step, Verdict::kFailed);
    Divergence d{step_no_,        step.line,      failure->op,
                 "out (refused)", ShowOut(out_a), ShowOut(out_b)};
    d.differences.push_back({d.path, "changed", d.expected, d.actual});
    d.t = step.t;
    d.step_summary = StepSummary(step);
    AddContext(d);
    failure->divergence = std::move(d);
  } else if (std::optional<Divergence> d = CompareTwo(step)) {
    // Both applied it (or both refused it, an agreement whose states must
    // still agree) and they differ.
    failure = At(step, Verdict::kFailed);
    AddContext(*d);
    failure->divergence = std::move(d);
  } else if (out_a.ok() && !a_.fatal()) {
    // The check, on each side's transition.
    if (check_a_) {
      violation = check_a_(a_.before(), step, *out_a, a_.after(), a_.touch());
      if (!violation.empty()) side = "a";
    }
    if (violation.empty() && check_b_) {
      violation =
          check_b_(b_->before(), step, *out_b, b_->after(), b_->touch());
      if (!violation.empty()) side = "b";
    }
    if (!violation.empty()) {
      failure = At(step, Verdict::kFailed);
      failure->side = std::string(side);
      failure->message = violation;
    }
  }
  ended_ = a_.ended() || b_->ended();
  Observe(step,
          failure && failure->divergence ? &*failure->divergence : nullptr,
          violation, side);
  Remember(step);
  if (failure) return Fail(*std::move(failure));
  return std::nullopt;
}

}  // namespace schedtrace
