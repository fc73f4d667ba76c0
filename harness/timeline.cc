#include "harness/timeline.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/json_codec.h"
#include "harness/op_table.h"
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

// The string at `o[key]`, "" when `o` is no object or holds none there.
std::string StringAt(const json& o, const char* key) {
  if (!o.is_object()) return "";
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

// The pods an out names: popped, the cycle's pod, bindings, status updates,
// events.
void PodsOfOut(const json& out, std::vector<std::string>& keys) {
  if (!out.is_object()) return;
  AddOnce(keys, StringAt(out, "popped"));
  if (auto it = out.find("result"); it != out.end()) {
    AddOnce(keys, StringAt(*it, "pod"));
  }
  for (const char* list : {"bindings", "statusUpdates", "events"}) {
    auto it = out.find(list);
    if (it == out.end() || !it->is_array()) continue;
    for (const json& e : *it) AddOnce(keys, StringAt(e, "pod"));
  }
}

// What a step's out says about `pod`, in a few words ("cycle: scheduled on
// n1, status Unschedulable"); `own` are the step's pod arguments, to which
// an `error` or `fatal` of the step belongs.
std::string OutFacts(const json& out, const std::string& pod,
                     const std::vector<std::string>& own) {
  if (!out.is_object()) return "";
  std::vector<std::string> facts;
  const auto result = out.find("result");
  const bool cycle = result != out.end() && StringAt(*result, "pod") == pod;
  if (StringAt(out, "popped") == pod && !cycle) facts.push_back("popped");
  if (cycle) {
    std::string s = absl::StrCat("cycle: ", StringAt(*result, "outcome"));
    if (std::string node = StringAt(*result, "node"); !node.empty()) {
      absl::StrAppend(&s, " on ", node);
    }
    if (auto p = result->find("plugins"); p != result->end() && p->is_array()) {
      std::vector<std::string> plugins;
      for (const json& e : *p) {
        plugins.push_back(e.is_string() ? e.get<std::string>() : e.dump());
      }
      absl::StrAppend(&s, " [", absl::StrJoin(plugins, ", "), "]");
    }
    facts.push_back(std::move(s));
  }
  auto each = [&](const char* list, auto fact) {
    auto it = out.find(list);
    if (it == out.end() || !it->is_array()) return;
    for (const json& e : *it) {
      if (StringAt(e, "pod") == pod) facts.push_back(fact(e));
    }
  };
  each("bindings", [&](const json& e) {
    return absl::StrCat("bound to ", StringAt(e, "node"));
  });
  each("statusUpdates", [&](const json& e) {
    std::string s = absl::StrCat("status ", StringAt(e, "reason"));
    if (std::string n = StringAt(e, "nominatedNodeName"); !n.empty()) {
      absl::StrAppend(&s, " (nominated ", n, ")");
    }
    return s;
  });
  each("events", [&](const json& e) {
    return absl::StrCat("event ", StringAt(e, "reason"));
  });
  if (Contains(own, pod)) {
    for (const char* flag : {"error", "fatal"}) {
      auto it = out.find(flag);
      if (it != out.end() && *it == true) facts.push_back(flag);
    }
  }
  return absl::StrJoin(facts, ", ");
}

// The pod a step's out popped (`popped`, else `result.pod`), "" for none.
std::string PoppedBy(const json& out) {
  std::string popped = StringAt(out, "popped");
  if (popped.empty() && out.is_object() && out.contains("result")) {
    popped = StringAt(out["result"], "pod");
  }
  return popped;
}

// `attempts` of an out as written.
std::optional<int> AttemptsIn(const json& out) {
  if (!out.is_object()) return std::nullopt;
  auto it = out.find("attempts");
  if (it == out.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int>();
}

// Ops after which a pod they carry is gone (the op table's kRemoves).
bool IsDelete(Op op) {
  const OpSpec& spec = SpecOf(op);
  return spec.effect == Effect::kRemoves && spec.HasKind(ArgKind::kPodObject);
}

// Ops after which a pod they carry exists again (a deleted one re-added):
// the op table's kPuts.
bool AddsOrUpdates(Op op) {
  const OpSpec& spec = SpecOf(op);
  return spec.effect == Effect::kPuts && spec.HasKind(ArgKind::kPodObject);
}

// How a reader calls the state keys that place a pod.
std::string KeyName(const std::string& key) {
  if (key == "queue.active") return "activeQ";
  if (key == "queue.backoff") return "backoffQ";
  if (key == "queue.unschedulable") return "unschedulablePods";
  if (key == "cache.nodes") return "cache nodes";
  if (key == "cache.assumed") return "assumed pods";
  if (key == "waiting") return "waiting";
  if (key == "parked") return "parked";
  return key;
}

// The keys that hold a pod somewhere (nominations and bindingFinished only
// qualify a place).
constexpr const char* kHoldingKeys[] = {
    "queue.active", "queue.backoff", "queue.unschedulable",
    "cache.nodes",  "cache.assumed", "waiting",
    "parked"};

bool PartOf(const State& state, const std::string& key) {
  if (key.rfind("queue.", 0) == 0) return state.queue.has_value();
  if (key.rfind("cache.", 0) == 0) return state.cache.has_value();
  if (key == "nominated") return state.nominated.has_value();
  if (key == "waiting") return state.waiting.has_value();
  if (key == "parked") return state.parked.has_value();
  return false;
}

// The place keys of `layer` that a state does not show: its part is absent,
// or `reports` leaves it out.
std::vector<std::string> UnshownIn(const State& state, Layer layer,
                                   const ReportsState& reports) {
  std::vector<std::string> unshown;
  for (const std::string& key : PlaceKeys(layer)) {
    if (!PartOf(state, key) || (reports && !reports(key))) {
      unshown.push_back(key);
    }
  }
  return unshown;
}

// The same for an `expect.state`: keys it leaves out (a part absent, or a
// key of queue or cache absent from it).
std::vector<std::string> UnshownIn(const json& expected, Layer layer) {
  std::vector<std::string> unshown;
  for (const std::string& key : PlaceKeys(layer)) {
    const size_t dot = key.find('.');
    const std::string part = key.substr(0, dot);
    bool shown = expected.is_object() && expected.contains(part);
    if (shown && dot != std::string::npos) {
      const json& p = expected[part];
      shown = p.is_object() && p.contains(key.substr(dot + 1));
    }
    if (!shown) unshown.push_back(key);
  }
  return unshown;
}

std::vector<std::string> Union(std::vector<std::string> a,
                               const std::vector<std::string>& b) {
  for (const std::string& s : b) AddOnce(a, s);
  return a;
}

// Whether two places are the same place (their outs aside).
bool SamePlace(const PodPlace& a, const PodPlace& b) {
  return a.where == b.where && a.attempts == b.attempts &&
         a.nominated == b.nominated && a.note == b.note;
}

// Since which step each pod has been where it is on one side.
class Since {
 public:
  std::map<std::string, int> After(
      int step_no, const std::map<std::string, PodPlace>& places) {
    std::map<std::string, int> since;
    for (const auto& [pod, place] : places) {
      auto it = last_.find(pod);
      if (it == last_.end() || !SamePlace(it->second.first, place)) {
        last_[pod] = {place, step_no};
      }
      since[pod] = last_[pod].second;
    }
    return since;
  }

 private:
  std::map<std::string, std::pair<PodPlace, int>> last_;
};

// One side's places across steps: what persists between snapshots (a pod
// popped in the queue layer stays in flight until it shows up again or is
// deleted; a pod no step named yet is "not added yet" rather than "gone"; a
// pod deleted stays "deleted at step N").
class Side {
 public:
  Side(const std::vector<std::string>& pods, bool queue_layer)
      : pods_(pods), queue_layer_(queue_layer) {}

  // Records step `step_no` (what it names, what it popped), then, when
  // `state` is given, places the pods in it.
  std::map<std::string, PodPlace> After(
      int step_no, const Step& step, const std::string& popped,
      std::optional<int> attempts, const State* state,
      const std::vector<std::string>& unshown) {
    for (const std::string& k : StepPodKeys(step)) {
      named_.insert(k);
      if (IsDelete(step.op)) {
        deleted_at_[k] = step_no;
        in_flight_.erase(k);
        popped_at_.erase(k);
      } else if (AddsOrUpdates(step.op)) {
        deleted_at_.erase(k);
      }
    }
    if (!popped.empty()) {
      named_.insert(popped);
      popped_at_[popped] = step_no;
      if (queue_layer_) in_flight_.insert(popped);
      if (attempts) flight_attempts_[popped] = *attempts;
    }
    if (state == nullptr) return {};
    std::map<std::string, PodPlace> places =
        PlacesOf(*state, pods_, in_flight_, unshown);
    for (auto& [key, place] : places) {
      auto deleted = deleted_at_.find(key);
      auto popped_at = popped_at_.find(key);
      if (place.where == kInFlight) {
        auto a = flight_attempts_.find(key);
        if (a != flight_attempts_.end() && !place.attempts) {
          place.attempts = a->second;
        }
        if (popped_at != popped_at_.end()) {
          place.note = absl::StrCat("popped at step ", popped_at->second);
        }
        continue;
      }
      if (!place.places.empty()) {
        seen_.insert(key);
        in_flight_.erase(key);
        flight_attempts_.erase(key);
        popped_at_.erase(key);
        if (deleted != deleted_at_.end()) {
          place.note = absl::StrCat("deleted at step ", deleted->second);
        }
        continue;
      }
      if (place.where != kGone) {  // "?", "not in ...": the side cannot say
        if (deleted != deleted_at_.end()) {
          place.note = absl::StrCat("deleted at step ", deleted->second);
        }
        continue;
      }
      if (deleted != deleted_at_.end()) {
        place.where = absl::StrCat("deleted at step ", deleted->second);
      } else if (popped_at != popped_at_.end()) {
        place.where = "in no queue";
        place.note = absl::StrCat("popped at step ", popped_at->second);
      } else if (!named_.contains(key)) {
        place.where = kNotYet;
      } else if (!seen_.contains(key)) {
        place.where = "not in the state";
      }
    }
    return places;
  }

 private:
  const std::vector<std::string>& pods_;
  bool queue_layer_;
  std::set<std::string> named_, seen_, in_flight_;
  std::map<std::string, int> flight_attempts_, popped_at_, deleted_at_;
};

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

// What the first pass finds: the first failure and the pods it involves.
struct FirstFailure {
  std::vector<std::string> pods;
  std::string why;  // "the first divergence", ...
};

}  // namespace

std::vector<std::string> PlaceKeys(Layer layer) {
  switch (layer) {
    case Layer::kQueue:
      return {"queue.active", "queue.backoff", "queue.unschedulable",
              "nominated"};
    case Layer::kCache:
      return {"cache.nodes", "cache.assumed", "cache.bindingFinished"};
    case Layer::kScheduler:
      return {
          "queue.active", "queue.backoff", "queue.unschedulable",   "nominated",
          "cache.nodes",  "cache.assumed", "cache.bindingFinished", "waiting",
          "parked"};
  }
  return {};
}

std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight) {
  return PlacesOf(state, pods, in_flight, {});
}

std::map<std::string, PodPlace> PlacesOf(
    const State& state, const std::vector<std::string>& pods,
    const std::set<std::string>& in_flight,
    const std::vector<std::string>& unshown) {
  auto shown = [&](const char* key) {
    return PartOf(state, key) && !Contains(unshown, key);
  };
  std::vector<std::string> shown_holding, unshown_holding;
  for (const char* key : kHoldingKeys) {
    if (shown(key)) {
      shown_holding.push_back(KeyName(key));
    } else if (PartOf(state, key) || Contains(unshown, key)) {
      unshown_holding.push_back(KeyName(key));
    }
  }
  std::map<std::string, PodPlace> places;
  for (const std::string& key : pods) {
    PodPlace& p = places[key];
    if (shown_holding.empty()) {
      p.where = kUnknown;
      continue;
    }
    if (shown("nominated")) {
      for (const auto& [node, keys] : *state.nominated) {
        if (!Contains(keys, key)) continue;
        const std::string name = node.empty() ? "\"\"" : node;
        p.nominated =
            p.nominated.empty() ? name : absl::StrCat(p.nominated, " + ", name);
      }
    }
    // The queues: every entry of the pod, with its attempts.
    std::vector<std::pair<std::string, int>> entries;
    if (shown("queue.active")) {
      const std::vector<QueuedPod>& active = state.queue->active;
      for (size_t i = 0; i < active.size(); ++i) {
        if (active[i].pod != key) continue;
        entries.emplace_back(absl::StrCat("activeQ #", i + 1),
                             active[i].attempts);
      }
    }
    if (shown("queue.backoff")) {
      for (const QueuedPod& e : state.queue->backoff) {
        if (e.pod != key) continue;
        entries.emplace_back(
            absl::StrCat("backoffQ until ", e.backoff_expires_at), e.attempts);
      }
    }
    if (shown("queue.unschedulable")) {
      for (const QueuedPod& e : state.queue->unschedulable) {
        if (e.pod != key) continue;
        std::string where = "unschedulable";
        if (!e.plugins.empty()) {
          absl::StrAppend(&where, " [", absl::StrJoin(e.plugins, ", "), "]");
        }
        if (e.gated) absl::StrAppend(&where, " (gated)");
        entries.emplace_back(std::move(where), e.attempts);
      }
    }
    bool same_attempts = true;
    for (const auto& [where, attempts] : entries) {
      same_attempts = same_attempts && attempts == entries[0].second;
    }
    for (const auto& [where, attempts] : entries) {
      p.places.push_back(
          same_attempts ? where
                        : absl::StrCat(where, " (attempts ", attempts, ")"));
    }
    if (!entries.empty() && same_attempts) p.attempts = entries[0].second;

    // The cache: every node counting it, whether it is assumed and its
    // binding finished.
    struct OnNode {
      std::string name;
      bool present;
      int times;  // how often its pods list holds the pod (once, normally)
    };
    std::vector<OnNode> nodes;
    if (shown("cache.nodes")) {
      for (const NodeInfoState& n : state.cache->nodes) {
        const auto times = std::count(n.pods.begin(), n.pods.end(), key);
        if (times > 0) {
          nodes.push_back({n.name, n.present, static_cast<int>(times)});
        }
      }
    }
    const bool assumed_shown = shown("cache.assumed");
    const bool assumed = assumed_shown && Contains(state.cache->assumed, key);
    const bool finished = shown("cache.bindingFinished") &&
                          Contains(state.cache->binding_finished, key);
    const bool waiting = shown("waiting") && Contains(*state.waiting, key);
    const bool parked = shown("parked") && Contains(*state.parked, key);
    // A pod waiting or parked is normally assumed on one node, its binding
    // not finished: "waiting on Permit (n1)" says all of it. Anything else
    // is shown place by place.
    const bool absorbed = (waiting || parked) && assumed && !finished &&
                          nodes.size() == 1 && nodes[0].present &&
                          nodes[0].times == 1;
    const std::string in =
        absorbed ? absl::StrCat(" (", nodes[0].name, ")") : "";
    if (waiting) p.places.push_back(absl::StrCat("waiting on Permit", in));
    if (parked) p.places.push_back(absl::StrCat("parked before bind", in));
    if (!absorbed) {
      for (const OnNode& n : nodes) {
        std::string where = absl::StrCat(assumed         ? "assumed on "
                                         : assumed_shown ? "bound on "
                                                         : "on ",
                                         n.name);
        if (assumed && finished) absl::StrAppend(&where, " (binding finished)");
        if (!n.present) absl::StrAppend(&where, " (node deleted)");
        if (n.times > 1)
          absl::StrAppend(&where, " (counted ", n.times, " times)");
        p.places.push_back(std::move(where));
      }
      if (nodes.empty() && assumed) {
        p.places.push_back(shown("cache.nodes") ? "assumed (on no node)"
                                                : "assumed");
      }
      if (finished && !assumed) p.places.push_back("binding finished");
    }

    if (!p.places.empty()) {
      p.where = absl::StrJoin(p.places, " + ");
    } else if (!unshown_holding.empty()) {
      p.where =
          absl::StrCat("not in ", absl::StrJoin(shown_holding, ", "), " (",
                       absl::StrJoin(unshown_holding, ", "), " not shown)");
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
  if (place.attempts) {
    notes.push_back(absl::StrCat("attempts ", *place.attempts));
  }
  if (!place.nominated.empty()) {
    notes.push_back(absl::StrCat("nominated ", place.nominated));
  }
  if (!place.note.empty()) notes.push_back(place.note);
  if (!notes.empty()) {
    absl::StrAppend(&s, " (", absl::StrJoin(notes, ", "), ")");
  }
  if (!place.out.empty()) absl::StrAppend(&s, "; out: ", place.out);
  return s;
}

namespace {

// One replay of the trace: the places of `pods` after every step (when
// `record`), and the first failure, as the replayer decides it (the first
// divergence, else the first property violation, else the system's error).
absl::StatusOr<Timeline> Walk(System& sut, const Trace& trace,
                              const ExplainOptions& options,
                              const std::vector<std::string>& pods,
                              bool record) {
  Timeline tl;
  tl.trace = trace.path;
  tl.description = trace.header.description;
  tl.sut = options.sut;
  tl.steps = static_cast<int>(trace.steps.size());
  tl.layer = trace.header.layer;
  tl.from = options.from;
  tl.to = options.to;
  tl.pods = pods;
  if (absl::Status s = sut.Configure(trace.header); !s.ok()) {
    return absl::Status(
        s.code(), absl::StrCat(trace.path, ": the header: ", s.message()));
  }
  const Layer layer = trace.header.layer;
  const bool queue_layer = layer == Layer::kQueue;
  // Displayed sides, and the sides compared (on what both show).
  Side expected_shown(tl.pods, queue_layer), actual_shown(tl.pods, queue_layer);
  Side expected_cmp(tl.pods, queue_layer), actual_cmp(tl.pods, queue_layer);
  Since expected_since, actual_since;
  StepCheck check =
      options.make_check ? options.make_check(trace.header) : StepCheck();
  State before;
  if (check) before = sut.Snapshot();
  std::vector<std::string> unreported;  // place keys the system leaves out
  bool failed = false;
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const Step& step = trace.steps[i];
    const int step_no = static_cast<int>(i) + 1;
    const std::vector<std::string> own = StepPodKeys(step);
    const Expect* expect = step.expect.get();
    const bool has_state = expect != nullptr && expect->state.has_value();
    const bool has_out = expect != nullptr && expect->out.has_value();
    TimelineRow row;
    row.step = step_no;
    row.line = step.line;
    row.t = step.t;
    row.op = std::string(OpName(step.op));
    row.summary = WithScriptedAnswers(step, StepSummary(step));
    row.has_expected = has_state;
    if (has_out) row.expected_out = expect->out->dump();
    const bool in_range = (options.from == 0 || step_no >= options.from) &&
                          (options.to == 0 || step_no <= options.to);
    if (i == 0 && options.reports) {
      for (const std::string& key : PlaceKeys(layer)) {
        if (!options.reports(key)) unreported.push_back(key);
      }
    }

    // The expected side: the trace's state; the pod its out popped.
    std::optional<State> want;
    std::vector<std::string> expected_unshown = PlaceKeys(layer);
    if (has_state) {
      absl::StatusOr<State> decoded = StateFromJson(*expect->state);
      if (decoded.ok()) {
        want = *std::move(decoded);
        expected_unshown = UnshownIn(*expect->state, layer);
      } else {
        want = State{};
      }
    }

    absl::StatusOr<StepOut> out = sut.Apply(step);
    if (!out.ok()) {
      tl.error = absl::StrCat("step ", step_no, " (line ", step.line, ", ",
                              row.op, "): ", out.status().message());
      tl.error_step = step_no;
      if (record && in_range) {
        row.has_actual = false;
        row.error = std::string(out.status().message());
        const json expected_out = has_out ? *expect->out : json();
        row.expected = expected_shown.After(
            step_no, step, PoppedBy(expected_out), AttemptsIn(expected_out),
            want ? &*want : nullptr, expected_unshown);
        for (auto& [pod, place] : row.expected) {
          if (has_out) place.out = OutFacts(*expect->out, pod, own);
        }
        row.expected_since = expected_since.After(step_no, row.expected);
        tl.rows.push_back(std::move(row));
      }
      break;
    }
    tl.steps_run = step_no;
    State state = sut.Snapshot();
    json actual_out = OutToJson(*out);
    if (std::optional<std::string_view> sent = sut.OutAsSent()) {
      json parsed = json::parse(sent->begin(), sent->end(), nullptr, false);
      if (!parsed.is_discarded()) actual_out = std::move(parsed);
    }
    row.actual_out = actual_out.dump();
    row.out_differs = has_out && *expect->out != actual_out;

    if (!failed) {
      std::optional<Divergence> d =
          CompareStep(step, step_no, *out, state, options.reports, nullptr,
                      sut.OutAsSent(), sut.StateAsSent());
      if (d) {
        AddTraceContext(*d, trace, i);
        tl.divergence = std::move(d);
        row.divergent = true;
        failed = true;
      } else if (check) {
        std::string violation = check(before, step, *out, state);
        if (!violation.empty()) {
          tl.violation = violation;
          tl.violation_step = step_no;
          row.violation = std::move(violation);
          failed = true;
        }
        before = state;
      }
      if (failed && !record) {
        tl.rows.push_back(std::move(row));  // its out names the pods
        break;
      }
    }

    if (record) {
      // What the expected side popped: its out's, else the system's.
      const json& exp_out = has_out ? *expect->out : actual_out;
      const std::string exp_popped = PoppedBy(exp_out);
      const std::optional<int> exp_attempts = AttemptsIn(exp_out);
      const std::string act_popped = PoppedBy(actual_out);
      const std::optional<int> act_attempts = AttemptsIn(actual_out);
      const std::vector<std::string> actual_unshown =
          UnshownIn(state, layer, options.reports);
      const std::vector<std::string> cmp_unshown =
          Union(expected_unshown, unreported);
      const State* w = want ? &*want : nullptr;
      row.expected = expected_shown.After(step_no, step, exp_popped,
                                          exp_attempts, w, expected_unshown);
      row.actual = actual_shown.After(step_no, step, act_popped, act_attempts,
                                      &state, actual_unshown);
      std::map<std::string, PodPlace> e_cmp = expected_cmp.After(
          step_no, step, exp_popped, exp_attempts, w, cmp_unshown);
      std::map<std::string, PodPlace> a_cmp = actual_cmp.After(
          step_no, step, act_popped, act_attempts, &state, cmp_unshown);
      for (const std::string& pod : tl.pods) {
        std::string e_out = has_out ? OutFacts(*expect->out, pod, own) : "";
        std::string a_out = OutFacts(actual_out, pod, own);
        if (has_state) row.expected[pod].out = e_out;
        row.actual[pod].out = a_out;
        bool differs = has_out && e_out != a_out;
        if (has_state) {
          PodPlace e = e_cmp[pod], a = a_cmp[pod];
          e.out = a.out = "";
          differs = differs || !(e == a);
        }
        if (differs) row.differing.push_back(pod);
      }
      if (has_state) {
        row.expected_since = expected_since.After(step_no, row.expected);
      }
      row.actual_since = actual_since.After(step_no, row.actual);
      if (in_range) tl.rows.push_back(std::move(row));
    }
    if (out->fatal) break;  // upstream exited: the trace ends here
  }
  return tl;
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

namespace {

const PodPlace* Find(const std::map<std::string, PodPlace>& places,
                     const std::string& pod) {
  auto it = places.find(pod);
  return it == places.end() ? nullptr : &it->second;
}

// The pod is not there yet on any side that shows it.
bool NotYet(const PodPlace* expected, const PodPlace* actual) {
  return (expected == nullptr || expected->where == kNotYet) &&
         (actual == nullptr || actual->where == kNotYet);
}

class Formatter {
 public:
  explicit Formatter(const Timeline& tl) : tl_(tl) {
    size_t width = 0;
    for (const std::string& p : tl.pods) width = std::max(width, p.size());
    width_ = width;
    for (const TimelineRow& row : tl.rows) any_expected_ |= row.has_expected;
  }

  // The lines of row `r`: the pods it changed, differing or with an out;
  // `full` (the first row shown after a gap, a failing row): every pod
  // already added.
  std::vector<std::string> Lines(size_t r, bool full) const {
    const TimelineRow& row = tl_.rows[r];
    const TimelineRow* prev = r > 0 ? &tl_.rows[r - 1] : nullptr;
    const TimelineRow* prev_expected = nullptr;
    for (size_t k = r; k-- > 0;) {
      if (tl_.rows[k].has_expected) {
        prev_expected = &tl_.rows[k];
        break;
      }
    }
    std::vector<std::string> lines;
    bool out_shown = false;  // a pod line shows the out's difference
    for (const std::string& pod : tl_.pods) {
      const PodPlace* e = row.has_expected ? Find(row.expected, pod) : nullptr;
      const PodPlace* a = row.has_actual ? Find(row.actual, pod) : nullptr;
      const bool differs = Contains(row.differing, pod);
      auto changed = [&pod](const PodPlace* now, const TimelineRow* before,
                            bool expected_side) {
        if (now == nullptr) return false;
        if (before == nullptr) return true;
        const PodPlace* then =
            Find(expected_side ? before->expected : before->actual, pod);
        return then == nullptr || !SamePlace(*then, *now);
      };
      const bool still_differs =
          differs && prev != nullptr && Contains(prev->differing, pod) &&
          !changed(e, prev_expected, true) && !changed(a, prev, false);
      const bool show = (differs && (!still_differs || full)) ||
                        (e != nullptr && !e->out.empty()) ||
                        (a != nullptr && !a->out.empty()) ||
                        ((full || changed(e, prev_expected, true) ||
                          changed(a, prev, false)) &&
                         !NotYet(e, a));
      if (!show) continue;
      out_shown = out_shown ||
                  (differs && e != nullptr && a != nullptr && e->out != a->out);
      const bool stayed = full || RowFails(row);
      auto text = [&](const PodPlace& p,
                      const std::map<std::string, int>& since) {
        std::string s = FormatPlace(p);
        auto it = since.find(pod);
        if (stayed && it != since.end() && it->second < row.step) {
          absl::StrAppend(&s, "  [since step ", it->second, "]");
        }
        return s;
      };
      std::string key = pod;
      key.resize(width_, ' ');
      if (e != nullptr && a != nullptr) {
        const std::string et = text(*e, row.expected_since);
        const std::string at = text(*a, row.actual_since);
        if (et == at && !differs) {
          lines.push_back(absl::StrCat("  ", key, "  ", at));
        } else {
          lines.push_back(absl::StrCat("  ", key, "  expected: ", et));
          lines.push_back(absl::StrCat("  ", std::string(width_, ' '),
                                       differs ? "≠ " : "  ",
                                       "actual:   ", at));
        }
      } else if (a != nullptr) {
        lines.push_back(
            absl::StrCat("  ", key, "  ", text(*a, row.actual_since)));
      } else if (e != nullptr) {
        lines.push_back(absl::StrCat(
            "  ", key, "  expected: ", text(*e, row.expected_since)));
      }
    }
    if (row.divergent && row.differing.empty() && !row.out_differs &&
        tl_.divergence) {
      lines.push_back(absl::StrCat(
          "  (no followed pod's place differs here: the divergence is in ",
          tl_.divergence->differences.empty()
              ? tl_.divergence->path
              : tl_.divergence->differences.front().path,
          ", above)"));
    }
    if (row.out_differs && !out_shown) {
      std::string key = "out";
      key.resize(width_, ' ');
      lines.push_back(
          absl::StrCat("  ", key, "  expected: ", row.expected_out));
      lines.push_back(absl::StrCat("  ", std::string(width_, ' '),
                                   "≠ actual:   ", row.actual_out));
    }
    return lines;
  }

  std::string Header(const TimelineRow& row) const {
    std::string s = absl::StrCat(RowFails(row) ? ">>> " : "", "step ", row.step,
                                 "  t=", row.t, "  ", row.summary);
    if (row.divergent) absl::StrAppend(&s, "   <<< first divergence");
    if (!row.violation.empty()) {
      absl::StrAppend(&s, "   <<< property violated");
    }
    if (!row.error.empty()) {
      absl::StrAppend(&s, "   <<< the system failed (system error above)");
    }
    if (row.expected_out.find("\"fatal\":true") != std::string::npos) {
      absl::StrAppend(&s, "   (upstream exits here: fatal)");
    }
    if (!row.has_expected && row.has_actual && any_expected_) {
      absl::StrAppend(&s, "   (no expected state: actual only)");
    }
    return s;
  }

 private:
  const Timeline& tl_;
  size_t width_ = 0;
  bool any_expected_ = false;  // some step carries expect.state
};

// `text` in lines of at most `width` characters (a longer word alone on
// its line), each after `indent`.
std::string Wrapped(const std::string& text, const std::string& indent,
                    size_t width) {
  std::string out, line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      absl::StrAppend(&out, indent, line, "\n");
      line.clear();
    }
    absl::StrAppend(&line, line.empty() ? "" : " ", std::string(word));
  }
  if (!line.empty()) absl::StrAppend(&out, indent, line, "\n");
  return out;
}

}  // namespace

bool RowFails(const TimelineRow& row) {
  return row.divergent || !row.violation.empty() || !row.error.empty();
}

RowWindow DefaultRowWindow(const Timeline& tl,
                           const std::function<bool(size_t)>& eventful) {
  const size_t n = tl.rows.size();
  RowWindow w{std::vector<bool>(n, true), n};
  if (n == 0 || tl.from != 0 || tl.to != 0) return w;
  size_t focus = n - 1;
  bool failing = false;
  for (size_t r = 0; r < n; ++r) {
    if (RowFails(tl.rows[r])) {
      focus = r;
      failing = true;
      break;
    }
  }
  w.end = std::min(n, focus + 1 + (failing ? kStepsAfter : 0));
  std::vector<size_t> moving;  // rows before the focus that move a pod
  for (size_t r = 0; r < focus; ++r) {
    if (eventful(r)) moving.push_back(r);
  }
  if (moving.size() > static_cast<size_t>(kHeadSteps + kTailSteps)) {
    const size_t first_cut = moving[kHeadSteps - 1] + 1;
    const size_t last_cut = moving[moving.size() - kTailSteps] - 1;
    for (size_t r = first_cut; r <= last_cut; ++r) w.shown[r] = false;
  }
  for (size_t r = w.end; r < n; ++r) w.shown[r] = false;
  return w;
}

std::string StepRange(int a, int b) {
  return a == b ? absl::StrCat("step ", a) : absl::StrCat("steps ", a, "-", b);
}

std::string FormatTimeline(const Timeline& tl, const TimelineFormat& format) {
  std::string s;
  const std::string on = tl.sut.empty() ? "" : absl::StrCat(" on ", tl.sut);
  auto at = [&tl](int step_no) {
    for (const TimelineRow& row : tl.rows) {
      if (row.step == step_no) {
        return absl::StrCat(" at step ", step_no, " (line ", row.line, ", ",
                            row.op, ")");
      }
    }
    return absl::StrCat(" at step ", step_no);
  };
  if (tl.divergence) {
    absl::StrAppend(&s, "FAIL", on, " at step ", tl.divergence->step, " (line ",
                    tl.divergence->line, ", ", tl.divergence->op,
                    "): ", tl.trace, "\n");
  } else if (tl.violation_step > 0) {
    absl::StrAppend(&s, "FAIL", on, at(tl.violation_step), ": ", tl.trace,
                    "\n");
  } else if (!tl.error.empty()) {
    absl::StrAppend(&s, "ERROR", on, at(tl.error_step), ": ", tl.trace, "\n");
  } else {
    absl::StrAppend(&s, "PASS", on, ": ", tl.trace, " (", tl.steps_run,
                    " steps)\n");
  }
  // A divergence shows the description itself.
  if (!tl.description.empty() && !tl.divergence) {
    absl::StrAppend(&s, Wrapped(tl.description, "  ", 80));
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
  if (tl.violation_step > 0) {
    absl::StrAppend(&s, "property violated at step ", tl.violation_step, ": ",
                    tl.violation, "\n");
  }
  if (!tl.error.empty()) absl::StrAppend(&s, "system error: ", tl.error, "\n");
  absl::StrAppend(
      &s, "pods followed (", tl.pods_chosen,
      "): ", tl.pods.empty() ? "none" : absl::StrJoin(tl.pods, ", "), "\n");
  if (tl.rows.empty()) return s;
  absl::StrAppend(
      &s, Wrapped("Each step lists the pods it moved or named: one line where "
                  "the trace (expected) and the system (actual) agree, "
                  "expected:/actual: lines where not, ≠ where the replay sees "
                  "them differ.",
                  "", 80));

  Formatter f(tl);
  if (std::none_of(tl.rows.begin(), tl.rows.end(),
                   [](const TimelineRow& row) { return row.has_expected; })) {
    absl::StrAppend(&s,
                    "The trace carries no expected state: the actual side "
                    "only.\n");
  }
  const size_t n = tl.rows.size();
  // Which rows are shown: all, or up to the failure and a few after it,
  // the middle of a long run before it left out.
  RowWindow window{std::vector<bool>(n, true), n};
  if (!format.all) {
    window = DefaultRowWindow(
        tl, [&f](size_t r) { return !f.Lines(r, r == 0).empty(); });
  }
  const std::vector<bool>& shown = window.shown;
  const size_t end = window.end;

  s += "\n";
  for (size_t r = 0; r < n;) {
    if (!shown[r]) {
      size_t last = r;
      while (last + 1 < n && !shown[last + 1]) ++last;
      const int a = tl.rows[r].step, b = tl.rows[last].step;
      if (r >= end) {
        absl::StrAppend(&s, "... ", StepRange(a, b), " not shown: --from=", a,
                        " shows them, --all every "
                        "step\n");
      } else {
        int changing = 0;
        for (size_t k = r; k <= last; ++k) {
          changing += !f.Lines(k, false).empty();
        }
        absl::StrAppend(&s, "... ", StepRange(a, b), " not shown (", changing,
                        " of them move these pods): --from=", a, " --to=", b,
                        " shows them, --all every step\n");
      }
      r = last + 1;
      continue;
    }
    const bool full = r == 0 || !shown[r - 1];
    std::vector<std::string> lines = f.Lines(r, full || RowFails(tl.rows[r]));
    if (lines.empty() && !RowFails(tl.rows[r])) {
      size_t last = r;
      while (last + 1 < n && shown[last + 1] && !RowFails(tl.rows[last + 1]) &&
             f.Lines(last + 1, false).empty()) {
        ++last;
      }
      absl::StrAppend(&s, StepRange(tl.rows[r].step, tl.rows[last].step),
                      ": no change for these pods\n");
      r = last + 1;
      continue;
    }
    absl::StrAppend(&s, f.Header(tl.rows[r]), "\n");
    for (const std::string& line : lines) absl::StrAppend(&s, line, "\n");
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
