// The trace codec: JSONL lines <-> TraceHeader and Step (codec.h).
#include "core/codec.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/json_codec.h"
#include "core/json_fields.h"
#include "core/op_table.h"
#include "core/upstream_versions.h"

namespace schedtrace {

using nlohmann::json;

namespace {

constexpr Presence kRequired = Presence::kRequired;

std::string Where(const std::string& path, int line_no) {
  return absl::StrCat(path, ":", line_no, ": ");
}

// Deeper nesting is refused before parsing: nlohmann::json copies, compares
// and dumps recursively, so a hostile line could overflow the stack.
constexpr int kMaxJsonDepth = 100;

// The deepest nesting of arrays and objects in `text` (strings skipped).
int JsonDepth(std::string_view text) {
  int depth = 0;
  int max_depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

// Parses one line; a syntax error (also a truncated line) is
// `<path>:<line>: malformed JSON: <detail>`.
absl::StatusOr<json> ParseLine(std::string_view line,
                               const std::string& where) {
  if (JsonDepth(line) > kMaxJsonDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "malformed JSON: nested deeper than ",
                     kMaxJsonDepth, " levels"));
  }
  try {
    return json::parse(line.begin(), line.end());
  } catch (const json::exception&
               e) {  // parse_error; out_of_range 406 for numbers past double
    std::string detail = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix.
    if (size_t pos = detail.find("] "); pos != std::string::npos) {
      detail = detail.substr(pos + 2);
    }
    return absl::InvalidArgumentError(
        absl::StrCat(where, "malformed JSON: ", detail));
  }
}

// Reads a string member that must be one of `choices` (index into `*out`).
absl::Status ReadChoice(const FieldReader& r, const json& obj,
                        absl::string_view key,
                        const std::vector<absl::string_view>& choices,
                        int* out) {
  std::string value;
  bool present = FieldReader::Find(obj, key) != nullptr;
  JF_RETURN_IF_ERROR(r.String(obj, "", key, &value));
  if (!present) return absl::OkStatus();
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == value) {
      *out = static_cast<int>(i);
      return absl::OkStatus();
    }
  }
  return r.Error(key, absl::StrCat("unknown value \"", value, "\" (expected ",
                                   absl::StrJoin(choices, ", "), ")"));
}

// A clusterEventMap entry's `hint` (docs/FORMAT.md, E14): absent, "Queue",
// "QueueSkip", "Error", or "plugin" for entries whose every plugin is one
// the scheduler profile runs (those have a QueueingHint function of their
// own).
absl::Status ReadHint(const FieldReader& r, const json& e,
                      const std::string& path, ClusterEventMapEntry* entry) {
  JF_RETURN_IF_ERROR(r.String(e, path, "hint", &entry->hint));
  const std::string& hint = entry->hint;
  if (FieldReader::Find(e, "hint") == nullptr) return absl::OkStatus();
  if (hint != "Queue" && hint != "QueueSkip" && hint != "Error" &&
      hint != "plugin") {
    return r.Error(FieldPath(path, "hint"),
                   absl::StrCat("unknown hint \"", hint,
                                "\" (expected Queue, QueueSkip, Error or "
                                "plugin)"));
  }
  if (hint != "plugin") return absl::OkStatus();
  for (size_t i = 0; i < entry->plugins.size(); ++i) {
    const std::string& name = entry->plugins[i];
    if (!HasOwnQueueingHint(name)) {
      return r.Error(
          IndexPath(FieldPath(path, "plugins"), i),
          absl::StrCat("hint \"plugin\" needs a plugin of the scheduler "
                       "profile (NodeUnschedulable, NodeName, "
                       "TaintToleration, NodeAffinity, NodeResourcesFit, "
                       "SchedulingGates), got \"",
                       name, "\""));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadConfig(const FieldReader& r, const json& c, Config* config) {
  const std::string p = "config";
  JF_RETURN_IF_ERROR(
      r.Int64(c, p, "podInitialBackoffMs", &config->pod_initial_backoff_ms));
  JF_RETURN_IF_ERROR(
      r.Int64(c, p, "podMaxBackoffMs", &config->pod_max_backoff_ms));
  JF_RETURN_IF_ERROR(r.Int64(c, p, "podMaxInUnschedulableMs",
                             &config->pod_max_in_unschedulable_ms));
  JF_RETURN_IF_ERROR(
      r.Int64(c, p, "assumedPodTtlMs", &config->assumed_pod_ttl_ms));
  JF_RETURN_IF_ERROR(r.StringList(c, p, "profiles", &config->profiles));
  const json* features = nullptr;
  JF_RETURN_IF_ERROR(r.Object(c, p, "features", &features));
  if (features != nullptr) {
    for (const auto& [name, on] : features->items()) {
      JF_RETURN_IF_ERROR(r.AsBool(on, FieldPath("config.features", name),
                                  &config->features[name]));
    }
  }
  const json* events = nullptr;
  JF_RETURN_IF_ERROR(r.Array(c, p, "clusterEventMap", &events));
  if (events != nullptr) {
    for (size_t i = 0; i < events->size(); ++i) {
      const json& e = (*events)[i];
      std::string path = IndexPath("config.clusterEventMap", i);
      JF_RETURN_IF_ERROR(r.AsObject(e, path));
      ClusterEventMapEntry entry;
      JF_RETURN_IF_ERROR(
          r.String(e, path, "resource", &entry.resource, kRequired));
      JF_RETURN_IF_ERROR(r.StringList(e, path, "actions", &entry.actions));
      JF_RETURN_IF_ERROR(r.StringList(e, path, "plugins", &entry.plugins));
      JF_RETURN_IF_ERROR(ReadHint(r, e, path, &entry));
      config->cluster_event_map.push_back(std::move(entry));
    }
  }
  for (auto [key, into] :
       {std::pair{"preEnqueuePlugins", &config->pre_enqueue_plugins},
        std::pair{"plugins", &config->plugins}}) {
    const json* m = nullptr;
    JF_RETURN_IF_ERROR(r.Object(c, p, key, &m));
    if (m == nullptr) continue;
    for (const auto& [name, list] : m->items()) {
      JF_RETURN_IF_ERROR(r.AsStringList(
          list, FieldPath(FieldPath(p, key), name), &(*into)[name]));
    }
  }
  JF_RETURN_IF_ERROR(r.OptInt64(c, p, "percentageOfNodesToScore",
                                &config->percentage_of_nodes_to_score));
  JF_RETURN_IF_ERROR(
      r.String(c, p, "nominatorPodLister", &config->nominator_pod_lister));
  return absl::OkStatus();
}

// "ns/name" -> a Pod holding only namespace and name.
PodPtr StubPod(const std::string& key) {
  auto pod = std::make_shared<Pod>();
  size_t slash = key.find('/');
  if (slash == std::string::npos) {
    pod->name = key;
  } else {
    pod->namespace_ = key.substr(0, slash);
    pod->name = key.substr(slash + 1);
  }
  return pod;
}

// Reads a step's arguments, one op-table argument at a time, into `step`.
class StepArgs {
 public:
  // `latest` (pod key -> the latest pod an earlier step carried) resolves
  // `$ref`s and the pods of a key list.
  StepArgs(const FieldReader& r, const json& j, const std::string& where,
           const std::map<std::string, PodPtr>& latest, Step& step)
      : r_(r), j_(j), where_(where), latest_(latest), step_(step) {}

  // One argument of the op table's entry, into its Step member.
  absl::Status Read(const ArgSpec& a) {
    const absl::string_view key(a.key.data(), a.key.size());
    const Presence presence =
        a.need == Need::kRequired ? kRequired : Presence::kOptional;
    switch (a.arg) {
      case Arg::kPod:
      case Arg::kOldPod:
      case Arg::kNewPod:
        return PodArg(key, a.need != Need::kRequired,
                      &(step_.*PodMember(a.arg)));
      case Arg::kNode:
      case Arg::kOldNode:
      case Arg::kNewNode:
        return NodeArg(key, &(step_.*NodeMember(a.arg)));
      case Arg::kPodKey:
        return r_.String(j_, "", key, &step_.pod_key, presence);
      case Arg::kNominatedNode:
        return r_.String(j_, "", key, &step_.nominated_node, presence);
      case Arg::kEventResource:
        return r_.String(j_, "", key, &step_.event.resource, presence);
      case Arg::kEventAction:
        return r_.String(j_, "", key, &step_.event.action, presence);
      case Arg::kPlugins:
        return r_.StringList(j_, "", key, &step_.plugins, presence);
      case Arg::kTombstone:
        return r_.Bool(j_, "", key, &step_.tombstone, presence);
      case Arg::kWaitForFirstConsumer:
        return r_.Bool(j_, "", key, &step_.wait_for_first_consumer, presence);
      case Arg::kPodKeys:
        return PodKeys(key, presence);
      case Arg::kPrecheck:
        return Precheck(key, presence);
      case Arg::kCycle:
        return Cycle(key, presence);
      case Arg::kMoveEvent:
        return MoveEvent(key, presence);
      case Arg::kReserve:
      case Arg::kPermit:
      case Arg::kPreBind:
      case Arg::kBindResult:
        return Outcome(a.arg, key);
      case Arg::kMoveOld:
      case Arg::kMoveNew:
        return EventObject(a.arg, key);
    }
    return absl::OkStatus();
  }

  // Pods this step carries, recorded as the latest once the step decodes.
  const std::vector<PodPtr>& carried() const { return carried_; }

 private:
  // A pod object, or a `$ref` to the latest pod of that key.
  absl::Status PodArg(absl::string_view key, bool nullable, PodPtr* out) {
    const json* v = FieldReader::Find(j_, key);
    if (v == nullptr) {
      if (nullable) return absl::OkStatus();
      return r_.Error(key, "missing");
    }
    JF_RETURN_IF_ERROR(r_.AsObject(*v, key));
    if (auto ref = v->find("$ref"); ref != v->end()) {
      std::string ref_key;
      const std::string field = FieldPath(key, "$ref");
      JF_RETURN_IF_ERROR(r_.AsString(*ref, field, &ref_key));
      auto it = latest_.find(ref_key);
      if (it == latest_.end()) {
        return r_.Error(field, absl::StrCat("no earlier step carried pod \"",
                                            ref_key, "\""));
      }
      *out = it->second;
    } else {
      absl::StatusOr<Pod> pod = PodFromJson(*v, where_, std::string(key));
      if (!pod.ok()) return pod.status();
      *out = std::make_shared<const Pod>(*std::move(pod));
    }
    carried_.push_back(*out);
    return absl::OkStatus();
  }

  absl::Status NodeArg(absl::string_view key, NodePtr* out) {
    const json* v = nullptr;
    JF_RETURN_IF_ERROR(r_.Object(j_, "", key, &v, kRequired));
    absl::StatusOr<Node> node = NodeFromJson(*v, where_, std::string(key));
    if (!node.ok()) return node.status();
    *out = std::make_shared<const Node>(*std::move(node));
    return absl::OkStatus();
  }

  // Keys, and the latest pod of each (a stub for a key none carried).
  absl::Status PodKeys(absl::string_view key, Presence presence) {
    JF_RETURN_IF_ERROR(r_.StringList(j_, "", key, &step_.pod_keys, presence));
    for (const std::string& k : step_.pod_keys) {
      auto it = latest_.find(k);
      step_.pods.push_back(it != latest_.end() ? it->second : StubPod(k));
    }
    return absl::OkStatus();
  }

  // Absent (no precheck) differs from empty.
  absl::Status Precheck(absl::string_view key, Presence presence) {
    bool found = false;
    std::vector<std::string> precheck;
    JF_RETURN_IF_ERROR(r_.StringList(j_, "", key, &precheck, presence, &found));
    if (found) step_.precheck = std::move(precheck);
    return absl::OkStatus();
  }

  // An integer, or "current".
  absl::Status Cycle(absl::string_view key, Presence presence) {
    const json* cycle = FieldReader::Find(j_, key);
    if (cycle == nullptr) {
      if (presence == kRequired) return r_.Error(key, "missing");
      return absl::OkStatus();
    }
    if (cycle->is_string()) {
      if (cycle->get<std::string>() != "current") {
        return r_.Error(key, absl::StrCat("expected an integer or "
                                          "\"current\", got \"",
                                          cycle->get<std::string>(), "\""));
      }
      step_.cycle = std::nullopt;
    } else {
      int64_t n = 0;
      JF_RETURN_IF_ERROR(r_.AsInt64(*cycle, key, &n));
      step_.cycle = n;
    }
    return absl::OkStatus();
  }

  absl::Status MoveEvent(absl::string_view key, Presence presence) {
    const json* event = nullptr;
    JF_RETURN_IF_ERROR(r_.Object(j_, "", key, &event, presence));
    if (event == nullptr) return absl::OkStatus();
    const std::string p(key);
    JF_RETURN_IF_ERROR(
        r_.String(*event, p, "resource", &step_.event.resource, kRequired));
    JF_RETURN_IF_ERROR(
        r_.String(*event, p, "action", &step_.event.action, kRequired));
    return r_.String(*event, p, "label", &step_.event.label);
  }

  // q_move_all's `old` or `new`: absent or null is nil; a pod (a `$ref`
  // too) for an event of a pod resource or "*", a node for a Node event.
  // The event is read before (the op table's order). A move's objects do
  // not become the latest of their keys.
  absl::Status EventObject(Arg arg, absl::string_view key) {
    if (FieldReader::Find(j_, key) == nullptr) return absl::OkStatus();
    std::optional<EventObjectKind> kind =
        EventObjectKindOf(step_.event.resource);
    if (!kind) {
      return r_.Error(
          key, absl::StrCat("an event of resource \"", step_.event.resource,
                            "\" carries no object (only Node, "
                            "a pod resource or \"*\" do)"));
    }
    const bool old = arg == Arg::kMoveOld;
    if (*kind == EventObjectKind::kNode) {
      return NodeArg(key, old ? &step_.old_node : &step_.new_node);
    }
    const size_t carried = carried_.size();
    JF_RETURN_IF_ERROR(
        PodArg(key, /*nullable=*/true, old ? &step_.old_pod : &step_.new_pod));
    carried_.resize(carried);
    return absl::OkStatus();
  }

  // A scripted answer: reserve, permit, prebind, bind.
  absl::Status Outcome(Arg arg, absl::string_view key) {
    int choice = 0;
    switch (arg) {
      case Arg::kReserve:
        JF_RETURN_IF_ERROR(ReadChoice(r_, j_, key, {"ok", "error"}, &choice));
        step_.reserve =
            choice == 0 ? ReserveOutcome::kOk : ReserveOutcome::kError;
        return absl::OkStatus();
      case Arg::kPermit:
        JF_RETURN_IF_ERROR(
            ReadChoice(r_, j_, key, {"allow", "wait", "reject"}, &choice));
        step_.permit = choice == 0   ? PermitOutcome::kAllow
                       : choice == 1 ? PermitOutcome::kWait
                                     : PermitOutcome::kReject;
        return absl::OkStatus();
      default:  // kPreBind, kBindResult
        JF_RETURN_IF_ERROR(ReadChoice(r_, j_, key, {"ok", "error"}, &choice));
        (arg == Arg::kPreBind ? step_.prebind_ok : step_.bind_ok) = choice == 0;
        return absl::OkStatus();
    }
  }

  const FieldReader& r_;
  const json& j_;
  const std::string& where_;
  const std::map<std::string, PodPtr>& latest_;
  Step& step_;
  std::vector<PodPtr> carried_;
};

}  // namespace

TraceDecoder::TraceDecoder(std::string path) : path_(std::move(path)) {}

absl::StatusOr<TraceHeader> TraceDecoder::DecodeHeader(std::string_view line,
                                                       int line_no) {
  const std::string where = Where(path_, line_no);
  absl::StatusOr<json> parsed = ParseLine(line, where);
  if (!parsed.ok()) return parsed.status();
  const json& j = *parsed;
  FieldReader r(where);
  if (!j.is_object()) {
    return r.Error("schedtrace",
                   absl::StrCat("the first line must be the trace header, an "
                                "object; got ",
                                JsonTypeName(j)));
  }
  if (FieldReader::Find(j, "schedtrace") == nullptr) {
    return r.Error("schedtrace",
                   "missing: the first line must be the trace header");
  }
  TraceHeader h;
  int64_t version = 0;
  JF_RETURN_IF_ERROR(r.Int64(j, "", "schedtrace", &version, kRequired));
  if (version != 1) {
    return r.Error("schedtrace", absl::StrCat("unsupported version ", version,
                                              " (this reader knows 1)"));
  }
  h.version = 1;
  std::string layer;
  JF_RETURN_IF_ERROR(r.String(j, "", "layer", &layer, kRequired));
  std::optional<Layer> l = LayerFromName(layer);
  if (!l) {
    return r.Error("layer",
                   absl::StrCat("unknown layer \"", layer,
                                "\" (expected queue, cache or scheduler)"));
  }
  h.layer = *l;
  JF_RETURN_IF_ERROR(r.String(j, "", "name", &h.name));
  JF_RETURN_IF_ERROR(r.String(j, "", "upstream", &h.upstream));
  if (!IsKnownUpstream(h.upstream)) {
    return r.Error(
        "upstream",
        absl::StrCat("unknown upstream version \"", h.upstream,
                     "\" (this reader knows ", KnownUpstreamsText(), ")"));
  }
  JF_RETURN_IF_ERROR(r.String(j, "", "source", &h.source));
  JF_RETURN_IF_ERROR(r.String(j, "", "description", &h.description));
  JF_RETURN_IF_ERROR(r.OptInt64(j, "", "seed", &h.seed));
  const json* truncated = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, "", "truncated", &truncated));
  if (truncated != nullptr) {
    Truncated t;
    JF_RETURN_IF_ERROR(
        r.Int64(*truncated, "truncated", "atStep", &t.at_step, kRequired));
    if (t.at_step < 1) {
      return r.Error("truncated.atStep",
                     absl::StrCat("must be at least 1, got ", t.at_step));
    }
    JF_RETURN_IF_ERROR(r.String(*truncated, "truncated", "reason", &t.reason));
    h.truncated = std::move(t);
  }
  const json* config = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, "", "config", &config));
  if (config != nullptr) {
    // Listed profiles replace the default one.
    if (FieldReader::Find(*config, "profiles") != nullptr) {
      h.config.profiles.clear();
    }
    JF_RETURN_IF_ERROR(ReadConfig(r, *config, &h.config));
  }
  have_header_ = true;
  layer_ = h.layer;
  last_t_ = 0;
  latest_pods_.clear();
  return h;
}

absl::StatusOr<Step> TraceDecoder::DecodeStep(std::string_view line,
                                              int line_no) {
  const std::string where = Where(path_, line_no);
  if (!have_header_) {
    return absl::FailedPreconditionError(
        absl::StrCat(where, "a step before the trace header"));
  }
  absl::StatusOr<json> parsed = ParseLine(line, where);
  if (!parsed.ok()) return parsed.status();
  const json& j = *parsed;
  FieldReader r(where);
  if (!j.is_object()) {
    return r.Error(
        "op", absl::StrCat("a step must be an object, got ", JsonTypeName(j)));
  }
  Step step;
  step.line = line_no;

  JF_RETURN_IF_ERROR(r.Int64(j, "", "t", &step.t, kRequired));
  if (step.t < 0) {
    return r.Error("t", absl::StrCat("negative time ", step.t));
  }
  if (step.t > kMaxTraceMs) {
    return r.Error("t", absl::StrCat("time ", step.t,
                                     " beyond the format's range (at most ",
                                     kMaxTraceMs, " ms)"));
  }
  if (step.t < last_t_) {
    return r.Error(
        "t", absl::StrCat("time goes backwards: ", step.t, " after ", last_t_));
  }

  std::string op_name;
  JF_RETURN_IF_ERROR(r.String(j, "", "op", &op_name, kRequired));
  std::optional<Op> op = OpFromName(op_name);
  if (!op) return r.Error("op", absl::StrCat("unknown op \"", op_name, "\""));
  if (!OpInLayer(*op, layer_)) {
    return r.Error("op",
                   absl::StrCat("\"", op_name, "\" is not an op of layer ",
                                std::string(LayerName(layer_))));
  }
  step.op = *op;

  // The op's arguments, in the order its table entry lists them: the first
  // one wrong is the one reported.
  StepArgs args(r, j, where, latest_pods_, step);
  for (const ArgSpec& a : SpecOf(step.op).Args()) {
    JF_RETURN_IF_ERROR(args.Read(a));
  }

  const json* expect = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, "", "expect", &expect));
  if (expect != nullptr) {
    auto e = std::make_shared<Expect>();
    const json* out = nullptr;
    const json* state = nullptr;
    JF_RETURN_IF_ERROR(r.Object(*expect, "expect", "out", &out));
    JF_RETURN_IF_ERROR(r.Object(*expect, "expect", "state", &state));
    // Moved, not copied: `expect` is most of a golden line.
    json& owned = (*parsed)["expect"];
    if (out != nullptr) e->out = std::move(owned["out"]);
    if (state != nullptr) e->state = std::move(owned["state"]);
    step.expect = std::move(e);
  }

  if (absl::Status s = CheckUpdateNamesOneObject(step); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(where, s.message()));
  }

  last_t_ = step.t;
  for (const PodPtr& pod : args.carried()) latest_pods_[pod->Key()] = pod;
  return step;
}

absl::StatusOr<Trace> ParseTrace(std::string_view text, std::string path) {
  Trace trace;
  trace.path = path;
  TraceDecoder decoder(std::move(path));
  bool have_header = false;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t first = line.find_first_not_of(" \t\r\f\v");
    if (first == std::string_view::npos || line[first] == '#') continue;
    if (!have_header) {
      absl::StatusOr<TraceHeader> header = decoder.DecodeHeader(line, line_no);
      if (!header.ok()) return header.status();
      trace.header = *std::move(header);
      trace.header_line = line_no;
      have_header = true;
      continue;
    }
    absl::StatusOr<Step> step = decoder.DecodeStep(line, line_no);
    if (!step.ok()) return step.status();
    trace.steps.push_back(*std::move(step));
  }
  if (!have_header) {
    return absl::InvalidArgumentError(
        absl::StrCat(trace.path, ":", line_no + 1,
                     ": field \"schedtrace\": missing: the trace is empty "
                     "(no header line)"));
  }
  return trace;
}

absl::StatusOr<Trace> ReadTraceFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open the file"));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return absl::DataLossError(absl::StrCat(path, ": read error"));
  }
  return ParseTrace(text.str(), path);
}

namespace {

// One line of compact JSON; invalid UTF-8 in a string built in code is
// replaced rather than thrown on.
std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// One object, its members in the given order.
std::string DumpMembers(const JsonMembers& members) {
  std::string line = "{";
  for (const auto& [key, value] : members) {
    if (line.size() > 1) line += ',';
    line += Dump(json(key));
    line += ':';
    line += Dump(value);
  }
  line += '}';
  return line;
}

}  // namespace

std::string EncodeHeader(const TraceHeader& header) {
  return DumpMembers(HeaderMembers(header));
}

std::string EncodeStep(const Step& step, bool with_expect) {
  return DumpMembers(StepMembers(step, with_expect));
}

std::string EncodeOut(const StepOut& out) { return Dump(OutToJson(out)); }

std::string EncodeState(const State& state) { return Dump(StateToJson(state)); }

std::string EncodeTrace(const Trace& trace) {
  std::string text = EncodeHeader(trace.header);
  text += '\n';
  for (const Step& step : trace.steps) {
    text += EncodeStep(step);
    text += '\n';
  }
  return text;
}

absl::StatusOr<StepOut> DecodeOut(std::string_view text) {
  absl::StatusOr<json> j = ParseLine(text, "out: ");
  if (!j.ok()) return j.status();
  return OutFromJson(*j);
}

absl::StatusOr<State> DecodeState(std::string_view text) {
  absl::StatusOr<json> j = ParseLine(text, "state: ");
  if (!j.ok()) return j.status();
  return StateFromJson(*j);
}

}  // namespace schedtrace
