#include "run/timeline.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/json_codec.h"
#include "run/driver.h"
#include "run/out_facts.h"
#include "run/side_nodes.h"
#include "run/side_places.h"
#include "run/step_summary.h"

namespace schedtrace {
namespace {

using nlohmann::json;

void AddOnce(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && !absl::c_linear_search(v, s)) v.push_back(s);
}

// Every pod the trace mentions, in order of first appearance.
std::vector<std::string> MentionedPods(const Trace& trace) {
  std::vector<std::string> keys;
  for (const Step& step : trace.steps) {
    for (const std::string& k : StepPodKeys(step)) AddOnce(keys, k);
  }
  return keys;
}

// Every node the trace mentions (its node objects, its pods' nodeName), in
// order of first appearance; none in the queue layer, which has no cache.
std::vector<std::string> MentionedNodes(const Trace& trace) {
  std::vector<std::string> names;
  if (trace.header.layer == Layer::kQueue) return names;
  for (const Step& step : trace.steps) {
    for (const std::string& n : StepNodeNames(step)) AddOnce(names, n);
  }
  return names;
}

// Whether a side's out says `error` (a removal it refused).
bool SaysError(const json& out) {
  auto it = out.find("error");
  return it != out.end() && *it == true;
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

}  // namespace

// Records, as the driver runs the trace, the places of the pods followed
// after every step, and the first failure as the replayer decides it (the
// first divergence, else the first property violation, else the system's
// error).
class TimelineRecorder::Walker {
 public:
  Walker(const Trace& trace, const ExplainOptions& options,
         std::vector<std::string> pods, std::vector<std::string> nodes)
      : trace_(trace), options_(options) {
    tl_.trace = trace.path;
    tl_.description = trace.header.description;
    tl_.sut = options.sut;
    tl_.steps = static_cast<int>(trace.steps.size());
    tl_.layer = trace.header.layer;
    tl_.from = options.from;
    tl_.to = options.to;
    tl_.pods = std::move(pods);
    tl_.nodes = std::move(nodes);
  }

  void OnStep(const DrivenStep& driven) {
    if (driven.step_no == 1 && options_.reports) {
      // Read once the system is configured (a child declares what it
      // reports then).
      for (const std::string& key : PlaceKeys(layer())) {
        if (!options_.reports(key)) unreported_.push_back(key);
      }
    }
    const Step& step = driven.step;
    const int step_no = driven.step_no;
    const DrivenSystem& run = *driven.a;
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
    if (run.refused()) {
      Failed(step, step_no, want, run.out().status(), in_range, std::move(row));
      return;
    }
    tl_.steps_run = step_no;
    static const State kNoState;
    const State& state = run.has_after() ? run.after() : kNoState;
    json actual_out = OutToJson(*run.out());
    if (std::optional<std::string_view> sent = run.system().OutAsSent()) {
      json parsed = json::parse(sent->begin(), sent->end(), nullptr, false);
      if (!parsed.is_discarded()) actual_out = std::move(parsed);
    }
    row.actual_out = actual_out.dump();
    row.out_differs = want.has_out && *want.expect->out != actual_out;
    if (!failed_) {
      // The first failure: a divergence, else a violation of the check.
      if (driven.divergence != nullptr) {
        tl_.divergence = *driven.divergence;
        row.divergent = true;
        failed_ = true;
      } else if (driven.violation != nullptr) {
        tl_.violation = *driven.violation;
        tl_.violation_step = step_no;
        row.violation = *driven.violation;
        failed_ = true;
      }
      if (failed_) failing_out_ = row.actual_out;
    }
    Places(step, step_no, want, state, actual_out, row);
    if (options_.take_known) row.known = options_.take_known();
    if (in_range) tl_.rows.push_back(std::move(row));
  }

  Timeline& timeline() { return tl_; }
  // The system's out at the first failure, as JSON text.
  const std::string& failing_out() const { return failing_out_; }

 private:
  Layer layer() const { return trace_.header.layer; }
  bool queue_layer() const { return layer() == Layer::kQueue; }

  // The system could not apply step `step_no`: the timeline's error, and
  // the step's row with the expected side only.
  void Failed(const Step& step, int step_no, const Expected& want,
              const absl::Status& status, bool in_range, TimelineRow row) {
    tl_.error = absl::StrCat("step ", step_no, " (line ", step.line, ", ",
                             row.op, "): ", status.message());
    tl_.error_step = step_no;
    if (!in_range) return;
    row.has_actual = false;
    row.error = std::string(status.message());
    const json expected_out = want.has_out ? *want.expect->out : json();
    const bool refused = SaysError(expected_out);
    const State* w = want.state ? &*want.state : nullptr;
    row.expected = expected_shown_.After(step_no, step, PoppedBy(expected_out),
                                         AttemptsIn(expected_out), refused, w,
                                         want.unshown);
    if (!tl_.nodes.empty()) {
      row.expected_nodes =
          expected_nodes_.After(step_no, step, refused, w, want.unshown);
    }
    const std::vector<std::string> own = StepPodKeys(step);
    for (auto& [pod, place] : row.expected) {
      if (want.has_out) place.out = OutFacts(*want.expect->out, pod, own);
    }
    row.expected_since = expected_since_.After(step_no, row.expected);
    tl_.rows.push_back(std::move(row));
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
    // A removal a side answered with an error did not remove anything.
    const bool act_refused = SaysError(actual_out);
    const bool exp_refused = SaysError(exp_out);
    row.expected = expected_shown_.After(
        step_no, step, exp_popped, exp_attempts, exp_refused, w, want.unshown);
    row.actual = actual_shown_.After(step_no, step, act_popped, act_attempts,
                                     act_refused, &state, actual_unshown);
    std::map<std::string, PodPlace> e_cmp = expected_cmp_.After(
        step_no, step, exp_popped, exp_attempts, exp_refused, w, cmp_unshown);
    std::map<std::string, PodPlace> a_cmp =
        actual_cmp_.After(step_no, step, act_popped, act_attempts, act_refused,
                          &state, cmp_unshown);
    if (!tl_.nodes.empty()) {
      Nodes(step, step_no, want, exp_refused, act_refused, state,
            actual_unshown, cmp_unshown, row);
    }
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

  // The node view after step `step_no`: both sides' nodes as displayed,
  // and those that differ on what both show.
  void Nodes(const Step& step, int step_no, const Expected& want,
             bool exp_refused, bool act_refused, const State& state,
             const std::vector<std::string>& actual_unshown,
             const std::vector<std::string>& cmp_unshown, TimelineRow& row) {
    const State* w = want.state ? &*want.state : nullptr;
    row.expected_nodes =
        expected_nodes_.After(step_no, step, exp_refused, w, want.unshown);
    row.actual_nodes =
        actual_nodes_.After(step_no, step, act_refused, &state, actual_unshown);
    std::map<std::string, NodePlace> e_cmp =
        expected_nodes_cmp_.After(step_no, step, exp_refused, w, cmp_unshown);
    std::map<std::string, NodePlace> a_cmp = actual_nodes_cmp_.After(
        step_no, step, act_refused, &state, cmp_unshown);
    if (!want.has_state) return;
    for (const std::string& node : tl_.nodes) {
      NodePlace e = e_cmp[node], a = a_cmp[node];
      e.note = a.note = "";
      if (!(e == a)) row.differing_nodes.push_back(node);
    }
  }

  int64_t ttl_ms() const { return trace_.header.config.assumed_pod_ttl_ms; }

  const Trace& trace_;
  const ExplainOptions& options_;
  Timeline tl_;
  // Displayed sides, and the sides compared (on what both show).
  SidePlaces expected_shown_{tl_.pods, queue_layer()};
  SidePlaces actual_shown_{tl_.pods, queue_layer()};
  SidePlaces expected_cmp_{tl_.pods, queue_layer()};
  SidePlaces actual_cmp_{tl_.pods, queue_layer()};
  PlaceSince expected_since_, actual_since_;
  SideNodes expected_nodes_{tl_.nodes, ttl_ms()};
  SideNodes actual_nodes_{tl_.nodes, ttl_ms()};
  SideNodes expected_nodes_cmp_{tl_.nodes, ttl_ms(), /*deadlines=*/false};
  SideNodes actual_nodes_cmp_{tl_.nodes, ttl_ms(), /*deadlines=*/false};
  std::vector<std::string> unreported_;  // place keys the system leaves out
  bool failed_ = false;
  std::string failing_out_;
};

namespace {

// The pods the first failure involves, in the trace's order: those its
// differences name (paths and values), those the step's outs name on either
// side, the step's own pod arguments; for a violation, those its message
// names (else the step's own); for an error, the step's own and those its
// expected out names.
std::vector<std::string> PodsOfFailure(const Timeline& first,
                                       const std::string& failing_out,
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
    if (!failing_out.empty()) {
      json actual = json::parse(failing_out, nullptr, false);
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
    bool is = absl::c_linear_search(named, key);
    for (const std::string& t : texts) is = is || NamesKey(t, key);
    if (is) keys.push_back(key);
  }
  return keys;
}

constexpr std::string_view kNodes = "state.cache.nodes";

// The nodes the first divergence's differences name
// (`state.cache.nodes[n1].requested.cpu`; a whole list: the nodes whose
// elements differ), among those followed (`all`, the trace's order).
std::vector<std::string> NodesOfDivergence(
    const Divergence& d, const std::vector<std::string>& all) {
  std::vector<std::string> named;
  auto from = [&named](const std::string& path, const std::string& expected,
                       const std::string& actual) {
    if (!path.starts_with(kNodes)) return;
    const std::string rest = path.substr(kNodes.size());
    if (rest.starts_with("[")) {
      const size_t close = rest.find(']');
      if (close != std::string::npos) AddOnce(named, rest.substr(1, close - 1));
      return;
    }
    if (!rest.empty()) return;
    // The whole list: each element on one side not equal on the other.
    const json e = json::parse(expected, nullptr, false);
    const json a = json::parse(actual, nullptr, false);
    auto by_name = [](const json& list) {
      std::map<std::string, json> m;
      if (!list.is_array()) return m;
      for (const json& n : list) {
        if (n.is_object() && n.contains("name") && n["name"].is_string()) {
          m[n["name"].get<std::string>()] = n;
        }
      }
      return m;
    };
    const std::map<std::string, json> em = by_name(e), am = by_name(a);
    for (const auto* side : {&em, &am}) {
      for (const auto& [name, node] : *side) {
        const auto& other = side == &em ? am : em;
        auto it = other.find(name);
        if (it == other.end() || it->second != node) AddOnce(named, name);
      }
    }
  };
  from(d.path, d.expected, d.actual);
  for (const Difference& diff : d.differences) {
    from(diff.path, diff.expected, diff.actual);
  }
  std::vector<std::string> nodes;
  for (const std::string& n : all) {
    if (absl::c_linear_search(named, n)) nodes.push_back(n);
  }
  return nodes;
}

// `nodes` only, in every row.
void KeepNodes(const std::vector<std::string>& nodes, Timeline& tl) {
  for (TimelineRow& row : tl.rows) {
    for (auto* by_node : {&row.expected_nodes, &row.actual_nodes}) {
      std::erase_if(*by_node, [&nodes](const auto& kv) {
        return !absl::c_linear_search(nodes, kv.first);
      });
    }
    std::erase_if(row.differing_nodes, [&nodes](const std::string& n) {
      return !absl::c_linear_search(nodes, n);
    });
  }
  tl.nodes = nodes;
}

// `pods` only, in every row.
void Keep(const std::vector<std::string>& pods, Timeline& tl) {
  auto keep = [&pods](auto& by_pod) {
    std::erase_if(by_pod, [&pods](const auto& kv) {
      return !absl::c_linear_search(pods, kv.first);
    });
  };
  for (TimelineRow& row : tl.rows) {
    keep(row.expected);
    keep(row.actual);
    keep(row.expected_since);
    keep(row.actual_since);
    std::erase_if(row.differing, [&pods](const std::string& pod) {
      return !absl::c_linear_search(pods, pod);
    });
  }
  tl.pods = pods;
}

}  // namespace

TimelineRecorder::TimelineRecorder(const Trace& trace,
                                   const ExplainOptions& options)
    : trace_(trace),
      options_(options),
      walker_(std::make_unique<Walker>(
          trace, options_,
          options.pods.empty() ? MentionedPods(trace) : options.pods,
          options.nodes.empty() ? MentionedNodes(trace) : options.nodes)) {}

TimelineRecorder::~TimelineRecorder() = default;

void TimelineRecorder::ChooseNodes(Timeline& tl) const {
  if (!options_.nodes.empty()) {
    const std::vector<std::string> mentioned = MentionedNodes(trace_);
    std::string chosen = "given";
    std::vector<std::string> unknown;
    for (const std::string& node : options_.nodes) {
      if (!absl::c_linear_search(mentioned, node)) unknown.push_back(node);
    }
    if (!unknown.empty()) {
      absl::StrAppend(&chosen, "; no step of the trace names ",
                      absl::StrJoin(unknown, ", "));
    }
    tl.nodes_chosen = std::move(chosen);
    return;
  }
  // Every node the trace mentions was followed; the timeline keeps those
  // the first divergence names.
  std::vector<std::string> nodes;
  if (tl.divergence) nodes = NodesOfDivergence(*tl.divergence, tl.nodes);
  if (nodes.size() > static_cast<size_t>(kMaxNodesFollowed)) {
    tl.nodes_chosen =
        absl::StrCat("the first ", kMaxNodesFollowed, " of the ", nodes.size(),
                     " nodes named by the first divergence");
    nodes.resize(kMaxNodesFollowed);
  } else if (!nodes.empty()) {
    tl.nodes_chosen = "named by the first divergence";
  }
  KeepNodes(nodes, tl);
}

void TimelineRecorder::OnStep(const DrivenStep& step) { walker_->OnStep(step); }

Timeline TimelineRecorder::Finish() {
  Timeline tl = std::move(walker_->timeline());
  ChooseNodes(tl);
  const std::vector<std::string> mentioned = MentionedPods(trace_);
  if (!options_.pods.empty()) {
    std::string chosen = "given";
    std::vector<std::string> unknown;
    for (const std::string& pod : options_.pods) {
      if (!absl::c_linear_search(mentioned, pod)) unknown.push_back(pod);
    }
    if (!unknown.empty()) {
      absl::StrAppend(&chosen, "; no step of the trace names ",
                      absl::StrJoin(unknown, ", "));
    }
    tl.pods_chosen = std::move(chosen);
    return tl;
  }
  // Every pod the trace mentions was followed; the timeline keeps those
  // the first failure involves.
  std::vector<std::string> pods;
  std::string from, chosen;
  if (tl.divergence || tl.violation_step > 0 || tl.error_step > 0) {
    pods = PodsOfFailure(tl, walker_->failing_out(), trace_, mentioned);
    from = tl.divergence       ? "named by the first divergence"
           : tl.violation_step ? "named by the property violation"
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
  Keep(pods, tl);
  tl.pods_chosen = std::move(chosen);
  return tl;
}

absl::StatusOr<Timeline> ExplainTrace(System& sut, const Trace& trace,
                                      const ExplainOptions& options) {
  TimelineRecorder recorder(trace, options);
  DriveOptions drive;
  drive.make_check = options.make_check;
  drive.reports = options.reports;
  drive.keep_going = true;
  drive.observer = &recorder;
  Driver driver(sut, nullptr, std::move(drive));
  if (std::optional<DriveEnd> end =
          driver.Configure(trace.header, trace.path)) {
    return absl::Status(
        end->status.code(),
        absl::StrCat(trace.path, ": the header: ", end->status.message()));
  }
  for (const Step& step : trace.steps) {
    driver.Apply(step);
    if (driver.ended()) break;
  }
  return recorder.Finish();
}

std::string ExplanationPathFor(const std::string& trace_path) {
  std::string path = trace_path;
  if (path.ends_with(".jsonl")) path.resize(path.size() - 6);
  return path + ".explain.txt";
}

}  // namespace schedtrace
