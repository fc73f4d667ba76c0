// The JSON forms of the spec's objects, out and state (json_codec.h).
#include "harness/json_codec.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/json_fields.h"
#include "harness/op_table.h"

namespace schedtrace {

using nlohmann::json;

namespace {

constexpr Presence kRequired = Presence::kRequired;

// ---------------------------------------------------------------------------
// Decoding objects.

// upstream: Quantity.UnmarshalJSON (apimachinery resource/quantity.go) takes
// a quoted string or a bare number.
absl::Status ReadResourceList(const FieldReader& r, const json& obj,
                              absl::string_view parent, absl::string_view key,
                              ResourceList* out) {
  const json* v = nullptr;
  JF_RETURN_IF_ERROR(r.Object(obj, parent, key, &v));
  if (v == nullptr) return absl::OkStatus();
  std::string field = FieldPath(parent, key);
  ResourceList list;
  for (const auto& [name, value] : v->items()) {
    std::string path = FieldPath(field, name);
    std::string text;
    if (value.is_number()) {
      text = value.dump();
    } else {
      JF_RETURN_IF_ERROR(r.AsString(value, path, &text));
    }
    absl::StatusOr<Quantity> q = ParseQuantity(text);
    if (!q.ok()) return r.Error(path, q.status().message());
    list.emplace(name, *std::move(q));
  }
  *out = std::move(list);
  return absl::OkStatus();
}

// Calls fn(element, "parent.key[i]") for each element of the array obj[key].
template <typename Fn>
absl::Status ForEach(const FieldReader& r, const json& obj,
                     absl::string_view parent, absl::string_view key, Fn fn) {
  const json* arr = nullptr;
  JF_RETURN_IF_ERROR(r.Array(obj, parent, key, &arr));
  if (arr == nullptr) return absl::OkStatus();
  std::string field = FieldPath(parent, key);
  for (size_t i = 0; i < arr->size(); ++i) {
    std::string path = IndexPath(field, i);
    JF_RETURN_IF_ERROR(r.AsObject((*arr)[i], path));
    JF_RETURN_IF_ERROR(fn((*arr)[i], path));
  }
  return absl::OkStatus();
}

template <typename Req>
absl::Status ReadRequirements(const FieldReader& r, const json& obj,
                              absl::string_view parent, absl::string_view key,
                              std::vector<Req>* out) {
  return ForEach(
      r, obj, parent, key, [&](const json& e, const std::string& path) {
        Req req;
        JF_RETURN_IF_ERROR(r.String(e, path, "key", &req.key));
        JF_RETURN_IF_ERROR(r.String(e, path, "operator", &req.op));
        JF_RETURN_IF_ERROR(r.StringList(e, path, "values", &req.values));
        out->push_back(std::move(req));
        return absl::OkStatus();
      });
}

absl::Status ReadLabelSelector(const FieldReader& r, const json& obj,
                               absl::string_view parent, absl::string_view key,
                               std::optional<LabelSelector>* out) {
  const json* v = nullptr;
  JF_RETURN_IF_ERROR(r.Object(obj, parent, key, &v));
  if (v == nullptr) return absl::OkStatus();
  std::string path = FieldPath(parent, key);
  LabelSelector sel;
  JF_RETURN_IF_ERROR(r.StringMap(*v, path, "matchLabels", &sel.match_labels));
  JF_RETURN_IF_ERROR(ReadRequirements(r, *v, path, "matchExpressions",
                                      &sel.match_expressions));
  *out = std::move(sel);
  return absl::OkStatus();
}

absl::Status ReadContainers(const FieldReader& r, const json& spec,
                            absl::string_view parent, absl::string_view key,
                            std::vector<Container>* out) {
  return ForEach(
      r, spec, parent, key, [&](const json& e, const std::string& path) {
        Container c;
        JF_RETURN_IF_ERROR(r.String(e, path, "name", &c.name));
        JF_RETURN_IF_ERROR(r.String(e, path, "image", &c.image));
        const json* res = nullptr;
        JF_RETURN_IF_ERROR(r.Object(e, path, "resources", &res));
        if (res != nullptr) {
          JF_RETURN_IF_ERROR(ReadResourceList(
              r, *res, FieldPath(path, "resources"), "requests", &c.requests));
        }
        out->push_back(std::move(c));
        return absl::OkStatus();
      });
}

absl::Status ReadAffinity(const FieldReader& r, const json& affinity,
                          const std::string& path, Pod* pod) {
  const json* node_aff = nullptr;
  JF_RETURN_IF_ERROR(r.Object(affinity, path, "nodeAffinity", &node_aff));
  if (node_aff != nullptr) {
    std::string na_path = FieldPath(path, "nodeAffinity");
    const json* required = nullptr;
    JF_RETURN_IF_ERROR(
        r.Object(*node_aff, na_path,
                 "requiredDuringSchedulingIgnoredDuringExecution", &required));
    if (required != nullptr) {
      std::string req_path =
          FieldPath(na_path, "requiredDuringSchedulingIgnoredDuringExecution");
      std::vector<NodeSelectorTerm> terms;
      JF_RETURN_IF_ERROR(ForEach(
          r, *required, req_path, "nodeSelectorTerms",
          [&](const json& e, const std::string& term_path) {
            NodeSelectorTerm term;
            JF_RETURN_IF_ERROR(ReadRequirements(
                r, e, term_path, "matchExpressions", &term.match_expressions));
            JF_RETURN_IF_ERROR(ReadRequirements(r, e, term_path, "matchFields",
                                                &term.match_fields));
            terms.push_back(std::move(term));
            return absl::OkStatus();
          }));
      pod->required_node_affinity = std::move(terms);
    }
  }
  const json* pod_aff = nullptr;
  JF_RETURN_IF_ERROR(r.Object(affinity, path, "podAffinity", &pod_aff));
  if (pod_aff != nullptr) {
    JF_RETURN_IF_ERROR(ForEach(
        r, *pod_aff, FieldPath(path, "podAffinity"),
        "requiredDuringSchedulingIgnoredDuringExecution",
        [&](const json& e, const std::string& term_path) {
          PodAffinityTerm term;
          JF_RETURN_IF_ERROR(ReadLabelSelector(r, e, term_path, "labelSelector",
                                               &term.label_selector));
          JF_RETURN_IF_ERROR(
              r.StringList(e, term_path, "namespaces", &term.namespaces));
          JF_RETURN_IF_ERROR(
              r.String(e, term_path, "topologyKey", &term.topology_key));
          JF_RETURN_IF_ERROR(ReadLabelSelector(
              r, e, term_path, "namespaceSelector", &term.namespace_selector));
          pod->required_pod_affinity.push_back(std::move(term));
          return absl::OkStatus();
        }));
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Encoding objects: Go's encoding/json with empty fields omitted.

void PutString(json& obj, const char* key, const std::string& s) {
  if (!s.empty()) obj[key] = s;
}

void PutMap(json& obj, const char* key, const Labels& m) {
  if (!m.empty()) obj[key] = m;
}

void PutList(json& obj, const char* key, const std::vector<std::string>& l) {
  if (!l.empty()) obj[key] = l;
}

json ResourceListToJson(const ResourceList& list) {
  json j = json::object();
  for (const auto& [name, q] : list) j[name] = q.text();
  return j;
}

template <typename Req>
json RequirementsToJson(const std::vector<Req>& reqs) {
  json arr = json::array();
  for (const Req& req : reqs) {
    json e = json::object();
    PutString(e, "key", req.key);
    PutString(e, "operator", req.op);
    PutList(e, "values", req.values);
    arr.push_back(std::move(e));
  }
  return arr;
}

json LabelSelectorToJson(const LabelSelector& sel) {
  json j = json::object();
  PutMap(j, "matchLabels", sel.match_labels);
  if (!sel.match_expressions.empty()) {
    j["matchExpressions"] = RequirementsToJson(sel.match_expressions);
  }
  return j;
}

json ContainersToJson(const std::vector<Container>& containers) {
  json arr = json::array();
  for (const Container& c : containers) {
    json e = json::object();
    PutString(e, "name", c.name);
    PutString(e, "image", c.image);
    json res = json::object();
    if (!c.requests.empty()) res["requests"] = ResourceListToJson(c.requests);
    e["resources"] = std::move(res);
    arr.push_back(std::move(e));
  }
  return arr;
}

json StringListJson(const std::vector<std::string>& l) {
  return l.empty() ? json::array() : json(l);
}

json QueuedPodsToJson(const std::vector<QueuedPod>& pods, bool backoff,
                      bool unschedulable) {
  json arr = json::array();
  for (const QueuedPod& p : pods) {
    json e = {{"pod", p.pod}, {"attempts", p.attempts}};
    if (backoff) e["backoffExpiresAt"] = p.backoff_expires_at;
    if (unschedulable) {
      e["plugins"] = StringListJson(p.plugins);
      e["gated"] = p.gated;
    }
    arr.push_back(std::move(e));
  }
  return arr;
}

}  // namespace

absl::StatusOr<Pod> PodFromJson(const json& j, const std::string& where,
                                const std::string& field) {
  FieldReader r(where);
  JF_RETURN_IF_ERROR(r.AsObject(j, field));
  Pod pod;
  const json* meta = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "metadata", &meta));
  if (meta != nullptr) {
    std::string path = FieldPath(field, "metadata");
    JF_RETURN_IF_ERROR(r.String(*meta, path, "namespace", &pod.namespace_));
    JF_RETURN_IF_ERROR(r.String(*meta, path, "name", &pod.name));
    JF_RETURN_IF_ERROR(r.String(*meta, path, "uid", &pod.uid));
    JF_RETURN_IF_ERROR(
        r.String(*meta, path, "resourceVersion", &pod.resource_version));
    JF_RETURN_IF_ERROR(r.StringMap(*meta, path, "labels", &pod.labels));
    JF_RETURN_IF_ERROR(
        r.StringMap(*meta, path, "annotations", &pod.annotations));
    JF_RETURN_IF_ERROR(
        r.OptString(*meta, path, "deletionTimestamp", &pod.deletion_timestamp));
  }
  const json* spec = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "spec", &spec));
  if (spec != nullptr) {
    std::string path = FieldPath(field, "spec");
    JF_RETURN_IF_ERROR(
        r.String(*spec, path, "schedulerName", &pod.scheduler_name));
    if (const json* prio = FieldReader::Find(*spec, "priority")) {
      int32_t p = 0;
      JF_RETURN_IF_ERROR(r.AsInt32(*prio, FieldPath(path, "priority"), &p));
      pod.priority = p;
    }
    JF_RETURN_IF_ERROR(r.String(*spec, path, "nodeName", &pod.node_name));
    JF_RETURN_IF_ERROR(
        r.StringMap(*spec, path, "nodeSelector", &pod.node_selector));
    JF_RETURN_IF_ERROR(
        ForEach(r, *spec, path, "tolerations",
                [&](const json& e, const std::string& p) {
                  Toleration t;
                  JF_RETURN_IF_ERROR(r.String(e, p, "key", &t.key));
                  JF_RETURN_IF_ERROR(r.String(e, p, "operator", &t.op));
                  JF_RETURN_IF_ERROR(r.String(e, p, "value", &t.value));
                  JF_RETURN_IF_ERROR(r.String(e, p, "effect", &t.effect));
                  JF_RETURN_IF_ERROR(r.OptInt64(e, p, "tolerationSeconds",
                                                &t.toleration_seconds));
                  pod.tolerations.push_back(std::move(t));
                  return absl::OkStatus();
                }));
    JF_RETURN_IF_ERROR(
        ForEach(r, *spec, path, "schedulingGates",
                [&](const json& e, const std::string& p) {
                  std::string name;
                  JF_RETURN_IF_ERROR(r.String(e, p, "name", &name));
                  pod.scheduling_gates.push_back(std::move(name));
                  return absl::OkStatus();
                }));
    JF_RETURN_IF_ERROR(
        ReadContainers(r, *spec, path, "containers", &pod.containers));
    JF_RETURN_IF_ERROR(
        ReadContainers(r, *spec, path, "initContainers", &pod.init_containers));
    JF_RETURN_IF_ERROR(
        ReadResourceList(r, *spec, path, "overhead", &pod.overhead));
    const json* affinity = nullptr;
    JF_RETURN_IF_ERROR(r.Object(*spec, path, "affinity", &affinity));
    if (affinity != nullptr) {
      JF_RETURN_IF_ERROR(
          ReadAffinity(r, *affinity, FieldPath(path, "affinity"), &pod));
    }
  }
  const json* status = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "status", &status));
  if (status != nullptr) {
    JF_RETURN_IF_ERROR(r.String(*status, FieldPath(field, "status"),
                                "nominatedNodeName", &pod.nominated_node_name));
  }
  return pod;
}

absl::StatusOr<Node> NodeFromJson(const json& j, const std::string& where,
                                  const std::string& field) {
  FieldReader r(where);
  JF_RETURN_IF_ERROR(r.AsObject(j, field));
  Node node;
  const json* meta = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "metadata", &meta));
  if (meta != nullptr) {
    std::string path = FieldPath(field, "metadata");
    JF_RETURN_IF_ERROR(r.String(*meta, path, "name", &node.name));
    JF_RETURN_IF_ERROR(r.String(*meta, path, "uid", &node.uid));
    JF_RETURN_IF_ERROR(
        r.String(*meta, path, "resourceVersion", &node.resource_version));
    JF_RETURN_IF_ERROR(r.StringMap(*meta, path, "labels", &node.labels));
  }
  const json* spec = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "spec", &spec));
  if (spec != nullptr) {
    std::string path = FieldPath(field, "spec");
    JF_RETURN_IF_ERROR(
        r.Bool(*spec, path, "unschedulable", &node.unschedulable));
    JF_RETURN_IF_ERROR(ForEach(
        r, *spec, path, "taints", [&](const json& e, const std::string& p) {
          Taint t;
          JF_RETURN_IF_ERROR(r.String(e, p, "key", &t.key));
          JF_RETURN_IF_ERROR(r.String(e, p, "value", &t.value));
          JF_RETURN_IF_ERROR(r.String(e, p, "effect", &t.effect));
          node.taints.push_back(std::move(t));
          return absl::OkStatus();
        }));
  }
  const json* status = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "status", &status));
  if (status != nullptr) {
    std::string path = FieldPath(field, "status");
    JF_RETURN_IF_ERROR(
        ReadResourceList(r, *status, path, "allocatable", &node.allocatable));
    JF_RETURN_IF_ERROR(
        ForEach(r, *status, path, "conditions",
                [&](const json& e, const std::string& p) {
                  NodeCondition c;
                  JF_RETURN_IF_ERROR(r.String(e, p, "type", &c.type));
                  JF_RETURN_IF_ERROR(r.String(e, p, "status", &c.status));
                  node.conditions.push_back(std::move(c));
                  return absl::OkStatus();
                }));
  }
  return node;
}

json PodToJson(const Pod& pod) {
  json meta = json::object();
  PutString(meta, "name", pod.name);
  PutString(meta, "namespace", pod.namespace_);
  PutString(meta, "uid", pod.uid);
  PutString(meta, "resourceVersion", pod.resource_version);
  PutMap(meta, "labels", pod.labels);
  PutMap(meta, "annotations", pod.annotations);
  if (pod.deletion_timestamp)
    meta["deletionTimestamp"] = *pod.deletion_timestamp;

  json spec = json::object();
  PutString(spec, "schedulerName", pod.scheduler_name);
  if (pod.priority) spec["priority"] = *pod.priority;
  PutString(spec, "nodeName", pod.node_name);
  PutMap(spec, "nodeSelector", pod.node_selector);
  if (!pod.tolerations.empty()) {
    json arr = json::array();
    for (const Toleration& t : pod.tolerations) {
      json e = json::object();
      PutString(e, "key", t.key);
      PutString(e, "operator", t.op);
      PutString(e, "value", t.value);
      PutString(e, "effect", t.effect);
      if (t.toleration_seconds) e["tolerationSeconds"] = *t.toleration_seconds;
      arr.push_back(std::move(e));
    }
    spec["tolerations"] = std::move(arr);
  }
  if (!pod.scheduling_gates.empty()) {
    json arr = json::array();
    for (const std::string& g : pod.scheduling_gates) {
      arr.push_back({{"name", g}});
    }
    spec["schedulingGates"] = std::move(arr);
  }
  if (!pod.containers.empty()) {
    spec["containers"] = ContainersToJson(pod.containers);
  }
  if (!pod.init_containers.empty()) {
    spec["initContainers"] = ContainersToJson(pod.init_containers);
  }
  if (!pod.overhead.empty())
    spec["overhead"] = ResourceListToJson(pod.overhead);
  json affinity = json::object();
  if (pod.required_node_affinity) {
    json terms = json::array();
    for (const NodeSelectorTerm& term : *pod.required_node_affinity) {
      json e = json::object();
      if (!term.match_expressions.empty()) {
        e["matchExpressions"] = RequirementsToJson(term.match_expressions);
      }
      if (!term.match_fields.empty()) {
        e["matchFields"] = RequirementsToJson(term.match_fields);
      }
      terms.push_back(std::move(e));
    }
    affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
            ["nodeSelectorTerms"] = std::move(terms);
  }
  if (!pod.required_pod_affinity.empty()) {
    json terms = json::array();
    for (const PodAffinityTerm& term : pod.required_pod_affinity) {
      json e = json::object();
      if (term.label_selector) {
        e["labelSelector"] = LabelSelectorToJson(*term.label_selector);
      }
      PutList(e, "namespaces", term.namespaces);
      PutString(e, "topologyKey", term.topology_key);
      if (term.namespace_selector) {
        e["namespaceSelector"] = LabelSelectorToJson(*term.namespace_selector);
      }
      terms.push_back(std::move(e));
    }
    affinity["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] =
        std::move(terms);
  }
  if (!affinity.empty()) spec["affinity"] = std::move(affinity);

  json status = json::object();
  PutString(status, "nominatedNodeName", pod.nominated_node_name);
  return {{"metadata", std::move(meta)},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

json NodeToJson(const Node& node) {
  json meta = json::object();
  PutString(meta, "name", node.name);
  PutString(meta, "uid", node.uid);
  PutString(meta, "resourceVersion", node.resource_version);
  PutMap(meta, "labels", node.labels);
  json spec = json::object();
  if (node.unschedulable) spec["unschedulable"] = true;
  if (!node.taints.empty()) {
    json arr = json::array();
    for (const Taint& t : node.taints) {
      json e = json::object();
      PutString(e, "key", t.key);
      PutString(e, "value", t.value);
      PutString(e, "effect", t.effect);
      arr.push_back(std::move(e));
    }
    spec["taints"] = std::move(arr);
  }
  json status = json::object();
  if (!node.allocatable.empty()) {
    status["allocatable"] = ResourceListToJson(node.allocatable);
  }
  if (!node.conditions.empty()) {
    json arr = json::array();
    for (const NodeCondition& c : node.conditions) {
      json e = json::object();
      PutString(e, "type", c.type);
      PutString(e, "status", c.status);
      arr.push_back(std::move(e));
    }
    status["conditions"] = std::move(arr);
  }
  return {{"metadata", std::move(meta)},
          {"spec", std::move(spec)},
          {"status", std::move(status)}};
}

// ---------------------------------------------------------------------------
// Header and steps.

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
    events.push_back({{"resource", e.resource},
                      {"actions", StringListJson(e.actions)},
                      {"plugins", StringListJson(e.plugins)}});
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

// ---------------------------------------------------------------------------
// Out and state.

json OutToJson(const StepOut& out) {
  json j = json::object();
  if (out.popped_present) j["popped"] = out.popped ? json(*out.popped) : json();
  if (out.attempts) j["attempts"] = *out.attempts;
  if (out.error) j["error"] = true;
  if (out.fatal) j["fatal"] = true;
  if (out.result) {
    json r = {{"pod", out.result->pod}, {"outcome", out.result->outcome}};
    if (out.result->node) r["node"] = *out.result->node;
    if (out.result->plugins)
      r["plugins"] = StringListJson(*out.result->plugins);
    j["result"] = std::move(r);
  }
  if (!out.bindings.empty()) {
    json arr = json::array();
    for (const Binding& b : out.bindings) {
      arr.push_back({{"pod", b.pod}, {"node", b.node}});
    }
    j["bindings"] = std::move(arr);
  }
  if (!out.status_updates.empty()) {
    json arr = json::array();
    for (const StatusUpdate& u : out.status_updates) {
      arr.push_back({{"pod", u.pod},
                     {"reason", u.reason},
                     {"nominatedNodeName", u.nominated_node_name}});
    }
    j["statusUpdates"] = std::move(arr);
  }
  if (!out.events.empty()) {
    json arr = json::array();
    for (const EmittedEvent& e : out.events) {
      arr.push_back({{"pod", e.pod}, {"reason", e.reason}});
    }
    j["events"] = std::move(arr);
  }
  return j;
}

json StateToJson(const State& state) {
  json j = json::object();
  if (state.queue) {
    const QueueState& q = *state.queue;
    j["queue"] = {
        {"active", QueuedPodsToJson(q.active, false, false)},
        {"backoff", QueuedPodsToJson(q.backoff, true, false)},
        {"unschedulable", QueuedPodsToJson(q.unschedulable, false, true)},
        {"schedulingCycle", q.scheduling_cycle},
        {"moveRequestCycle", q.move_request_cycle}};
  }
  if (state.nominated) {
    json n = json::object();
    for (const auto& [node, pods] : *state.nominated) {
      n[node] = StringListJson(pods);
    }
    j["nominated"] = std::move(n);
  }
  if (state.cache) {
    const CacheState& c = *state.cache;
    json nodes = json::array();
    for (const NodeInfoState& n : c.nodes) {
      json requested = json::object();
      for (const auto& [name, amount] : n.requested) requested[name] = amount;
      nodes.push_back({{"name", n.name},
                       {"present", n.present},
                       {"pods", StringListJson(n.pods)},
                       {"requested", std::move(requested)}});
    }
    j["cache"] = {{"nodes", std::move(nodes)},
                  {"assumed", StringListJson(c.assumed)},
                  {"bindingFinished", StringListJson(c.binding_finished)}};
  }
  if (state.waiting) j["waiting"] = StringListJson(*state.waiting);
  if (state.parked) j["parked"] = StringListJson(*state.parked);
  return j;
}

namespace {

// Reads the list obj[key] of objects through `fn(element, path)`.
template <typename T, typename Fn>
absl::Status ReadList(const FieldReader& r, const json& obj,
                      absl::string_view parent, absl::string_view key,
                      std::vector<T>* out, Fn fn) {
  return ForEach(r, obj, parent, key,
                 [&](const json& e, const std::string& path) {
                   T item;
                   JF_RETURN_IF_ERROR(fn(e, path, &item));
                   out->push_back(std::move(item));
                   return absl::OkStatus();
                 });
}

}  // namespace

absl::StatusOr<StepOut> OutFromJson(const json& j) {
  FieldReader r("");
  const std::string field = "out";
  JF_RETURN_IF_ERROR(r.AsObject(j, field));
  StepOut out;
  if (auto it = j.find("popped"); it != j.end()) {
    out.popped_present = true;
    if (!it->is_null()) {
      std::string key;
      JF_RETURN_IF_ERROR(r.AsString(*it, "out.popped", &key));
      out.popped = std::move(key);
    }
  }
  if (const json* a = FieldReader::Find(j, "attempts")) {
    int n = 0;
    JF_RETURN_IF_ERROR(r.AsInt(*a, "out.attempts", &n));
    out.attempts = n;
  }
  JF_RETURN_IF_ERROR(r.Bool(j, field, "error", &out.error));
  JF_RETURN_IF_ERROR(r.Bool(j, field, "fatal", &out.fatal));
  const json* result = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "result", &result));
  if (result != nullptr) {
    const std::string path = "out.result";
    ScheduleResult res;
    JF_RETURN_IF_ERROR(r.String(*result, path, "pod", &res.pod, kRequired));
    JF_RETURN_IF_ERROR(
        r.String(*result, path, "outcome", &res.outcome, kRequired));
    JF_RETURN_IF_ERROR(r.OptString(*result, path, "node", &res.node));
    bool found = false;
    std::vector<std::string> plugins;
    JF_RETURN_IF_ERROR(r.StringList(*result, path, "plugins", &plugins,
                                    Presence::kOptional, &found));
    if (found) res.plugins = std::move(plugins);
    out.result = std::move(res);
  }
  JF_RETURN_IF_ERROR(
      ReadList(r, j, field, "bindings", &out.bindings,
               [&](const json& e, const std::string& p, Binding* b) {
                 JF_RETURN_IF_ERROR(r.String(e, p, "pod", &b->pod, kRequired));
                 return r.String(e, p, "node", &b->node, kRequired);
               }));
  JF_RETURN_IF_ERROR(ReadList(
      r, j, field, "statusUpdates", &out.status_updates,
      [&](const json& e, const std::string& p, StatusUpdate* u) {
        JF_RETURN_IF_ERROR(r.String(e, p, "pod", &u->pod, kRequired));
        JF_RETURN_IF_ERROR(r.String(e, p, "reason", &u->reason, kRequired));
        return r.String(e, p, "nominatedNodeName", &u->nominated_node_name);
      }));
  JF_RETURN_IF_ERROR(
      ReadList(r, j, field, "events", &out.events,
               [&](const json& e, const std::string& p, EmittedEvent* ev) {
                 JF_RETURN_IF_ERROR(r.String(e, p, "pod", &ev->pod, kRequired));
                 return r.String(e, p, "reason", &ev->reason, kRequired);
               }));
  return out;
}

absl::StatusOr<State> StateFromJson(const json& j) {
  FieldReader r("");
  const std::string field = "state";
  JF_RETURN_IF_ERROR(r.AsObject(j, field));
  State state;
  const json* queue = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "queue", &queue));
  if (queue != nullptr) {
    const std::string path = "state.queue";
    QueueState q;
    auto read_pod = [&](bool backoff, bool unschedulable) {
      return [&r, backoff, unschedulable](const json& e, const std::string& p,
                                          QueuedPod* qp) -> absl::Status {
        JF_RETURN_IF_ERROR(r.String(e, p, "pod", &qp->pod, kRequired));
        JF_RETURN_IF_ERROR(r.Int(e, p, "attempts", &qp->attempts));
        if (backoff) {
          JF_RETURN_IF_ERROR(
              r.Int64(e, p, "backoffExpiresAt", &qp->backoff_expires_at));
        }
        if (unschedulable) {
          JF_RETURN_IF_ERROR(r.StringList(e, p, "plugins", &qp->plugins));
          JF_RETURN_IF_ERROR(r.Bool(e, p, "gated", &qp->gated));
        }
        return absl::OkStatus();
      };
    };
    JF_RETURN_IF_ERROR(
        ReadList(r, *queue, path, "active", &q.active, read_pod(false, false)));
    JF_RETURN_IF_ERROR(ReadList(r, *queue, path, "backoff", &q.backoff,
                                read_pod(true, false)));
    JF_RETURN_IF_ERROR(ReadList(r, *queue, path, "unschedulable",
                                &q.unschedulable, read_pod(false, true)));
    JF_RETURN_IF_ERROR(
        r.Int64(*queue, path, "schedulingCycle", &q.scheduling_cycle));
    JF_RETURN_IF_ERROR(
        r.Int64(*queue, path, "moveRequestCycle", &q.move_request_cycle));
    state.queue = std::move(q);
  }
  const json* nominated = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "nominated", &nominated));
  if (nominated != nullptr) {
    Nominated n;
    for (const auto& [node, pods] : nominated->items()) {
      JF_RETURN_IF_ERROR(
          r.AsStringList(pods, FieldPath("state.nominated", node), &n[node]));
    }
    state.nominated = std::move(n);
  }
  const json* cache = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "cache", &cache));
  if (cache != nullptr) {
    const std::string path = "state.cache";
    CacheState c;
    JF_RETURN_IF_ERROR(ReadList(
        r, *cache, path, "nodes", &c.nodes,
        [&](const json& e, const std::string& p, NodeInfoState* n) {
          JF_RETURN_IF_ERROR(r.String(e, p, "name", &n->name, kRequired));
          JF_RETURN_IF_ERROR(r.Bool(e, p, "present", &n->present));
          JF_RETURN_IF_ERROR(r.StringList(e, p, "pods", &n->pods));
          const json* requested = nullptr;
          JF_RETURN_IF_ERROR(r.Object(e, p, "requested", &requested));
          if (requested != nullptr) {
            for (const auto& [name, amount] : requested->items()) {
              int64_t v = 0;
              JF_RETURN_IF_ERROR(r.AsInt64(
                  amount, FieldPath(FieldPath(p, "requested"), name), &v));
              if (v != 0) n->requested[name] = v;
            }
          }
          return absl::OkStatus();
        }));
    JF_RETURN_IF_ERROR(r.StringList(*cache, path, "assumed", &c.assumed));
    JF_RETURN_IF_ERROR(
        r.StringList(*cache, path, "bindingFinished", &c.binding_finished));
    state.cache = std::move(c);
  }
  bool found = false;
  std::vector<std::string> list;
  JF_RETURN_IF_ERROR(
      r.StringList(j, field, "waiting", &list, Presence::kOptional, &found));
  if (found) state.waiting = std::move(list);
  found = false;
  list.clear();
  JF_RETURN_IF_ERROR(
      r.StringList(j, field, "parked", &list, Presence::kOptional, &found));
  if (found) state.parked = std::move(list);
  return state;
}

}  // namespace schedtrace
