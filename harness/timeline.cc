#include "harness/timeline.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/json_codec.h"
#include "harness/step_summary.h"

namespace schedtrace {
namespace {

using nlohmann::json;

constexpr char kGone[] = "gone";
constexpr char kNotYet[] = "not added yet";
constexpr char kInFlight[] = "in flight";
constexpr char kUnknown[] = "?";

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Every pod the trace mentions, in order of first appearance.
std::vector<std::string> MentionedPods(const Trace& trace) {
  std::vector<std::string> keys;
  for (const Step& step : trace.steps) {
    for (std::string& k : StepPodKeys(step)) {
      if (!Contains(keys, k)) keys.push_back(std::move(k));
    }
  }
  return keys;
}

bool IsKeyBoundary(char c) {
  return c == '"' || c == '[' || c == ']' || c == ',' || c == ' ' || c == '.' ||
         c == '(' || c == ')';
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

// The pods a divergence names (its paths and values), then the divergent
// step's own pod arguments; in the trace's order.
std::vector<std::string> DivergencePods(const Divergence& d, const Step& step,
                                        const std::vector<std::string>& all) {
  std::vector<std::string> texts = {d.path, d.expected, d.actual};
  for (const Difference& diff : d.differences) {
    texts.push_back(diff.path);
    texts.push_back(diff.expected);
    texts.push_back(diff.actual);
  }
  std::vector<std::string> own = StepPodKeys(step);
  std::vector<std::string> keys;
  for (const std::string& key : all) {
    bool named = Contains(own, key);
    for (const std::string& t : texts) named = named || NamesKey(t, key);
    if (named) keys.push_back(key);
  }
  return keys;
}

// The pod a step popped, as its out shows it (`popped`, `result.pod`).
std::string PoppedBy(const StepOut& out) {
  if (out.popped) return *out.popped;
  if (out.result) return out.result->pod;
  return "";
}

std::string PoppedBy(const json& out) {
  if (!out.is_object()) return "";
  auto it = out.find("popped");
  if (it != out.end() && it->is_string()) return it->get<std::string>();
  it = out.find("result");
  if (it != out.end() && it->is_object()) {
    auto pod = it->find("pod");
    if (pod != it->end() && pod->is_string()) return pod->get<std::string>();
  }
  return "";
}

// `attempts` of an out as written.
std::optional<int> AttemptsIn(const json& out) {
  if (!out.is_object()) return std::nullopt;
  auto it = out.find("attempts");
  if (it == out.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int>();
}

bool IsDelete(Op op) {
  return op == Op::kQDelete || op == Op::kPodDelete || op == Op::kCRemovePod ||
         op == Op::kCForget;
}

// One side's places across steps: what persists between snapshots (a pod
// popped by a queue-layer step stays in flight until it shows up again or
// is deleted; a pod never seen is "not added yet" rather than "gone").
class Side {
 public:
  Side(const std::vector<std::string>& pods, bool queue_layer)
      : pods_(pods), queue_layer_(queue_layer) {}

  std::map<std::string, PodPlace> After(const Step& step, const State& state,
                                        const std::string& popped,
                                        std::optional<int> attempts) {
    if (IsDelete(step.op)) {
      for (const std::string& k : StepPodKeys(step)) in_flight_.erase(k);
    }
    if (!queue_layer_) in_flight_.clear();
    if (!popped.empty()) {
      in_flight_.insert(popped);
      if (attempts) flight_attempts_[popped] = *attempts;
    }
    std::map<std::string, PodPlace> places = PlacesOf(state, pods_, in_flight_);
    for (auto& [key, place] : places) {
      if (place.where == kInFlight) {
        auto a = flight_attempts_.find(key);
        if (a != flight_attempts_.end() && !place.attempts) {
          place.attempts = a->second;
        }
        continue;
      }
      in_flight_.erase(key);
      flight_attempts_.erase(key);
      if (place.where == kGone && !seen_.contains(key)) {
        place.where = kNotYet;
      } else if (place.where != kGone && place.where != kUnknown) {
        seen_.insert(key);
      }
    }
    return places;
  }

 private:
  const std::vector<std::string>& pods_;
  bool queue_layer_;
  std::set<std::string> in_flight_;
  std::map<std::string, int> flight_attempts_;
  std::set<std::string> seen_;
};

void Pad(std::string& s, size_t width) {
  // Width in characters: count UTF-8 lead bytes only.
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  if (n < width) s.append(width - n, ' ');
}

}  // namespace

std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight) {
  std::map<std::string, PodPlace> places;
  const bool any_part = state.queue || state.nominated || state.cache ||
                        state.waiting || state.parked;
  for (const std::string& key : pods) {
    PodPlace& p = places[key];
    if (!any_part) {
      p.where = kUnknown;
      continue;
    }
    if (state.nominated) {
      for (const auto& [node, keys] : *state.nominated) {
        if (Contains(keys, key)) p.nominated = node.empty() ? "\"\"" : node;
      }
    }
    // The node whose pods list holds it, in the cache.
    std::string node;
    bool assumed = false, binding_finished = false;
    if (state.cache) {
      for (const NodeInfoState& n : state.cache->nodes) {
        if (Contains(n.pods, key)) node = n.name;
      }
      assumed = Contains(state.cache->assumed, key);
      binding_finished = Contains(state.cache->binding_finished, key);
    }
    const std::string on = node.empty() ? "" : absl::StrCat(" on ", node);
    const std::string in = node.empty() ? "" : absl::StrCat(" (", node, ")");
    if (state.queue) {
      const QueueState& q = *state.queue;
      for (size_t i = 0; i < q.active.size() && p.where.empty(); ++i) {
        if (q.active[i].pod != key) continue;
        p.where = absl::StrCat("activeQ #", i + 1);
        p.attempts = q.active[i].attempts;
      }
      for (const QueuedPod& e : q.backoff) {
        if (e.pod != key || !p.where.empty()) continue;
        p.where = absl::StrCat("backoffQ until ", e.backoff_expires_at);
        p.attempts = e.attempts;
      }
      for (const QueuedPod& e : q.unschedulable) {
        if (e.pod != key || !p.where.empty()) continue;
        p.where = "unschedulable";
        if (!e.plugins.empty()) {
          absl::StrAppend(&p.where, " [", absl::StrJoin(e.plugins, ", "), "]");
        }
        if (e.gated) absl::StrAppend(&p.where, " (gated)");
        p.attempts = e.attempts;
      }
      if (!p.where.empty()) continue;
    }
    if (state.waiting && Contains(*state.waiting, key)) {
      p.where = absl::StrCat("waiting on Permit", in);
    } else if (state.parked && Contains(*state.parked, key)) {
      p.where = absl::StrCat("parked before bind", in);
    } else if (assumed) {
      p.where = absl::StrCat("assumed", on,
                             binding_finished ? " (binding finished)" : "");
    } else if (!node.empty()) {
      p.where = absl::StrCat("bound", on);
    } else if (in_flight.contains(key)) {
      p.where = kInFlight;
    } else {
      p.where = kGone;
    }
  }
  return places;
}

std::string FormatPlace(const PodPlace& place) {
  std::string s = place.where;
  std::vector<std::string> notes;
  if (place.attempts)
    notes.push_back(absl::StrCat("attempts ", *place.attempts));
  if (!place.nominated.empty()) {
    notes.push_back(absl::StrCat("nominated ", place.nominated));
  }
  if (!notes.empty())
    absl::StrAppend(&s, " (", absl::StrJoin(notes, ", "), ")");
  return s;
}

absl::StatusOr<Timeline> ExplainTrace(System& sut, const Trace& trace,
                                      const ExplainOptions& options) {
  Timeline tl;
  tl.trace = trace.path;
  tl.description = trace.header.description;
  tl.sut = options.sut;
  tl.steps = static_cast<int>(trace.steps.size());
  auto configure = [&]() -> absl::Status {
    absl::Status s = sut.Configure(trace.header);
    if (s.ok()) return s;
    return absl::Status(
        s.code(), absl::StrCat(trace.path, ": the header: ", s.message()));
  };

  // Which pods: the given ones, else those of the first divergence (a plain
  // replay finds it), else every pod the trace mentions.
  const std::vector<std::string> mentioned = MentionedPods(trace);
  if (!options.pods.empty()) {
    tl.pods = options.pods;
    tl.pods_chosen = "given";
  } else {
    ReplayOptions replay;
    replay.reports = options.reports;
    // A header the system refuses is reported by the pass below.
    TraceResult r = Replay(sut, trace, replay);
    if (r.divergence) {
      tl.pods = DivergencePods(*r.divergence,
                               trace.steps[r.divergence->step - 1], mentioned);
      tl.pods_chosen = "named by the first divergence";
    }
    if (tl.pods.empty()) {
      tl.pods = mentioned;
      tl.pods_chosen = "every pod the trace mentions";
      if (tl.pods.size() > static_cast<size_t>(kMaxPodsFollowed)) {
        tl.pods_chosen =
            absl::StrCat("the first ", kMaxPodsFollowed, " of the ",
                         tl.pods.size(), " pods the trace mentions");
        tl.pods.resize(kMaxPodsFollowed);
      }
    }
  }

  if (absl::Status s = configure(); !s.ok()) return s;
  const bool queue_layer = trace.header.layer == Layer::kQueue;
  Side expected_side(tl.pods, queue_layer), actual_side(tl.pods, queue_layer);
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const Step& step = trace.steps[i];
    const int step_no = static_cast<int>(i) + 1;
    absl::StatusOr<StepOut> out = sut.Apply(step);
    if (!out.ok()) {
      tl.error = absl::StrCat("step ", step_no, " (line ", step.line, ", ",
                              std::string(OpName(step.op)),
                              "): ", out.status().message());
      break;
    }
    tl.steps_run = step_no;
    State state = sut.Snapshot();
    TimelineRow row;
    row.step = step_no;
    row.line = step.line;
    row.t = step.t;
    row.op = std::string(OpName(step.op));
    row.summary = StepSummary(step);
    if (!tl.divergence) {
      tl.divergence = CompareStep(step, step_no, *out, state, options.reports,
                                  nullptr, sut.OutAsSent());
      row.divergent = tl.divergence.has_value();
    }
    row.actual = actual_side.After(step, state, PoppedBy(*out), out->attempts);
    const Expect* expect = step.expect.get();
    if (expect != nullptr && expect->state) {
      row.has_expected = true;
      // The expected out says what upstream popped; without one, the
      // system's.
      absl::StatusOr<State> want = StateFromJson(*expect->state);
      const State& shown = want.ok() ? *want : State{};
      row.expected =
          expect->out
              ? expected_side.After(step, shown, PoppedBy(*expect->out),
                                    AttemptsIn(*expect->out))
              : expected_side.After(step, shown, PoppedBy(*out), out->attempts);
    }
    const bool in_range = (options.from == 0 || step_no >= options.from) &&
                          (options.to == 0 || step_no <= options.to);
    if (in_range) tl.rows.push_back(std::move(row));
    if (out->fatal) break;  // upstream exited: the trace ends here
  }
  return tl;
}

std::string ExplanationPathFor(const std::string& trace_path) {
  std::string path = trace_path;
  if (path.ends_with(".jsonl")) path.resize(path.size() - 6);
  return path + ".explain.txt";
}

std::string FormatTimeline(const Timeline& tl) {
  std::string s;
  const std::string on = tl.sut.empty() ? "" : absl::StrCat(" on ", tl.sut);
  if (tl.divergence) {
    absl::StrAppend(&s, "FAIL", on, " at step ", tl.divergence->step, " (line ",
                    tl.divergence->line, ", ", tl.divergence->op,
                    "): ", tl.trace, "\n");
  } else if (!tl.error.empty()) {
    absl::StrAppend(&s, "ERROR", on, ": ", tl.trace, "\n");
  } else {
    absl::StrAppend(&s, "PASS", on, ": ", tl.trace, " (", tl.steps_run,
                    " steps)\n");
  }
  if (!tl.description.empty()) {
    absl::StrAppend(&s, "  ", tl.description, "\n");
  }
  if (tl.divergence) {
    std::string d = tl.divergence->Format(tl.trace);
    absl::StrAppend(&s, "first divergence:\n  ");
    for (char c : d) {
      s += c;
      if (c == '\n') s += "  ";
    }
    s += "\n";
  }
  if (!tl.error.empty()) absl::StrAppend(&s, "system error: ", tl.error, "\n");
  absl::StrAppend(
      &s, "pods followed (", tl.pods_chosen,
      "): ", tl.pods.empty() ? "none" : absl::StrJoin(tl.pods, ", "), "\n");
  if (tl.rows.empty()) return s;

  size_t key_width = 0;
  for (const std::string& p : tl.pods)
    key_width = std::max(key_width, p.size());

  // Each row's lines: the pods whose place changed on either side since the
  // previous row shown (every pod on the first row and the divergent one).
  struct Line {
    std::string pod, expected, actual;
    bool differs = false;
  };
  std::vector<std::vector<Line>> lines(tl.rows.size());
  size_t expected_width = 0;
  const std::map<std::string, PodPlace>* prev_expected = nullptr;
  const std::map<std::string, PodPlace>* prev_actual = nullptr;
  for (size_t r = 0; r < tl.rows.size(); ++r) {
    const TimelineRow& row = tl.rows[r];
    for (const std::string& pod : tl.pods) {
      auto a = row.actual.find(pod);
      auto e = row.expected.find(pod);
      const PodPlace* act = a == row.actual.end() ? nullptr : &a->second;
      const PodPlace* exp = e == row.expected.end() ? nullptr : &e->second;
      auto changed = [&pod](const PodPlace* now,
                            const std::map<std::string, PodPlace>* before) {
        if (now == nullptr) return false;
        if (before == nullptr) return true;
        auto it = before->find(pod);
        return it == before->end() || !(it->second == *now);
      };
      bool show = r == 0 || row.divergent || changed(act, prev_actual) ||
                  (row.has_expected && changed(exp, prev_expected));
      if (!show) continue;
      Line line;
      line.pod = pod;
      line.expected =
          row.has_expected && exp != nullptr ? FormatPlace(*exp) : "-";
      line.actual = act != nullptr ? FormatPlace(*act) : "-";
      line.differs = row.has_expected && exp != nullptr && act != nullptr &&
                     !(*exp == *act);
      expected_width = std::max(expected_width, line.expected.size());
      lines[r].push_back(std::move(line));
    }
    prev_actual = &row.actual;
    if (row.has_expected) prev_expected = &row.expected;
  }
  expected_width = std::min<size_t>(expected_width, 48);

  s += "\n";
  for (size_t r = 0; r < tl.rows.size();) {
    if (lines[r].empty()) {
      size_t end = r;
      while (end + 1 < tl.rows.size() && lines[end + 1].empty()) ++end;
      if (end == r) {
        absl::StrAppend(&s, "step ", tl.rows[r].step,
                        ": no change for these pods\n");
      } else {
        absl::StrAppend(&s, "steps ", tl.rows[r].step, "-", tl.rows[end].step,
                        ": no change for these pods\n");
      }
      r = end + 1;
      continue;
    }
    const TimelineRow& row = tl.rows[r];
    absl::StrAppend(&s, row.divergent ? ">>> " : "", "step ", row.step,
                    "  t=", row.t, "  ", row.summary,
                    row.divergent ? "   <<< first divergence" : "", "\n");
    for (const Line& line : lines[r]) {
      std::string pod = line.pod, expected = line.expected;
      Pad(pod, key_width);
      Pad(expected, expected_width);
      absl::StrAppend(&s, "  ", pod, "  expected: ", expected,
                      line.differs ? "  ≠  " : "     ", "actual: ", line.actual,
                      "\n");
    }
    ++r;
  }
  if (tl.steps_run < tl.steps) {
    absl::StrAppend(&s, "(the trace ended after step ", tl.steps_run, " of ",
                    tl.steps, !tl.error.empty() ? ": the system failed" : "",
                    ")\n");
  }
  return s;
}

}  // namespace schedtrace
