#include "harness/timeline.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/json_codec.h"
#include "harness/out_facts.h"
#include "harness/side_places.h"
#include "harness/step_summary.h"

namespace schedtrace {
namespace {

using nlohmann::json;

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

void AddOnce(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && !Contains(v, s)) v.push_back(s);
}

// Every pod the trace mentions, in order of first appearance.
std::vector<std::string> MentionedPods(const Trace& trace) {
  std::vector<std::string> keys;
  for (const Step& step : trace.steps) {
    for (const std::string& k : StepPodKeys(step)) AddOnce(keys, k);
  }
  return keys;
}

bool IsKeyBoundary(char c) {
  return c == '"' || c == '[' || c == ']' || c == ',' || c == ' ' || c == '.' ||
         c == '(' || c == ')' || c == ':' || c == '\n';
}

// Whether `text` names `key` as a whole (not "d/p" inside "d/p2").
bool NamesKey(const std::string& text, const std::string& key) {
  for (size_t at = text.find(key); at != std::string::npos;
       at = text.find(key, at + 1)) {
    const size_t end = at + key.size();
    if ((at == 0 || IsKeyBoundary(text[at - 1])) &&
        (end == text.size() || IsKeyBoundary(text[end]))) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> Union(std::vector<std::string> a,
                               const std::vector<std::string>& b) {
  for (const std::string& s : b) AddOnce(a, s);
  return a;
}

// The step's scripted answers, which StepSummary leaves out (a summary that
// already names them is left alone).
std::string WithScriptedAnswers(const Step& step, std::string summary) {
  auto add = [&summary](const std::string& word) {
    const std::string key = absl::StrCat(" ", word.substr(0, word.find('=')));
    if (summary.find(key + "=") == std::string::npos &&
        !summary.ends_with(key) &&
        summary.find(key + " ") == std::string::npos) {
      absl::StrAppend(&summary, " ", word);
    }
  };
  if (step.op == Op::kScheduleOne) {
    if (step.reserve == ReserveOutcome::kError) add("reserve=error");
    if (step.permit == PermitOutcome::kWait) add("permit=wait");
    if (step.permit == PermitOutcome::kReject) add("permit=reject");
  }
  if (step.op == Op::kBind) {
    if (!step.prebind_ok) add("prebind=error");
    if (!step.bind_ok) add("bind=error");
  }
  if (step.tombstone) add("tombstone");
  return summary;
}

// What the trace expects at one step: its out and state as written, the
// state decoded (an undecodable one: empty) and the place keys it leaves
// out.
struct Expected {
  const Expect* expect = nullptr;
  bool has_state = false, has_out = false;
  std::optional<State> state;
  std::vector<std::string> unshown;
};

Expected ExpectedAt(const Step& step, Layer layer) {
  Expected e;
  e.expect = step.expect.get();
  e.has_state = e.expect != nullptr && e.expect->state.has_value();
  e.has_out = e.expect != nullptr && e.expect->out.has_value();
  e.unshown = PlaceKeys(layer);
  if (e.has_state) {
    absl::StatusOr<State> decoded = StateFromJson(*e.expect->state);
    if (decoded.ok()) {
      e.state = *std::move(decoded);
      e.unshown = UnshownPlaceKeys(*e.expect->state, layer);
    } else {
      e.state = State{};
    }
  }
  return e;
}

// One replay of the trace: the places of `pods` after every step (when
// `record`), and the first failure, as the replayer decides it (the first
// divergence, else the first property violation, else the system's error).
class Walker {
 public:
  Walker(System& sut, const Trace& trace, const ExplainOptions& options,
         const std::vector<std::string>& pods, bool record)
      : sut_(sut), trace_(trace), options_(options), record_(record) {
    tl_.trace = trace.path;
    tl_.description = trace.header.description;
    tl_.sut = options.sut;
    tl_.steps = static_cast<int>(trace.steps.size());
    tl_.layer = trace.header.layer;
    tl_.from = options.from;
    tl_.to = options.to;
    tl_.pods = pods;
  }

  absl::StatusOr<Timeline> Run() {
    if (absl::Status s = sut_.Configure(trace_.header); !s.ok()) {
      return absl::Status(
          s.code(), absl::StrCat(trace_.path, ": the header: ", s.message()));
    }
    check_ =
        options_.make_check ? options_.make_check(trace_.header) : StepCheck();
    if (check_) before_ = sut_.Snapshot();
    if (options_.reports) {
      for (const std::string& key : PlaceKeys(layer())) {
        if (!options_.reports(key)) unreported_.push_back(key);
      }
    }
    for (size_t i = 0; i < trace_.steps.size(); ++i) {
      if (!Walk(i)) break;
    }
    return std::move(tl_);
  }

 private:
  Layer layer() const { return trace_.header.layer; }
  bool queue_layer() const { return layer() == Layer::kQueue; }

  // Step `i`; false when the walk ends there.
  bool Walk(size_t i) {
    const Step& step = trace_.steps[i];
    const int step_no = static_cast<int>(i) + 1;
    const Expected want = ExpectedAt(step, layer());
    TimelineRow row;
    row.step = step_no;
    row.line = step.line;
    row.t = step.t;
    row.op = std::string(OpName(step.op));
    row.summary = WithScriptedAnswers(step, StepSummary(step));
    row.has_expected = want.has_state;
    if (want.has_out) row.expected_out = want.expect->out->dump();
    const bool in_range = (options_.from == 0 || step_no >= options_.from) &&
                          (options_.to == 0 || step_no <= options_.to);

    absl::StatusOr<StepOut> out = sut_.Apply(step);
    if (!out.ok()) {
      Failed(step, step_no, want, out.status(), in_range, std::move(row));
      return false;
    }
    tl_.steps_run = step_no;
    State state = sut_.Snapshot();
    json actual_out = OutToJson(*out);
    if (std::optional<std::string_view> sent = sut_.OutAsSent()) {
      json parsed = json::parse(sent->begin(), sent->end(), nullptr, false);
      if (!parsed.is_discarded()) actual_out = std::move(parsed);
    }
    row.actual_out = actual_out.dump();
    row.out_differs = want.has_out && *want.expect->out != actual_out;

    if (!failed_ && FirstFailure(step, i, *out, state, row) && !record_) {
      tl_.rows.push_back(std::move(row));  // its out names the pods
      return false;
    }
    if (record_) {
      Places(step, step_no, want, state, actual_out, row);
      if (in_range) tl_.rows.push_back(std::move(row));
    }
    return !out->fatal;  // fatal: upstream exited, the trace ends here
  }

  // The system could not apply step `step_no`: the timeline's error, and
  // the step's row with the expected side only.
  void Failed(const Step& step, int step_no, const Expected& want,
              const absl::Status& status, bool in_range, TimelineRow row) {
    tl_.error = absl::StrCat("step ", step_no, " (line ", step.line, ", ",
                             row.op, "): ", status.message());
    tl_.error_step = step_no;
    if (!record_ || !in_range) return;
    row.has_actual = false;
    row.error = std::string(status.message());
    const json expected_out = want.has_out ? *want.expect->out : json();
    row.expected = expected_shown_.After(
        step_no, step, PoppedBy(expected_out), AttemptsIn(expected_out),
        want.state ? &*want.state : nullptr, want.unshown);
    const std::vector<std::string> own = StepPodKeys(step);
    for (auto& [pod, place] : row.expected) {
      if (want.has_out) place.out = OutFacts(*want.expect->out, pod, own);
    }
    row.expected_since = expected_since_.After(step_no, row.expected);
    tl_.rows.push_back(std::move(row));
  }

  // Whether step `i` is the first failure: it diverges, else (the
  // properties checked) violates one. Marks the row and the timeline.
  bool FirstFailure(const Step& step, size_t i, const StepOut& out,
                    const State& state, TimelineRow& row) {
    const int step_no = static_cast<int>(i) + 1;
    std::optional<Divergence> d =
        CompareStep(step, step_no, out, state, options_.reports, nullptr,
                    sut_.OutAsSent(), sut_.StateAsSent());
    if (d) {
      AddTraceContext(*d, trace_, i);
      tl_.divergence = std::move(d);
      row.divergent = true;
      failed_ = true;
    } else if (check_) {
      std::string violation = check_(before_, step, out, state);
      if (!violation.empty()) {
        tl_.violation = violation;
        tl_.violation_step = step_no;
        row.violation = std::move(violation);
        failed_ = true;
      }
      before_ = state;
    }
    return failed_;
  }

  // Both sides' places after step `step_no`, as displayed and as compared
  // (on what both show), their outs, the pods that differ, since when.
  void Places(const Step& step, int step_no, const Expected& want,
              const State& state, const json& actual_out, TimelineRow& row) {
    // What the expected side popped: its out's, else the system's.
    const json& exp_out = want.has_out ? *want.expect->out : actual_out;
    const std::string exp_popped = PoppedBy(exp_out);
    const std::optional<int> exp_attempts = AttemptsIn(exp_out);
    const std::string act_popped = PoppedBy(actual_out);
    const std::optional<int> act_attempts = AttemptsIn(actual_out);
    const std::vector<std::string> actual_unshown =
        UnshownPlaceKeys(state, layer(), options_.reports);
    const std::vector<std::string> cmp_unshown =
        Union(want.unshown, unreported_);
    const State* w = want.state ? &*want.state : nullptr;
    row.expected = expected_shown_.After(step_no, step, exp_popped,
                                         exp_attempts, w, want.unshown);
    row.actual = actual_shown_.After(step_no, step, act_popped, act_attempts,
                                     &state, actual_unshown);
    std::map<std::string, PodPlace> e_cmp = expected_cmp_.After(
        step_no, step, exp_popped, exp_attempts, w, cmp_unshown);
    std::map<std::string, PodPlace> a_cmp = actual_cmp_.After(
        step_no, step, act_popped, act_attempts, &state, cmp_unshown);
    const std::vector<std::string> own = StepPodKeys(step);
    for (const std::string& pod : tl_.pods) {
      std::string e_out =
          want.has_out ? OutFacts(*want.expect->out, pod, own) : "";
      std::string a_out = OutFacts(actual_out, pod, own);
      if (want.has_state) row.expected[pod].out = e_out;
      row.actual[pod].out = a_out;
      bool differs = want.has_out && e_out != a_out;
      if (want.has_state) {
        PodPlace e = e_cmp[pod], a = a_cmp[pod];
        e.out = a.out = "";
        differs = differs || !(e == a);
      }
      if (differs) row.differing.push_back(pod);
    }
    if (want.has_state) {
      row.expected_since = expected_since_.After(step_no, row.expected);
    }
    row.actual_since = actual_since_.After(step_no, row.actual);
  }

  System& sut_;
  const Trace& trace_;
  const ExplainOptions& options_;
  const bool record_;
  Timeline tl_;
  // Displayed sides, and the sides compared (on what both show).
  SidePlaces expected_shown_{tl_.pods, queue_layer()};
  SidePlaces actual_shown_{tl_.pods, queue_layer()};
  SidePlaces expected_cmp_{tl_.pods, queue_layer()};
  SidePlaces actual_cmp_{tl_.pods, queue_layer()};
  PlaceSince expected_since_, actual_since_;
  StepCheck check_;
  State before_;
  std::vector<std::string> unreported_;  // place keys the system leaves out
  bool failed_ = false;
};

absl::StatusOr<Timeline> Walk(System& sut, const Trace& trace,
                              const ExplainOptions& options,
                              const std::vector<std::string>& pods,
                              bool record) {
  return Walker(sut, trace, options, pods, record).Run();
}

// The pods the first failure involves, in the trace's order: those its
// differences name (paths and values), those the step's outs name on either
// side, the step's own pod arguments; for a violation, those its message
// names (else the step's own); for an error, the step's own and those its
// expected out names.
std::vector<std::string> PodsOfFailure(const Timeline& first,
                                       const Trace& trace,
                                       const std::vector<std::string>& all) {
  const int step_no = first.divergence           ? first.divergence->step
                      : first.violation_step > 0 ? first.violation_step
                                                 : first.error_step;
  if (step_no < 1 || step_no > static_cast<int>(trace.steps.size())) return {};
  const Step& step = trace.steps[step_no - 1];
  std::vector<std::string> named = StepPodKeys(step);
  std::vector<std::string> texts;
  if (first.divergence) {
    // Each difference names its pods (`state.queue.backoff[d/p]`); the
    // first path's values may list whole queues, so they serve only when
    // there is no list of differences.
    const Divergence& d = *first.divergence;
    if (d.differences.empty()) texts = {d.path, d.expected, d.actual};
    for (const Difference& diff : d.differences) {
      texts.push_back(diff.path);
      texts.push_back(diff.expected);
      texts.push_back(diff.actual);
    }
    if (step.expect != nullptr && step.expect->out) {
      PodsOfOut(*step.expect->out, named);
    }
    if (!first.rows.empty()) {
      json actual = json::parse(first.rows.back().actual_out, nullptr, false);
      if (!actual.is_discarded()) PodsOfOut(actual, named);
    }
  }
  if (!first.violation.empty()) {
    // The pods the property names, else the step's own.
    std::vector<std::string> keys;
    for (const std::string& key : all) {
      if (NamesKey(first.violation, key)) keys.push_back(key);
    }
    if (!keys.empty()) return keys;
  }
  if (!first.error.empty()) {
    texts.push_back(first.error);
    // What upstream did at the step the system failed on.
    if (step.expect != nullptr && step.expect->out) {
      PodsOfOut(*step.expect->out, named);
    }
  }
  std::vector<std::string> keys;
  for (const std::string& key : all) {
    bool is = Contains(named, key);
    for (const std::string& t : texts) is = is || NamesKey(t, key);
    if (is) keys.push_back(key);
  }
  return keys;
}

}  // namespace

absl::StatusOr<Timeline> ExplainTrace(System& sut, const Trace& trace,
                                      const ExplainOptions& options) {
  std::vector<std::string> pods;
  std::string chosen;
  if (!options.pods.empty()) {
    pods = options.pods;
    chosen = "given";
    const std::vector<std::string> mentioned = MentionedPods(trace);
    std::vector<std::string> unknown;
    for (const std::string& pod : pods) {
      if (!Contains(mentioned, pod)) unknown.push_back(pod);
    }
    if (!unknown.empty()) {
      absl::StrAppend(&chosen, "; no step of the trace names ",
                      absl::StrJoin(unknown, ", "));
    }
  } else {
    // A first replay to the first failure, to learn which pods it involves.
    // It records the failing step's row only (for its out).
    absl::StatusOr<Timeline> first =
        Walk(sut, trace, options, {}, /*record=*/false);
    if (!first.ok()) return first.status();
    const std::vector<std::string> mentioned = MentionedPods(trace);
    std::string from;
    if (first->divergence || first->violation_step > 0 ||
        first->error_step > 0) {
      pods = PodsOfFailure(*first, trace, mentioned);
      from = first->divergence       ? "named by the first divergence"
             : first->violation_step ? "named by the property violation"
                                     : "named by the step the system failed";
    }
    if (pods.empty()) {
      pods = mentioned;
      from = "the trace mentions";
      chosen = "every pod the trace mentions";
    } else {
      chosen = from;
    }
    if (pods.size() > static_cast<size_t>(kMaxPodsFollowed)) {
      chosen = absl::StrCat("the first ", kMaxPodsFollowed, " of the ",
                            pods.size(), " pods ", from);
      pods.resize(kMaxPodsFollowed);
    }
  }
  absl::StatusOr<Timeline> tl = Walk(sut, trace, options, pods, true);
  if (tl.ok()) tl->pods_chosen = chosen;
  return tl;
}

std::string ExplanationPathFor(const std::string& trace_path) {
  std::string path = trace_path;
  if (path.ends_with(".jsonl")) path.resize(path.size() - 6);
  return path + ".explain.txt";
}

}  // namespace schedtrace
