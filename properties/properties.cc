#include "properties/properties.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "core/upstream_versions.h"

namespace schedtrace::properties {
namespace {

// Keys of a State's lists, viewed in place and sorted. The States of any
// step are small in traces, fuzz inputs and tests, so the views stay inline
// and a property allocates nothing unless it fires.
using Keys = absl::InlinedVector<std::string_view, 16>;

// The State lists are sorted by contract; sorting the view anyway keeps a
// system that breaks the contract from breaking the checks.
Keys SortedView(const std::vector<std::string>& list) {
  Keys keys(list.begin(), list.end());
  std::sort(keys.begin(), keys.end());
  return keys;
}
Keys SortedView(const std::optional<std::vector<std::string>>& list) {
  return list ? SortedView(*list) : Keys();
}
Keys Assumed(const State& s) {
  return s.cache ? SortedView(s.cache->assumed) : Keys();
}

// Every key standing in the three queues of `s`, once per entry: a repeat
// is a pod in two queues, or twice in one.
Keys QueuedKeys(const State& s) {
  Keys keys;
  if (!s.queue) return keys;
  for (const auto* list :
       {&s.queue->active, &s.queue->backoff, &s.queue->unschedulable}) {
    for (const QueuedPod& q : *list) keys.push_back(q.pod);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

int Count(const Keys& sorted, std::string_view key) {
  auto [first, last] = std::equal_range(sorted.begin(), sorted.end(), key);
  return static_cast<int>(last - first);
}

bool Has(const Keys& sorted, std::string_view key) {
  return std::binary_search(sorted.begin(), sorted.end(), key);
}

// Calls `f(key, count)` once for each distinct key of `sorted`.
template <typename F>
void ForEachDistinct(const Keys& sorted, F f) {
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    f(sorted[i], static_cast<int>(j - i));
    i = j;
  }
}

// Whether `total` is the sum of `parts` as the cache adds them up
// (amounts wrap, zeros are not stored), without building the sum.
bool IsSumOf(const Resources& total, absl::Span<const Resources* const> parts) {
  auto sum = [&](const std::string& name) {
    uint64_t s = 0;  // the sums wrap, as int64 adds do in Go
    for (const Resources* p : parts) {
      auto it = p->find(name);
      if (it != p->end()) s += static_cast<uint64_t>(it->second);
    }
    return static_cast<int64_t>(s);
  };
  for (const auto& [name, amount] : total) {
    if (amount == 0 || sum(name) != amount) return false;
  }
  for (const Resources* p : parts) {
    for (const auto& [name, amount] : *p) {
      if (!total.contains(name) && sum(name) != 0) return false;
    }
  }
  return true;
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
  // v1.25 drops a pod's gates: nothing is gated.
  if (!UpstreamHasSchedulingGates(h.header().upstream)) return false;
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

namespace parts {

Violation TwiceQueued(std::string_view key, int n) {
  return Make(
      1, absl::StrCat(std::string(key), " stands ", n, " times in the queues"),
      {std::string(key)});
}

Violation Requeued(const std::string& key) {
  return Make(2, absl::StrCat(key, " is assumed and was requeued"), {key});
}

Violation Lost(const std::string& key) {
  return Make(
      5, absl::StrCat(key, " is pending but neither queued nor in a cycle"),
      {key});
}

Violation Busy(const std::string& key) {
  return Make(
      10, absl::StrCat(key, " is queued while in flight, waiting or parked"),
      {key});
}

void NodeAccounting(const NodeInfoState& n, const History& h,
                    std::vector<Violation>* v) {
  if (!n.present && n.pods.empty()) {
    v->push_back(
        Make(6, absl::StrCat("placeholder NodeInfo ", n.name, " holds no pods"),
             {}));
  }
  // What the cache counts for each pod: the requests of the object it
  // was given, without "pods" (NodeInfo.update never adds
  // AllowedPodNumber).
  absl::InlinedVector<const Resources*, 16> requests;
  for (const std::string& key : n.pods) {
    const Resources* r = h.CacheRequests(key);
    if (r == nullptr || h.AmbiguousInCache(key) || h.SecondRecordMayPop(key)) {
      return;  // uncheckable
    }
    requests.push_back(r);
  }
  if (!IsSumOf(n.requested, requests)) {
    v->push_back(Make(6,
                      absl::StrCat("node ", n.name,
                                   " requested differs from the sum over "
                                   "its pods"),
                      n.pods));
    v->back().node = n.name;
  }
}

// The first pod of `active` not in flight before the step (the history
// has seen the step: the pod it popped counts as not in flight before), or
// "" when there is none.
std::string FirstNotInFlight(const Observation& o,
                             const std::vector<QueuedPod>& active) {
  const std::set<std::string>& in_flight = o.history.popped_not_returned();
  for (const QueuedPod& q : active) {
    if (!in_flight.contains(q.pod) ||
        (o.out.popped && *o.out.popped == q.pod)) {
      return q.pod;
    }
  }
  return "";
}

bool InList(const std::vector<QueuedPod>& list, const std::string& key) {
  for (const QueuedPod& q : list) {
    if (q.pod == key) return true;
  }
  return false;
}

void PopOrder(const Observation& o, std::vector<Violation>* v) {
  const History& h = o.history;
  if (o.out.popped) {
    const std::string& key = *o.out.popped;
    PodPtr pod = h.QueuedObject(key, History::Slot::kInFlight);  // popped
    if (pod != nullptr && GatedBySchedulingGates(h, *pod)) {
      v->push_back(
          Make(7, absl::StrCat(key, " is gated but was popped"), {key}));
    }
    if (o.before.queue && UpstreamTracksPodsInFlight(h.header().upstream)) {
      // v1.35+: Pop discards a head already in flight and pops the next;
      // with activeQ empty it pops backoffQ (upstream's unlockedPop).
      const std::string head = FirstNotInFlight(o, o.before.queue->active);
      const bool ok =
          head.empty() ? InList(o.before.queue->backoff, key) : head == key;
      if (!ok) {
        v->push_back(
            Make(7,
                 absl::StrCat(
                     key, " was popped but the head of activeQ was ",
                     head.empty() ? "nothing (nor was it in backoffQ)" : head),
                 {key}));
      }
    } else if (o.before.queue) {
      const auto& active = o.before.queue->active;
      if (active.empty() || active.front().pod != key) {
        v->push_back(
            Make(7,
                 absl::StrCat(key, " was popped but the head of activeQ was ",
                              active.empty() ? "nothing" : active.front().pod),
                 {key}));
      }
    }
  } else if (o.out.popped_present && o.before.queue &&
             UpstreamTracksPodsInFlight(h.header().upstream)) {
    const std::string head = FirstNotInFlight(o, o.before.queue->active);
    if (!head.empty()) {
      v->push_back(
          Make(7, "the pop found nothing but activeQ was not empty", {head}));
    }
  } else if (o.out.popped_present && o.before.queue &&
             !o.before.queue->active.empty()) {
    v->push_back(Make(7, "the pop found nothing but activeQ was not empty",
                      {o.before.queue->active.front().pod}));
  }
}

void ActiveOrder(const std::vector<QueuedPod>& active, const History& h,
                 std::vector<Violation>* v) {
  // Ordered by the objects the entries hold, not the latest any step carried.
  for (size_t i = 1; i < active.size(); ++i) {
    PodPtr a = h.QueuedObject(active[i - 1].pod, History::Slot::kActive);
    PodPtr b = h.QueuedObject(active[i].pod, History::Slot::kActive);
    if (a != nullptr && b != nullptr && a->Priority() < b->Priority()) {
      v->push_back(Make(7,
                        absl::StrCat("activeQ holds ", a->Key(), " (priority ",
                                     a->Priority(), ") before ", b->Key(),
                                     " (priority ", b->Priority(), ")"),
                        {a->Key(), b->Key()}));
    }
  }
}

void Backoffs(const std::vector<QueuedPod>& backoff, const History& h,
              std::vector<Violation>* v) {
  const Config& c = h.header().config;
  for (const QueuedPod& q : backoff) {
    int64_t longest = MaxBackoffMs(c, q.attempts);
    if (q.backoff_expires_at - h.now() > longest) {
      v->push_back(
          Make(7,
               absl::StrCat(q.pod, " backs off until ", q.backoff_expires_at,
                            " at ", h.now(), " with ", q.attempts,
                            " attempts: longer than ", longest, " ms"),
               {q.pod}));
    }
  }
}

}  // namespace parts

std::vector<Violation> NoPodInTwoQueues(const Observation& o) {
  std::vector<Violation> v;
  ForEachDistinct(QueuedKeys(o.after), [&](std::string_view key, int n) {
    if (n > 1) v.push_back(parts::TwiceQueued(key, n));
  });
  return v;
}

std::vector<Violation> AssumedPodsNeverRequeued(const Observation& o) {
  std::vector<Violation> v;
  const Keys before = Assumed(o.before);
  if (before.empty()) return v;
  const Keys after = Assumed(o.after);
  const Keys was = QueuedKeys(o.before);
  const Keys is = QueuedKeys(o.after);
  ForEachDistinct(before, [&](std::string_view key, int) {
    if (!Has(after, key)) return;
    const std::string k(key);
    if (o.history.DifferentPodsUnderKey(k)) return;  // another uid
    if (Count(is, key) > Count(was, key)) v.push_back(parts::Requeued(k));
  });
  return v;
}

std::vector<Violation> BoundPodsLeaveTheQueue(const Observation& o) {
  std::vector<Violation> v;
  parts::BoundButQueued(
      o, [&o](const std::string& key) { return Has(QueuedKeys(o.after), key); },
      &v);
  return v;
}

std::vector<Violation> DeletedWaitingPodsAreRejected(const Observation& o) {
  std::vector<Violation> v;
  if (o.history.layer() != Layer::kScheduler) return v;
  if (o.step.op == Op::kPodDelete) {
    const std::string key = o.step.pod->Key();
    if (Has(SortedView(o.before.waiting), key)) {
      if (Has(SortedView(o.after.waiting), key)) {
        v.push_back(
            Make(4, absl::StrCat(key, " was deleted but still waits"), {key}));
      }
      // Counted: another pod of the key (an earlier uid, binding) may stay
      // assumed; the waiting one's assumption must go.
      const Keys assumed_before = Assumed(o.before);
      const Keys assumed_after = Assumed(o.after);
      if (Has(assumed_after, key) &&
          Count(assumed_after, key) >= Count(assumed_before, key)) {
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
  const Keys queued = QueuedKeys(o.after);
  const Keys waiting = SortedView(o.after.waiting);
  const Keys parked = SortedView(o.after.parked);
  const Keys assumed = Assumed(o.after);
  for (const auto& [key, pod] : o.history.informer()) {
    if (!o.history.ServedAndPending(*pod)) continue;
    if (Has(queued, key) || Has(waiting, key) || Has(parked, key) ||
        Has(assumed, key)) {
      continue;
    }
    v.push_back(parts::Lost(key));
  }
  return v;
}

std::vector<Violation> CacheAccounting(const Observation& o) {
  std::vector<Violation> v;
  if (!o.after.cache) return v;
  for (const NodeInfoState& n : o.after.cache->nodes) {
    parts::NodeAccounting(n, o.history, &v);
  }
  return v;
}

std::vector<Violation> OrderAndBackoff(const Observation& o) {
  std::vector<Violation> v;
  parts::PopOrder(o, &v);
  if (!o.after.queue) return v;
  parts::ActiveOrder(o.after.queue->active, o.history, &v);
  parts::Backoffs(o.after.queue->backoff, o.history, &v);
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
  const Keys waiting = SortedView(o.after.waiting);
  const Keys parked = SortedView(o.after.parked);
  ForEachDistinct(QueuedKeys(o.after), [&](std::string_view key, int) {
    const std::string k(key);
    if (!Has(waiting, key) && !Has(parked, key) &&
        !o.history.in_flight().contains(k)) {
      return;
    }
    if (o.history.DifferentPodsUnderKey(k)) return;  // another uid
    v.push_back(parts::Busy(k));
  });
  return v;
}

std::vector<Violation> NoLostWakeUp(const Observation& o) {
  std::vector<Violation> v;
  if (o.history.layer() != Layer::kScheduler || !o.after.queue) return v;
  for (const auto& [key, woken] : o.history.woken_but_stayed()) {
    const std::string there =
        woken.blocked_by.empty()
            ? "a node this step added"
            : absl::StrCat(woken.blocked_by, " rejected it there before");
    v.push_back(Make(
        11,
        absl::StrCat(key, " (rejected by ", absl::StrJoin(woken.plugins, ", "),
                     ") fits node ", woken.node, " after this step (", there,
                     ") and fitted no node before it, but stays in "
                     "unschedulablePods"),
        {key}));
    v.back().node = woken.node;
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
      {11, "no lost wake-up", &NoLostWakeUp},
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
  CheckAll(o, &all);
  return all;
}

void CheckAll(const Observation& o, std::vector<Violation>* violations) {
  for (const Property& p : AllProperties()) {
    for (Violation& v : p.check(o)) violations->push_back(std::move(v));
  }
}

}  // namespace schedtrace::properties
