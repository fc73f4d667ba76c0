// The Kubernetes objects of a trace as JSON (objects_json.h).
#include "core/objects_json.h"

#include <initializer_list>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/go_rfc3339.h"
#include "core/json_fields.h"

namespace schedtrace {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------
// Decoding objects.

// Records `f` in `given` when `obj` has `key` as `{}` or `[]`: empty, but not
// nil as it would be absent or null (objects.h, GivenEmpty).
void NoteEmpty(const json& obj, absl::string_view key, Nilable f,
               GivenEmpty& given) {
  const json* v = FieldReader::Find(obj, key);
  if (v != nullptr && (v->is_object() || v->is_array()) && v->empty()) {
    given.Set(f);
  }
}

// Records `f` when `obj` has `key` (not null) but none of `inner`: a Go
// pointer to a struct that holds nothing we keep, present all the same.
void NotePresent(const json& obj, absl::string_view key,
                 std::initializer_list<absl::string_view> inner, Nilable f,
                 GivenEmpty& given) {
  const json* v = FieldReader::Find(obj, key);
  if (v == nullptr || !v->is_object()) return;
  for (absl::string_view k : inner) {
    if (FieldReader::Find(*v, k) != nullptr) return;
  }
  given.Set(f);
}

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

template <typename Req>
absl::Status ReadRequirements(const FieldReader& r, const json& obj,
                              absl::string_view parent, absl::string_view key,
                              std::vector<Req>* out) {
  return ForEachObject(
      r, obj, parent, key, [&](const json& e, const std::string& path) {
        Req req;
        JF_RETURN_IF_ERROR(r.String(e, path, "key", &req.key));
        JF_RETURN_IF_ERROR(r.String(e, path, "operator", &req.op));
        JF_RETURN_IF_ERROR(r.StringList(e, path, "values", &req.values));
        NoteEmpty(e, "values", Nilable::kValues, req.given_empty);
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
  NoteEmpty(*v, "matchLabels", Nilable::kMatchLabels, sel.given_empty);
  NoteEmpty(*v, "matchExpressions", Nilable::kMatchExpressions,
            sel.given_empty);
  *out = std::move(sel);
  return absl::OkStatus();
}

absl::Status ReadContainers(const FieldReader& r, const json& spec,
                            absl::string_view parent, absl::string_view key,
                            std::vector<Container>* out) {
  return ForEachObject(
      r, spec, parent, key, [&](const json& e, const std::string& path) {
        Container c;
        JF_RETURN_IF_ERROR(r.String(e, path, "name", &c.name));
        JF_RETURN_IF_ERROR(r.String(e, path, "image", &c.image));
        const json* res = nullptr;
        JF_RETURN_IF_ERROR(r.Object(e, path, "resources", &res));
        if (res != nullptr) {
          JF_RETURN_IF_ERROR(ReadResourceList(
              r, *res, FieldPath(path, "resources"), "requests", &c.requests));
          NoteEmpty(*res, "requests", Nilable::kRequests, c.given_empty);
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
      JF_RETURN_IF_ERROR(ForEachObject(
          r, *required, req_path, "nodeSelectorTerms",
          [&](const json& e, const std::string& term_path) {
            NodeSelectorTerm term;
            JF_RETURN_IF_ERROR(ReadRequirements(
                r, e, term_path, "matchExpressions", &term.match_expressions));
            JF_RETURN_IF_ERROR(ReadRequirements(r, e, term_path, "matchFields",
                                                &term.match_fields));
            NoteEmpty(e, "matchExpressions", Nilable::kMatchExpressions,
                      term.given_empty);
            NoteEmpty(e, "matchFields", Nilable::kMatchFields,
                      term.given_empty);
            terms.push_back(std::move(term));
            return absl::OkStatus();
          }));
      pod->required_node_affinity = std::move(terms);
      NoteEmpty(*required, "nodeSelectorTerms", Nilable::kNodeSelectorTerms,
                pod->given_empty);
    }
  }
  NotePresent(affinity, "nodeAffinity",
              {"requiredDuringSchedulingIgnoredDuringExecution"},
              Nilable::kNodeAffinity, pod->given_empty);
  NotePresent(affinity, "podAffinity",
              {"requiredDuringSchedulingIgnoredDuringExecution"},
              Nilable::kPodAffinity, pod->given_empty);
  const json* pod_aff = nullptr;
  JF_RETURN_IF_ERROR(r.Object(affinity, path, "podAffinity", &pod_aff));
  if (pod_aff != nullptr) {
    JF_RETURN_IF_ERROR(ForEachObject(
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
          NoteEmpty(e, "namespaces", Nilable::kNamespaces, term.given_empty);
          pod->required_pod_affinity.push_back(std::move(term));
          return absl::OkStatus();
        }));
    NoteEmpty(*pod_aff, "requiredDuringSchedulingIgnoredDuringExecution",
              Nilable::kPodAffinityTerms, pod->given_empty);
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Encoding objects: Go's encoding/json with empty fields omitted.

// Writes `m` unless it is nil (empty and not given empty).
void PutMap(json& obj, const char* key, const Labels& m,
            const GivenEmpty& given, Nilable f) {
  if (!m.empty() || given.Has(f))
    obj[key] = m.empty() ? json::object() : json(m);
}

void PutList(json& obj, const char* key, const std::vector<std::string>& l,
             const GivenEmpty& given, Nilable f) {
  if (!l.empty() || given.Has(f))
    obj[key] = l.empty() ? json::array() : json(l);
}

// Writes `list` unless it is nil: its entries as `to_json` makes them.
template <typename T, typename F>
void PutArray(json& obj, const char* key, const std::vector<T>& list,
              const GivenEmpty& given, Nilable f, F to_json) {
  if (list.empty() && !given.Has(f)) return;
  obj[key] = list.empty() ? json::array() : to_json(list);
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
    PutList(e, "values", req.values, req.given_empty, Nilable::kValues);
    arr.push_back(std::move(e));
  }
  return arr;
}

json LabelSelectorToJson(const LabelSelector& sel) {
  json j = json::object();
  PutMap(j, "matchLabels", sel.match_labels, sel.given_empty,
         Nilable::kMatchLabels);
  PutArray(j, "matchExpressions", sel.match_expressions, sel.given_empty,
           Nilable::kMatchExpressions,
           RequirementsToJson<LabelSelectorRequirement>);
  return j;
}

json ContainersToJson(const std::vector<Container>& containers) {
  json arr = json::array();
  for (const Container& c : containers) {
    json e = json::object();
    PutString(e, "name", c.name);
    PutString(e, "image", c.image);
    json res = json::object();
    if (!c.requests.empty() || c.given_empty.Has(Nilable::kRequests)) {
      res["requests"] = ResourceListToJson(c.requests);
    }
    e["resources"] = std::move(res);
    arr.push_back(std::move(e));
  }
  return arr;
}

json TolerationsToJson(const std::vector<Toleration>& tolerations) {
  json arr = json::array();
  for (const Toleration& t : tolerations) {
    json e = json::object();
    PutString(e, "key", t.key);
    PutString(e, "operator", t.op);
    PutString(e, "value", t.value);
    PutString(e, "effect", t.effect);
    if (t.toleration_seconds) e["tolerationSeconds"] = *t.toleration_seconds;
    arr.push_back(std::move(e));
  }
  return arr;
}

// The pod's spec.affinity, {} when it has none.
json AffinityToJson(const Pod& pod) {
  json affinity = json::object();
  if (pod.required_node_affinity) {
    json terms = json::array();
    for (const NodeSelectorTerm& term : *pod.required_node_affinity) {
      json e = json::object();
      PutArray(e, "matchExpressions", term.match_expressions, term.given_empty,
               Nilable::kMatchExpressions,
               RequirementsToJson<NodeSelectorRequirement>);
      PutArray(e, "matchFields", term.match_fields, term.given_empty,
               Nilable::kMatchFields,
               RequirementsToJson<NodeSelectorRequirement>);
      terms.push_back(std::move(e));
    }
    json required = json::object();
    if (!terms.empty() || pod.given_empty.Has(Nilable::kNodeSelectorTerms)) {
      required["nodeSelectorTerms"] = std::move(terms);
    }
    affinity["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] =
        std::move(required);
  } else if (pod.given_empty.Has(Nilable::kNodeAffinity)) {
    affinity["nodeAffinity"] = json::object();
  }
  if (!pod.required_pod_affinity.empty() ||
      pod.given_empty.Has(Nilable::kPodAffinityTerms)) {
    json terms = json::array();
    for (const PodAffinityTerm& term : pod.required_pod_affinity) {
      json e = json::object();
      if (term.label_selector) {
        e["labelSelector"] = LabelSelectorToJson(*term.label_selector);
      }
      PutList(e, "namespaces", term.namespaces, term.given_empty,
              Nilable::kNamespaces);
      PutString(e, "topologyKey", term.topology_key);
      if (term.namespace_selector) {
        e["namespaceSelector"] = LabelSelectorToJson(*term.namespace_selector);
      }
      terms.push_back(std::move(e));
    }
    affinity["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] =
        std::move(terms);
  } else if (pod.given_empty.Has(Nilable::kPodAffinity)) {
    affinity["podAffinity"] = json::object();
  }
  return affinity;
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
    // metav1.Time.UnmarshalJSON: time.Parse(time.RFC3339, ...). A time Go
    // refuses makes json.Unmarshal fail: no informer delivers such a pod.
    if (pod.deletion_timestamp) {
      absl::StatusOr<GoInstant> t = ParseGoRfc3339(*pod.deletion_timestamp);
      if (!t.ok()) {
        return r.Error(FieldPath(path, "deletionTimestamp"),
                       t.status().message());
      }
    }
    NoteEmpty(*meta, "labels", Nilable::kLabels, pod.given_empty);
    NoteEmpty(*meta, "annotations", Nilable::kAnnotations, pod.given_empty);
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
        ForEachObject(r, *spec, path, "tolerations",
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
        ForEachObject(r, *spec, path, "schedulingGates",
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
    NotePresent(*spec, "affinity", {"nodeAffinity", "podAffinity"},
                Nilable::kAffinity, pod.given_empty);
    NoteEmpty(*spec, "nodeSelector", Nilable::kNodeSelector, pod.given_empty);
    NoteEmpty(*spec, "tolerations", Nilable::kTolerations, pod.given_empty);
    NoteEmpty(*spec, "schedulingGates", Nilable::kSchedulingGates,
              pod.given_empty);
    NoteEmpty(*spec, "containers", Nilable::kContainers, pod.given_empty);
    NoteEmpty(*spec, "initContainers", Nilable::kInitContainers,
              pod.given_empty);
    NoteEmpty(*spec, "overhead", Nilable::kOverhead, pod.given_empty);
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
    NoteEmpty(*meta, "labels", Nilable::kLabels, node.given_empty);
  }
  const json* spec = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "spec", &spec));
  if (spec != nullptr) {
    std::string path = FieldPath(field, "spec");
    JF_RETURN_IF_ERROR(
        r.Bool(*spec, path, "unschedulable", &node.unschedulable));
    JF_RETURN_IF_ERROR(ForEachObject(
        r, *spec, path, "taints", [&](const json& e, const std::string& p) {
          Taint t;
          JF_RETURN_IF_ERROR(r.String(e, p, "key", &t.key));
          JF_RETURN_IF_ERROR(r.String(e, p, "value", &t.value));
          JF_RETURN_IF_ERROR(r.String(e, p, "effect", &t.effect));
          node.taints.push_back(std::move(t));
          return absl::OkStatus();
        }));
    NoteEmpty(*spec, "taints", Nilable::kTaints, node.given_empty);
  }
  const json* status = nullptr;
  JF_RETURN_IF_ERROR(r.Object(j, field, "status", &status));
  if (status != nullptr) {
    std::string path = FieldPath(field, "status");
    JF_RETURN_IF_ERROR(
        ReadResourceList(r, *status, path, "allocatable", &node.allocatable));
    JF_RETURN_IF_ERROR(
        ForEachObject(r, *status, path, "conditions",
                      [&](const json& e, const std::string& p) {
                        NodeCondition c;
                        JF_RETURN_IF_ERROR(r.String(e, p, "type", &c.type));
                        JF_RETURN_IF_ERROR(r.String(e, p, "status", &c.status));
                        node.conditions.push_back(std::move(c));
                        return absl::OkStatus();
                      }));
    NoteEmpty(*status, "allocatable", Nilable::kAllocatable, node.given_empty);
    NoteEmpty(*status, "conditions", Nilable::kConditions, node.given_empty);
  }
  return node;
}

json PodToJson(const Pod& pod) {
  json meta = json::object();
  PutString(meta, "name", pod.name);
  PutString(meta, "namespace", pod.namespace_);
  PutString(meta, "uid", pod.uid);
  PutString(meta, "resourceVersion", pod.resource_version);
  const GivenEmpty& given = pod.given_empty;
  PutMap(meta, "labels", pod.labels, given, Nilable::kLabels);
  PutMap(meta, "annotations", pod.annotations, given, Nilable::kAnnotations);
  if (pod.deletion_timestamp)
    meta["deletionTimestamp"] = *pod.deletion_timestamp;

  json spec = json::object();
  PutString(spec, "schedulerName", pod.scheduler_name);
  if (pod.priority) spec["priority"] = *pod.priority;
  PutString(spec, "nodeName", pod.node_name);
  PutMap(spec, "nodeSelector", pod.node_selector, given,
         Nilable::kNodeSelector);
  PutArray(spec, "tolerations", pod.tolerations, given, Nilable::kTolerations,
           TolerationsToJson);
  PutArray(spec, "schedulingGates", pod.scheduling_gates, given,
           Nilable::kSchedulingGates, [](const std::vector<std::string>& gs) {
             json arr = json::array();
             for (const std::string& g : gs) arr.push_back({{"name", g}});
             return arr;
           });
  PutArray(spec, "containers", pod.containers, given, Nilable::kContainers,
           ContainersToJson);
  PutArray(spec, "initContainers", pod.init_containers, given,
           Nilable::kInitContainers, ContainersToJson);
  if (!pod.overhead.empty() || given.Has(Nilable::kOverhead)) {
    spec["overhead"] = ResourceListToJson(pod.overhead);
  }
  json affinity = AffinityToJson(pod);
  if (!affinity.empty() || given.Has(Nilable::kAffinity)) {
    spec["affinity"] = std::move(affinity);
  }

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
  const GivenEmpty& given = node.given_empty;
  PutMap(meta, "labels", node.labels, given, Nilable::kLabels);
  json spec = json::object();
  if (node.unschedulable) spec["unschedulable"] = true;
  if (!node.taints.empty() || given.Has(Nilable::kTaints)) {
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
  if (!node.allocatable.empty() || given.Has(Nilable::kAllocatable)) {
    status["allocatable"] = ResourceListToJson(node.allocatable);
  }
  if (!node.conditions.empty() || given.Has(Nilable::kConditions)) {
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

}  // namespace schedtrace
