// The JSON forms of a trace's header and steps (json_codec.h).
#include "core/json_codec.h"

#include <utility>

#include "core/json_fields.h"
#include "core/op_table.h"

namespace schedtrace {

using nlohmann::json;

namespace {

json MembersToJson(const JsonMembers& members) {
  json j = json::object();
  for (const auto& [key, value] : members) j[key] = value;
  return j;
}

json PodArg(const PodPtr& pod) { return pod ? PodToJson(*pod) : json(); }
json NodeArg(const NodePtr& node) { return node ? NodeToJson(*node) : json(); }

}  // namespace

JsonMembers HeaderMembers(const TraceHeader& h) {
  const Config& c = h.config;
  json config = {{"podInitialBackoffMs", c.pod_initial_backoff_ms},
                 {"podMaxBackoffMs", c.pod_max_backoff_ms},
                 {"podMaxInUnschedulableMs", c.pod_max_in_unschedulable_ms},
                 {"assumedPodTtlMs", c.assumed_pod_ttl_ms},
                 {"profiles", StringListJson(c.profiles)},
                 {"features", c.features}};
  if (c.features.empty()) config["features"] = json::object();
  json events = json::array();
  for (const ClusterEventMapEntry& e : c.cluster_event_map) {
    json entry = {{"resource", e.resource},
                  {"actions", StringListJson(e.actions)},
                  {"plugins", StringListJson(e.plugins)}};
    if (!e.hint.empty()) entry["hint"] = e.hint;
    events.push_back(std::move(entry));
  }
  config["clusterEventMap"] = std::move(events);
  if (!c.pre_enqueue_plugins.empty()) {
    config["preEnqueuePlugins"] = c.pre_enqueue_plugins;
  }
  if (!c.plugins.empty()) config["plugins"] = c.plugins;
  if (c.percentage_of_nodes_to_score) {
    config["percentageOfNodesToScore"] = *c.percentage_of_nodes_to_score;
  }
  PutString(config, "nominatorPodLister", c.nominator_pod_lister);

  JsonMembers j = {{"schedtrace", h.version},
                   {"name", h.name},
                   {"layer", std::string(LayerName(h.layer))}};
  if (!h.upstream.empty()) j.emplace_back("upstream", h.upstream);
  if (!h.source.empty()) j.emplace_back("source", h.source);
  if (!h.description.empty()) j.emplace_back("description", h.description);
  if (h.seed) j.emplace_back("seed", *h.seed);
  if (h.truncated) {
    j.emplace_back("truncated", json{{"atStep", h.truncated->at_step},
                                     {"reason", h.truncated->reason}});
  }
  j.emplace_back("config", std::move(config));
  return j;
}

json HeaderToJson(const TraceHeader& header) {
  return MembersToJson(HeaderMembers(header));
}

namespace {

// One argument of the op table's entry, from its Step member; false when
// it is left out (an absent precheck, waitForFirstConsumer false).
bool ArgJson(const Step& step, Arg arg, json* out) {
  switch (arg) {
    case Arg::kPod:
    case Arg::kOldPod:
    case Arg::kNewPod:
      *out = PodArg(step.*PodMember(arg));
      return true;
    case Arg::kNode:
    case Arg::kOldNode:
    case Arg::kNewNode:
      *out = NodeArg(step.*NodeMember(arg));
      return true;
    case Arg::kPodKey:
      *out = step.pod_key;
      return true;
    case Arg::kPodKeys: {
      json keys = json::array();
      if (!step.pod_keys.empty() || step.pods.empty()) {
        for (const std::string& k : step.pod_keys) keys.push_back(k);
      } else {
        for (const PodPtr& p : step.pods) keys.push_back(p ? p->Key() : "");
      }
      *out = std::move(keys);
      return true;
    }
    case Arg::kPrecheck:
      if (!step.precheck) return false;
      *out = StringListJson(*step.precheck);
      return true;
    case Arg::kPlugins:
      *out = StringListJson(step.plugins);
      return true;
    case Arg::kCycle:
      *out = step.cycle ? json(*step.cycle) : json("current");
      return true;
    case Arg::kMoveEvent:
      *out = {{"resource", step.event.resource},
              {"action", step.event.action},
              {"label", step.event.label}};
      return true;
    case Arg::kEventResource:
      *out = step.event.resource;
      return true;
    case Arg::kEventAction:
      *out = step.event.action;
      return true;
    case Arg::kWaitForFirstConsumer:
      if (!step.wait_for_first_consumer) return false;
      *out = true;
      return true;
    case Arg::kNominatedNode:
      *out = step.nominated_node;
      return true;
    case Arg::kTombstone:
      *out = step.tombstone;
      return true;
    case Arg::kReserve:
      *out = step.reserve == ReserveOutcome::kOk ? "ok" : "error";
      return true;
    case Arg::kPermit:
      *out = step.permit == PermitOutcome::kAllow  ? "allow"
             : step.permit == PermitOutcome::kWait ? "wait"
                                                   : "reject";
      return true;
    case Arg::kPreBind:
      *out = step.prebind_ok ? "ok" : "error";
      return true;
    case Arg::kBindResult:
      *out = step.bind_ok ? "ok" : "error";
      return true;
    case Arg::kMoveOld:
    case Arg::kMoveNew: {
      const bool old = arg == Arg::kMoveOld;
      const PodPtr& pod = old ? step.old_pod : step.new_pod;
      const NodePtr& node = old ? step.old_node : step.new_node;
      if (pod != nullptr) {
        *out = PodArg(pod);
        return true;
      }
      if (node != nullptr) {
        *out = NodeArg(node);
        return true;
      }
      return false;
    }
  }
  return false;
}

}  // namespace

JsonMembers StepMembers(const Step& step, bool with_expect) {
  JsonMembers members = {{"t", step.t}, {"op", std::string(OpName(step.op))}};
  // The op's arguments in its table entry's order; `expect` comes last.
  for (const ArgSpec& a : SpecOf(step.op).Args()) {
    json value;
    if (ArgJson(step, a.arg, &value)) {
      members.emplace_back(std::string(a.key), std::move(value));
    }
  }
  if (with_expect && step.expect) {
    json e = json::object();
    if (step.expect->out) e["out"] = *step.expect->out;
    if (step.expect->state) e["state"] = *step.expect->state;
    members.emplace_back("expect", std::move(e));
  }
  return members;
}

json StepToJson(const Step& step, bool with_expect) {
  return MembersToJson(StepMembers(step, with_expect));
}

}  // namespace schedtrace
