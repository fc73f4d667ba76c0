#include "properties/properties.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/resources.h"

namespace schedtrace::properties {
namespace {

// How many times each key stands in the three queues of `s`.
std::map<std::string, int> QueueCounts(const State& s) {
  std::map<std::string, int> counts;
  if (!s.queue) return counts;
  for (const auto* list :
       {&s.queue->active, &s.queue->backoff, &s.queue->unschedulable}) {
    for (const QueuedPod& q : *list) ++counts[q.pod];
  }
  return counts;
}

bool InQueue(const State& s, const std::string& key) {
  return QueueCounts(s).contains(key);
}

std::set<std::string> AsSet(const std::optional<std::vector<std::string>>& v) {
  return v ? std::set<std::string>(v->begin(), v->end())
           : std::set<std::string>{};
}

std::set<std::string> Assumed(const State& s) {
  return s.cache ? std::set<std::string>(s.cache->assumed.begin(),
                                         s.cache->assumed.end())
                 : std::set<std::string>{};
}

Violation Make(int property, std::string detail,
               std::vector<std::string> pods) {
  return Violation{property, std::move(detail), std::move(pods)};
}

// min(initial * 2^(attempts-1), max) in ms, without overflow.
int64_t MaxBackoffMs(const Config& c, int attempts) {
  int64_t d = c.pod_initial_backoff_ms;
  for (int i = 1; i < attempts && d < c.pod_max_backoff_ms; ++i) d *= 2;
  return std::min(d, c.pod_max_backoff_ms);
}

bool GatedBySchedulingGates(const History& h, const Pod& pod) {
  if (pod.scheduling_gates.empty()) return false;
  auto it = h.header().config.pre_enqueue_plugins.find(pod.scheduler_name);
  if (it == h.header().config.pre_enqueue_plugins.end()) return false;
  return std::find(it->second.begin(), it->second.end(), "SchedulingGates") !=
         it->second.end();
}

}  // namespace

std::string Violation::Format() const {
  return absl::StrCat("property ", property, " (",
                      std::string(PropertyName(property)), "): ", detail,
                      " [pods: ", absl::StrJoin(pods, ", "), "]");
}

std::vector<Violation> NoPodInTwoQueues(const Observation& o) {
  std::vector<Violation> v;
  for (const auto& [key, n] : QueueCounts(o.after)) {
    if (n > 1) {
      v.push_back(Make(
          1, absl::StrCat(key, " stands ", n, " times in the queues"), {key}));
    }
  }
  return v;
}

std::vector<Violation> AssumedPodsNeverRequeued(const Observation& o) {
  std::vector<Violation> v;
  std::set<std::string> before = Assumed(o.before);
  std::set<std::string> after = Assumed(o.after);
  std::map<std::string, int> was = QueueCounts(o.before);
  std::map<std::string, int> is = QueueCounts(o.after);
  for (const std::string& key : before) {
    if (!after.contains(key)) continue;
    if (o.history.DifferentPodsUnderKey(key)) continue;  // another uid
    if (is[key] > was[key]) {
      v.push_back(
          Make(2, absl::StrCat(key, " is assumed and was requeued"), {key}));
    }
  }
  return v;
}

std::vector<Violation> BoundPodsLeaveTheQueue(const Observation& o) {
  std::vector<Violation> v;
  if (o.history.layer() != Layer::kScheduler) return v;
  PodPtr delivered;
  if (o.step.op == Op::kPodAdd) delivered = o.step.pod;
  if (o.step.op == Op::kPodUpdate) delivered = o.step.new_pod;
  if (delivered == nullptr || delivered->node_name.empty()) return v;
  if (InQueue(o.after, delivered->Key())) {
    v.push_back(Make(3,
                     absl::StrCat(delivered->Key(), " is bound to ",
                                  delivered->node_name, " but still queued"),
                     {delivered->Key()}));
  }
  return v;
}

std::vector<Violation> DeletedWaitingPodsAreRejected(const Observation& o) {
  std::vector<Violation> v;
  if (o.history.layer() != Layer::kScheduler) return v;
  if (o.step.op == Op::kPodDelete) {
    const std::string key = o.step.pod->Key();
    if (AsSet(o.before.waiting).contains(key)) {
      if (AsSet(o.after.waiting).contains(key)) {
        v.push_back(
            Make(4, absl::StrCat(key, " was deleted but still waits"), {key}));
      }
      if (Assumed(o.after).contains(key)) {
        v.push_back(Make(
            4, absl::StrCat(key, " was deleted while waiting but is assumed"),
            {key}));
      }
    }
  }
  for (const Binding& b : o.out.bindings) {
    if (o.history.deleted_while_waiting().contains(b.pod)) {
      v.push_back(
          Make(4,
               absl::StrCat(b.pod, " was deleted while waiting but bound to ",
                            b.node),
               {b.pod}));
    }
  }
  return v;
}

std::vector<Violation> NoPendingPodIsLost(const Observation& o) {
  std::vector<Violation> v;
  if (o.history.layer() != Layer::kScheduler) return v;
  std::map<std::string, int> queued = QueueCounts(o.after);
  std::set<std::string> waiting = AsSet(o.after.waiting);
  std::set<std::string> parked = AsSet(o.after.parked);
  std::set<std::string> assumed = Assumed(o.after);
  for (const auto& [key, pod] : o.history.informer()) {
    if (!o.history.ServedAndPending(*pod)) continue;
    if (queued.contains(key) || waiting.contains(key) || parked.contains(key) ||
        assumed.contains(key)) {
      continue;
    }
    v.push_back(Make(
        5, absl::StrCat(key, " is pending but neither queued nor in a cycle"),
        {key}));
  }
  return v;
}

std::vector<Violation> CacheAccounting(const Observation& o) {
  std::vector<Violation> v;
  if (!o.after.cache) return v;
  for (const NodeInfoState& n : o.after.cache->nodes) {
    if (!n.present && n.pods.empty()) {
      v.push_back(Make(
          6, absl::StrCat("placeholder NodeInfo ", n.name, " holds no pods"),
          {}));
    }
    Resources sum;
    bool checkable = true;
    for (const std::string& key : n.pods) {
      PodPtr pod = o.history.CacheObject(key);
      if (pod == nullptr || o.history.AmbiguousInCache(key)) {
        checkable = false;
        break;
      }
      Resources requests = PodRequests(*pod);
      requests.erase("pods");  // NodeInfo.update never adds AllowedPodNumber
      AddResources(sum, requests);
    }
    if (checkable && sum != n.requested) {
      v.push_back(Make(6,
                       absl::StrCat("node ", n.name,
                                    " requested differs from the sum over "
                                    "its pods"),
                       n.pods));
      v.back().node = n.name;
    }
  }
  return v;
}

std::vector<Violation> OrderAndBackoff(const Observation& o) {
  std::vector<Violation> v;
  const History& h = o.history;
  if (o.out.popped) {
    const std::string& key = *o.out.popped;
    PodPtr pod = h.QueuedObject(key, History::Slot::kInFlight);  // popped
    if (pod != nullptr && GatedBySchedulingGates(h, *pod)) {
      v.push_back(
          Make(7, absl::StrCat(key, " is gated but was popped"), {key}));
    }
    if (o.before.queue) {
      const auto& active = o.before.queue->active;
      if (active.empty() || active.front().pod != key) {
        v.push_back(
            Make(7,
                 absl::StrCat(key, " was popped but the head of activeQ was ",
                              active.empty() ? "nothing" : active.front().pod),
                 {key}));
      }
    }
  } else if (o.out.popped_present && o.before.queue &&
             !o.before.queue->active.empty()) {
    v.push_back(Make(7, "the pop found nothing but activeQ was not empty",
                     {o.before.queue->active.front().pod}));
  }
  if (!o.after.queue) return v;
  // Ordered by the objects the entries hold, not the latest any step carried.
  const auto& active = o.after.queue->active;
  for (size_t i = 1; i < active.size(); ++i) {
    PodPtr a = h.QueuedObject(active[i - 1].pod, History::Slot::kActive);
    PodPtr b = h.QueuedObject(active[i].pod, History::Slot::kActive);
    if (a != nullptr && b != nullptr && a->Priority() < b->Priority()) {
      v.push_back(Make(7,
                       absl::StrCat("activeQ holds ", a->Key(), " (priority ",
                                    a->Priority(), ") before ", b->Key(),
                                    " (priority ", b->Priority(), ")"),
                       {a->Key(), b->Key()}));
    }
  }
  const Config& c = h.header().config;
  for (const QueuedPod& q : o.after.queue->backoff) {
    int64_t longest = MaxBackoffMs(c, q.attempts);
    if (q.backoff_expires_at - h.now() > longest) {
      v.push_back(
          Make(7,
               absl::StrCat(q.pod, " backs off until ", q.backoff_expires_at,
                            " at ", h.now(), " with ", q.attempts,
                            " attempts: longer than ", longest, " ms"),
               {q.pod}));
    }
  }
  return v;
}

std::vector<Violation> Cycles(const Observation& o) {
  std::vector<Violation> v;
  if (!o.after.queue) return v;
  const QueueState& q = *o.after.queue;
  if (o.before.queue && q.scheduling_cycle < o.before.queue->scheduling_cycle) {
    v.push_back(Make(8,
                     absl::StrCat("schedulingCycle went from ",
                                  o.before.queue->scheduling_cycle, " to ",
                                  q.scheduling_cycle),
                     {}));
  }
  if (q.move_request_cycle > q.scheduling_cycle) {
    v.push_back(
        Make(8,
             absl::StrCat("moveRequestCycle ", q.move_request_cycle,
                          " is after schedulingCycle ", q.scheduling_cycle),
             {}));
  }
  return v;
}

std::vector<Violation> NominationsArePending(const Observation& o) {
  std::vector<Violation> v;
  if (o.history.layer() != Layer::kScheduler || !o.after.nominated) return v;
  for (const auto& [node, keys] : *o.after.nominated) {
    for (const std::string& key : keys) {
      auto it = o.history.informer().find(key);
      if (it == o.history.informer().end() || !it->second->node_name.empty()) {
        v.push_back(Make(9,
                         absl::StrCat(key, " is nominated to \"", node,
                                      "\" but is not pending"),
                         {key}));
      }
    }
  }
  return v;
}

std::vector<Violation> OneCopy(const Observation& o) {
  std::vector<Violation> v;
  std::set<std::string> busy = AsSet(o.after.waiting);
  for (const std::string& k : AsSet(o.after.parked)) busy.insert(k);
  for (const std::string& k : o.history.in_flight()) busy.insert(k);
  for (const auto& [key, n] : QueueCounts(o.after)) {
    if (o.history.DifferentPodsUnderKey(key)) continue;  // another uid
    if (busy.contains(key)) {
      v.push_back(Make(10,
                       absl::StrCat(key,
                                    " is queued while in flight, waiting or "
                                    "parked"),
                       {key}));
    }
  }
  return v;
}

const std::vector<Property>& AllProperties() {
  static const std::vector<Property> kAll = {
      {1, "no pod in two queues", &NoPodInTwoQueues},
      {2, "assumed pods are never requeued", &AssumedPodsNeverRequeued},
      {3, "bound pods leave the queue", &BoundPodsLeaveTheQueue},
      {4, "deleted waiting pods are rejected", &DeletedWaitingPodsAreRejected},
      {5, "no pending pod is lost", &NoPendingPodIsLost},
      {6, "cache accounting", &CacheAccounting},
      {7, "order and backoff", &OrderAndBackoff},
      {8, "cycles", &Cycles},
      {9, "nominations are pending", &NominationsArePending},
      {10, "one copy", &OneCopy},
  };
  return kAll;
}

std::string_view PropertyName(int id) {
  for (const Property& p : AllProperties()) {
    if (p.id == id) return p.name;
  }
  return "unknown property";
}

std::vector<Violation> CheckAll(const Observation& o) {
  std::vector<Violation> all;
  for (const Property& p : AllProperties()) {
    for (Violation& v : p.check(o)) all.push_back(std::move(v));
  }
  return all;
}

}  // namespace schedtrace::properties
