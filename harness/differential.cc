#include "harness/differential.h"

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/json_codec.h"
#include "harness/step_summary.h"
#include "harness/system.h"
#include "harness/upstream_versions.h"

namespace schedtrace {
namespace {

// The step as system `a` saw it: its out and state as the expectation, so
// the replayer's CompareStep diffs b against a.
Step WithExpectFrom(const Step& step, const StepOut& out, const State& state) {
  Step copy = step;
  auto expect = std::make_shared<Expect>();
  expect->out = OutToJson(out);
  if (!out.fatal) expect->state = StateToJson(state);
  copy.expect = std::move(expect);
  return copy;
}

std::string Where(const Trace& trace, const Step& step, int step_no) {
  return StepLocation(trace.path, trace.header.name, trace.header.seed,
                      step.line, step_no, std::string(OpName(step.op)));
}

}  // namespace

std::string StepLocation(const std::string& path, const std::string& name,
                         std::optional<int64_t> seed, int line, int step_no,
                         const std::string& op) {
  std::string where;
  if (!path.empty()) {
    where = line > 0 ? absl::StrCat(path, ":", line) : path;
  } else {
    where = name.empty() ? "generated trace" : name;
    if (seed) absl::StrAppend(&where, " (seed ", *seed, ")");
  }
  return absl::StrCat(where, ": step ", step_no, " (", op, ")");
}

std::string DiffResult::Format(const std::string& a_name,
                               const std::string& b_name) const {
  if (divergence) {
    const Divergence& d = *divergence;
    return absl::StrCat(StepLocation(path, name, seed, d.line, d.step, d.op),
                        " t=", d.t, ": ", d.path, d.FormatBody(a_name, b_name));
  }
  if (!side.empty()) {
    return absl::StrCat(side == "a" ? a_name : b_name, ": ", message);
  }
  return message.empty() ? (path.empty() ? name : path) : message;
}

Differential::Differential(System& a, System& b, DiffOptions options)
    : a_(a), b_(b), options_(std::move(options)) {}

DiffResult Differential::Base() const {
  DiffResult result;
  result.path = path_;
  result.name = header_.name;
  result.seed = header_.seed;
  result.layer = header_.layer;
  return result;
}

std::optional<DiffResult> Differential::Configure(const TraceHeader& header,
                                                  std::string path) {
  header_ = header;
  path_ = std::move(path);
  ended_ = false;
  recent_count_ = 0;
  absl::Status sa = a_.Configure(header);
  absl::Status sb = b_.Configure(header);
  for (const auto& [s, side] : {std::pair{&sa, "a"}, std::pair{&sb, "b"}}) {
    if (s->ok()) continue;
    DiffResult result = Base();
    result.verdict = s->code() == absl::StatusCode::kUnimplemented
                         ? Verdict::kSkipped
                         : Verdict::kError;
    result.side = side;
    result.message = std::string(s->message());
    return result;
  }
  check_a_ = check_b_ = nullptr;
  if (options_.make_check) {
    check_a_ = options_.make_check(header);
    if (options_.check_b) check_b_ = options_.make_check(header);
  }
  before_a_ = a_.Snapshot();
  before_b_ = b_.Snapshot();
  return std::nullopt;
}

std::optional<DiffResult> Differential::Apply(const Step& step, int step_no) {
  absl::StatusOr<StepOut> out_a = a_.Apply(step);
  absl::StatusOr<StepOut> out_b = b_.Apply(step);
  last_out_.reset();
  DiffResult result = Base();
  result.steps_run = step_no;
  result.verdict = Verdict::kFailed;
  if (out_a.ok() != out_b.ok()) {
    auto show = [](const absl::StatusOr<StepOut>& o) {
      return o.ok() ? OutToJson(*o).dump()
                    : absl::StrCat("(refused: ", o.status().message(), ")");
    };
    // Its own path, so that shrinking keeps a refusal apart from an `out`
    // that differs.
    Divergence d{step_no,         step.line,   std::string(OpName(step.op)),
                 "out (refused)", show(out_a), show(out_b)};
    d.differences.push_back({d.path, "changed", d.expected, d.actual});
    d.t = step.t;
    d.step_summary = StepSummary(step);
    result.divergence = std::move(d);
    AddContext(*result.divergence);
    return result;
  }
  State after_a = a_.Snapshot(), after_b = b_.Snapshot();
  // Both refused the step: their states must still agree.
  const StepOut none;
  const StepOut& oa = out_a.ok() ? *out_a : none;
  const StepOut& ob = out_b.ok() ? *out_b : none;
  // A child's out is compared as it wrote it (System::OutAsSent): a
  // non-canonical reply ({"error": false}, an unknown key) is a divergence.
  const std::optional<std::string_view> sent_b =
      out_b.ok() ? b_.OutAsSent() : std::nullopt;
  if (auto d = CompareStep(WithExpectFrom(step, oa, after_a), step_no, ob,
                           after_b, options_.reports, nullptr, sent_b,
                           out_b.ok() ? b_.StateAsSent() : std::nullopt)) {
    result.divergence = std::move(d);
    AddContext(*result.divergence);
    return result;
  }
  // A fatal step (upstream exited) ends the trace: the state it leaves is
  // no scheduler's, so no property is checked on it.
  if (out_a.ok() && !oa.fatal) {
    Trace where;
    where.path = path_;
    where.header = header_;
    for (auto [check, before, after, out, side] :
         {std::tuple{&check_a_, &before_a_, &after_a, &oa, "a"},
          std::tuple{&check_b_, &before_b_, &after_b, &ob, "b"}}) {
      if (!*check) continue;
      std::string violation = (*check)(*before, step, *out, *after);
      if (!violation.empty()) {
        result.side = side;
        result.message =
            absl::StrCat(Where(where, step, step_no), ": ", violation);
        return result;
      }
    }
  }
  if (out_a.ok() && oa.fatal) ended_ = true;  // both exited: the trace ends
  before_a_ = std::move(after_a);
  before_b_ = std::move(after_b);
  // Summarised only on a divergence: assigning into the ring reuses its
  // storage, where a summary per step would allocate (the fuzz targets).
  Recent& r = recent_[static_cast<size_t>(recent_count_) % recent_.size()];
  r.step = step;
  r.step_no = step_no;
  ++recent_count_;
  if (out_a.ok()) last_out_ = *std::move(out_a);  // moved: no copy per step
  return std::nullopt;
}

void Differential::AddContext(Divergence& d) const {
  d.description = header_.description;
  d.before.clear();
  const int n = std::min<int>(recent_count_, kStepsBefore);
  for (int i = recent_count_ - n; i < recent_count_; ++i) {
    const Recent& r = recent_[static_cast<size_t>(i) % recent_.size()];
    d.before.push_back(StepLine(r.step, r.step_no));
  }
}

DiffResult RunDifferential(System& a, System& b, const Trace& trace,
                           const DiffOptions& options) {
  Differential d(a, b, options);
  if (std::optional<DiffResult> r = d.Configure(trace.header, trace.path)) {
    return *r;
  }
  int steps_run = 0;
  for (size_t i = 0; i < trace.steps.size() && !d.ended(); ++i) {
    steps_run = static_cast<int>(i) + 1;
    if (std::optional<DiffResult> r = d.Apply(trace.steps[i], steps_run)) {
      return *r;
    }
  }
  DiffResult result;
  result.path = trace.path;
  result.name = trace.header.name;
  result.seed = trace.header.seed;
  result.layer = trace.header.layer;
  result.steps_run = steps_run;
  return result;
}

absl::StatusOr<Trace> RecordTrace(System& sut, const Trace& trace) {
  Trace recorded;
  recorded.path = trace.path;
  recorded.header = trace.header;
  if (absl::Status s = sut.Configure(trace.header); !s.ok()) return s;
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const Step& step = trace.steps[i];
    absl::StatusOr<StepOut> out = sut.Apply(step);
    if (std::optional<std::string> reason = NotApplicableReason(out.status());
        reason && !out.ok()) {
      // The recording stops before a step this version cannot apply, and
      // says so in its header, as upstream's recorded corpora do.
      recorded.header.truncated =
          Truncated{.at_step = static_cast<int64_t>(i) + 1,
                    .reason = absl::StrCat(
                        *reason, " (not applicable in ",
                        std::string(EffectiveUpstream(trace.header.upstream)),
                        ": this step and the later ones dropped)")};
      break;
    }
    if (!out.ok()) {
      return absl::Status(
          out.status().code(),
          absl::StrCat(Where(trace, step, static_cast<int>(i) + 1), ": ",
                       out.status().message()));
    }
    recorded.steps.push_back(WithExpectFrom(step, *out, sut.Snapshot()));
    if (out->fatal) break;
  }
  return recorded;
}

}  // namespace schedtrace
