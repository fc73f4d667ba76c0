// The out and the state of a step as JSON (out_state_json.h).
#include "core/out_state_json.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/json_fields.h"

namespace schedtrace {

using nlohmann::json;

namespace {

constexpr Presence kRequired = Presence::kRequired;

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

// state.queue.
absl::Status ReadQueue(const FieldReader& r, const json& queue, QueueState* q) {
  const std::string path = "state.queue";
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
  JF_RETURN_IF_ERROR(ReadObjectList(r, queue, path, "active", &q->active,
                                    read_pod(false, false)));
  JF_RETURN_IF_ERROR(ReadObjectList(r, queue, path, "backoff", &q->backoff,
                                    read_pod(true, false)));
  JF_RETURN_IF_ERROR(ReadObjectList(r, queue, path, "unschedulable",
                                    &q->unschedulable, read_pod(false, true)));
  JF_RETURN_IF_ERROR(
      r.Int64(queue, path, "schedulingCycle", &q->scheduling_cycle));
  JF_RETURN_IF_ERROR(
      r.Int64(queue, path, "moveRequestCycle", &q->move_request_cycle));
  return absl::OkStatus();
}

// state.cache.
absl::Status ReadCache(const FieldReader& r, const json& cache, CacheState* c) {
  const std::string path = "state.cache";
  JF_RETURN_IF_ERROR(ReadObjectList(
      r, cache, path, "nodes", &c->nodes,
      [&](const json& e, const std::string& at, NodeInfoState* n) {
        JF_RETURN_IF_ERROR(r.String(e, at, "name", &n->name, kRequired));
        // Past its name, a node's fields are named by it, as a divergence
        // names them: state.cache.nodes[n1].requested.cpu.
        const std::string p =
            n->name.empty()
                ? at
                : absl::StrCat(at.substr(0, at.rfind('[')), "[", n->name, "]");
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
  JF_RETURN_IF_ERROR(r.StringList(cache, path, "assumed", &c->assumed));
  JF_RETURN_IF_ERROR(
      r.StringList(cache, path, "bindingFinished", &c->binding_finished));
  return absl::OkStatus();
}

}  // namespace

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
  JF_RETURN_IF_ERROR(ReadObjectList(
      r, j, field, "bindings", &out.bindings,
      [&](const json& e, const std::string& p, Binding* b) {
        JF_RETURN_IF_ERROR(r.String(e, p, "pod", &b->pod, kRequired));
        return r.String(e, p, "node", &b->node, kRequired);
      }));
  JF_RETURN_IF_ERROR(ReadObjectList(
      r, j, field, "statusUpdates", &out.status_updates,
      [&](const json& e, const std::string& p, StatusUpdate* u) {
        JF_RETURN_IF_ERROR(r.String(e, p, "pod", &u->pod, kRequired));
        JF_RETURN_IF_ERROR(r.String(e, p, "reason", &u->reason, kRequired));
        return r.String(e, p, "nominatedNodeName", &u->nominated_node_name);
      }));
  JF_RETURN_IF_ERROR(ReadObjectList(
      r, j, field, "events", &out.events,
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
    QueueState q;
    JF_RETURN_IF_ERROR(ReadQueue(r, *queue, &q));
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
    CacheState c;
    JF_RETURN_IF_ERROR(ReadCache(r, *cache, &c));
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
