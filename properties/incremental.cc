#include "properties/incremental.h"

#include <algorithm>
#include <utility>

#include "absl/container/inlined_vector.h"

namespace schedtrace::properties {
namespace {

const std::string& KeyOf(const QueuedPod& q) { return q.pod; }
const std::string& KeyOf(const std::string& s) { return s; }

// Calls `f(key, delta)` for each key whose number of entries differs
// between `a` and `b` (delta = in b - in a), in key order. Equal prefixes
// and suffixes (by key) are skipped; the rest is sorted. Returns whether the
// sequences of keys differ.
template <typename T, typename F>
bool DiffKeys(const std::vector<T>& a, const std::vector<T>& b, F f) {
  size_t p = 0;
  while (p < a.size() && p < b.size() && KeyOf(a[p]) == KeyOf(b[p])) ++p;
  size_t s = 0;
  while (s < a.size() - p && s < b.size() - p &&
         KeyOf(a[a.size() - 1 - s]) == KeyOf(b[b.size() - 1 - s])) {
    ++s;
  }
  if (p + s == a.size() && p + s == b.size()) return false;
  absl::InlinedVector<std::pair<std::string_view, int>, 8> d;
  for (size_t i = p; i < a.size() - s; ++i) d.emplace_back(KeyOf(a[i]), -1);
  for (size_t i = p; i < b.size() - s; ++i) d.emplace_back(KeyOf(b[i]), +1);
  std::sort(d.begin(), d.end());
  for (size_t i = 0; i < d.size();) {
    int delta = 0;
    size_t j = i;
    for (; j < d.size() && d[j].first == d[i].first; ++j) delta += d[j].second;
    if (delta != 0) f(d[i].first, delta);
    i = j;
  }
  return true;
}

template <typename T>
const std::vector<T>& Or(const std::vector<T>* list) {
  static const std::vector<T> kEmpty;
  return list != nullptr ? *list : kEmpty;
}

template <typename T>
const T* Ptr(const std::optional<T>& part) {
  return part ? &*part : nullptr;
}

const std::vector<NodeInfoState>& Nodes(const State& s) {
  return Or(s.cache ? &s.cache->nodes : nullptr);
}

bool SortedByName(const std::vector<NodeInfoState>& nodes) {
  for (size_t i = 1; i < nodes.size(); ++i) {
    if (!(nodes[i - 1].name < nodes[i].name)) return false;
  }
  return true;
}

// Every key the step or its out names: the keys whose history the step may
// change (History::Observe).
void StepKeys(const Step& step, const StepOut& out,
              std::vector<std::string>* keys) {
  for (const PodPtr& p : {step.pod, step.old_pod, step.new_pod}) {
    if (p != nullptr) keys->push_back(p->Key());
  }
  if (!step.pod_key.empty()) keys->push_back(step.pod_key);
  for (const PodPtr& p : step.pods) {
    if (p != nullptr) keys->push_back(p->Key());
  }
  for (const std::string& k : step.pod_keys) keys->push_back(k);
  if (out.popped) keys->push_back(*out.popped);
  if (out.result) keys->push_back(out.result->pod);
  for (const Binding& b : out.bindings) keys->push_back(b.pod);
}

template <typename M>
void Emit(const M& standing, std::vector<Violation>* v) {
  for (const auto& [key, violation] : standing) v->push_back(violation);
}

}  // namespace

void IncrementalCheck::Move(std::string_view key, int Place::*field,
                            int delta) {
  auto it = places_.find(key);
  if (it == places_.end())
    it = places_.emplace(std::string(key), Place{}).first;
  auto [change, fresh] = changes_.try_emplace(std::string(key));
  if (fresh) change->second.was = it->second;
  it->second.*field += delta;
  change->second.is = it->second;
  if (it->second.empty()) places_.erase(it);
}

bool IncrementalCheck::DiffLists(const State& before, const State& after,
                                 const StateTouch* touch) {
  auto diff = [this](const auto& a, const auto& b, int Place::*field) {
    return DiffKeys(a, b, [&](std::string_view key, int delta) {
      Move(key, field, delta);
    });
  };
  // A list the step did not touch is as it was.
  auto touched = [touch](StateTouch::Part part) {
    return touch == nullptr || touch->Touches(part);
  };
  const QueueState* qa = Ptr(before.queue);
  const QueueState* qb = Ptr(after.queue);
  bool active_moved = false;
  if (touched(StateTouch::kActive)) {
    active_moved = diff(Or(qa ? &qa->active : nullptr),
                        Or(qb ? &qb->active : nullptr), &Place::active);
  }
  if (touched(StateTouch::kBackoff)) {
    diff(Or(qa ? &qa->backoff : nullptr), Or(qb ? &qb->backoff : nullptr),
         &Place::backoff);
  }
  if (touched(StateTouch::kUnschedulable)) {
    diff(Or(qa ? &qa->unschedulable : nullptr),
         Or(qb ? &qb->unschedulable : nullptr), &Place::unschedulable);
  }
  if (touched(StateTouch::kWaiting)) {
    diff(Or(Ptr(before.waiting)), Or(Ptr(after.waiting)), &Place::waiting);
  }
  if (touched(StateTouch::kParked)) {
    diff(Or(Ptr(before.parked)), Or(Ptr(after.parked)), &Place::parked);
  }
  if (touched(StateTouch::kAssumed)) {
    diff(Or(before.cache ? &before.cache->assumed : nullptr),
         Or(after.cache ? &after.cache->assumed : nullptr), &Place::assumed);
  }
  return active_moved;
}

bool IncrementalCheck::DiffNodes(const State& before, const State& after,
                                 std::vector<std::string>* touched,
                                 const StateTouch* touch) {
  const std::vector<NodeInfoState>& a = Nodes(before);
  const std::vector<NodeInfoState>& b = Nodes(after);
  // The NodeInfos the step touched, when it says which: none came or went,
  // and the lists are sorted by name (a system that says is held to both).
  std::vector<std::pair<const NodeInfoState*, const NodeInfoState*>>& named =
      touched_nodes_;
  named.clear();
  bool by_name = touch != nullptr && !touch->Touches(StateTouch::kNodeSet) &&
                 a.size() == b.size();
  if (by_name) {
    for (const std::string& name : touch->nodes()) {
      const NodeInfoState* x = FindNodeInfo(a, name);
      const NodeInfoState* y = FindNodeInfo(b, name);
      if (x == nullptr || y == nullptr) {
        by_name = x == y;  // in neither: nothing to diff
        if (!by_name) break;
        continue;
      }
      named.emplace_back(x, y);
    }
  }
  if (!by_name && (!SortedByName(a) || !SortedByName(b))) return false;
  auto pods = [this](const std::vector<std::string>& x,
                     const std::vector<std::string>& y,
                     const std::string& node) {
    DiffKeys(x, y, [&](std::string_view key, int delta) {
      auto it = node_pods_.find(key);
      if (it == node_pods_.end()) {
        it = node_pods_.emplace(std::string(key), std::vector<std::string>())
                 .first;
      }
      std::vector<std::string>& nodes = it->second;
      for (; delta > 0; --delta) nodes.push_back(node);
      for (; delta < 0; ++delta) {
        auto n = std::find(nodes.begin(), nodes.end(), node);
        if (n != nodes.end()) nodes.erase(n);
      }
      if (nodes.empty()) node_pods_.erase(it);
    });
  };
  if (by_name) {
    for (const auto& [x, y] : named) {
      if (*x == *y) continue;
      pods(x->pods, y->pods, y->name);
      touched->push_back(y->name);
    }
    return true;
  }
  static const std::vector<std::string> kNone;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].name < b[j].name)) {
      pods(a[i].pods, kNone, a[i].name);
      touched->push_back(a[i++].name);
    } else if (i == a.size() || b[j].name < a[i].name) {
      pods(kNone, b[j].pods, b[j].name);
      touched->push_back(b[j++].name);
    } else {
      if (!(a[i] == b[j])) {
        pods(a[i].pods, b[j].pods, b[j].name);
        touched->push_back(b[j].name);
      }
      ++i;
      ++j;
    }
  }
  return true;
}

IncrementalCheck::Touched IncrementalCheck::Update(const Observation& o) {
  const History& h = o.history;
  const State kEmpty;
  Touched t;
  const bool first = !indexed_;
  if (first) {  // where the keys stand before the first step
    DiffLists(kEmpty, o.before);
    indexed_ = true;
  }
  changes_.clear();
  t.active_moved =
      DiffLists(o.before, o.after, first ? nullptr : o.touch) || first;

  const bool first_nodes = !nodes_indexed_;
  if (first_nodes) {
    node_pods_.clear();
    nodes_.clear();
    t.nodes_ok = DiffNodes(kEmpty, o.before, &t.nodes);
  }
  if (t.nodes_ok) {
    t.nodes_ok =
        DiffNodes(o.before, o.after, &t.nodes, first_nodes ? nullptr : o.touch);
  }
  nodes_indexed_ = t.nodes_ok;
  if (first_nodes) {
    t.nodes.clear();
    for (const NodeInfoState& n : Nodes(o.after)) t.nodes.push_back(n.name);
  }

  // The touched keys, sorted.
  for (const auto& [key, change] : changes_) t.keys.push_back(key);
  StepKeys(o.step, o.out, &t.keys);
  if (first) {
    for (const auto& [key, place] : places_) t.keys.push_back(key);
    for (const auto& [key, pod] : h.informer()) t.keys.push_back(key);
  }
  std::sort(t.keys.begin(), t.keys.end());
  t.keys.erase(std::unique(t.keys.begin(), t.keys.end()), t.keys.end());
  return t;
}

IncrementalCheck::Place IncrementalCheck::PlaceOf(
    const std::string& key) const {
  auto it = places_.find(key);
  return it == places_.end() ? Place{} : it->second;
}

void IncrementalCheck::Check(const Observation& o,
                             std::vector<Violation>* violations) {
  const History& h = o.history;
  Touched t = Update(o);

  // 1. No pod in two queues.
  TwiceQueued(t, violations);

  // 2. Assumed pods are never requeued: only a key whose entries changed.
  for (const auto& [key, c] : changes_) {
    if (c.was.assumed > 0 && c.is.assumed > 0 &&
        c.is.queued() > c.was.queued() && !h.DifferentPodsUnderKey(key)) {
      violations->push_back(parts::Requeued(key));
    }
  }

  // 3, 4.
  parts::BoundButQueued(
      o, [&](const std::string& key) { return PlaceOf(key).queued() > 0; },
      violations);
  for (Violation& v : DeletedWaitingPodsAreRejected(o)) {
    violations->push_back(std::move(v));
  }

  // 5. No pending pod is lost.
  if (h.layer() == Layer::kScheduler) Lost(o, t, violations);

  // 6. Cache accounting.
  NodeAccounting(o, t, violations);

  // 7. Order and backoff.
  Order(o, t, violations);

  // 8, 9.
  for (Violation& v : Cycles(o)) violations->push_back(std::move(v));
  for (Violation& v : NominationsArePending(o)) {
    violations->push_back(std::move(v));
  }

  // 10. One copy.
  OneCopy(o, t, violations);

  // 11, step-local: it reads only the pods the History found unfit before
  // the step.
  for (Violation& v : NoLostWakeUp(o)) violations->push_back(std::move(v));
}

void IncrementalCheck::TwiceQueued(const Touched& t,
                                   std::vector<Violation>* violations) {
  for (const std::string& key : t.keys) {
    const int n = PlaceOf(key).queued();
    if (n > 1) {
      twice_queued_.insert_or_assign(key, parts::TwiceQueued(key, n));
    } else {
      twice_queued_.erase(key);
    }
  }
  Emit(twice_queued_, violations);
}

void IncrementalCheck::Lost(const Observation& o, const Touched& t,
                            std::vector<Violation>* violations) {
  const History& h = o.history;
  for (const std::string& key : t.keys) {
    auto it = h.informer().find(key);
    const Place p = PlaceOf(key);
    if (it != h.informer().end() && h.ServedAndPending(*it->second) &&
        p.queued() == 0 && p.waiting == 0 && p.parked == 0 && p.assumed == 0) {
      lost_.insert_or_assign(key, parts::Lost(key));
    } else {
      lost_.erase(key);
    }
  }
  Emit(lost_, violations);
}

// The touched NodeInfos and those holding a touched key (all of them when
// the nodes could not be diffed).
void IncrementalCheck::NodeAccounting(const Observation& o, Touched& t,
                                      std::vector<Violation>* violations) {
  if (!t.nodes_ok) {
    nodes_.clear();
    for (Violation& v : CacheAccounting(o)) violations->push_back(std::move(v));
    return;
  }
  for (const std::string& key : t.keys) {
    auto it = node_pods_.find(key);
    if (it == node_pods_.end()) continue;
    t.nodes.insert(t.nodes.end(), it->second.begin(), it->second.end());
  }
  std::sort(t.nodes.begin(), t.nodes.end());
  t.nodes.erase(std::unique(t.nodes.begin(), t.nodes.end()), t.nodes.end());
  const std::vector<NodeInfoState>& nodes = Nodes(o.after);
  for (const std::string& name : t.nodes) {
    const NodeInfoState* n = FindNodeInfo(nodes, name);
    std::vector<Violation> found;
    if (n != nullptr) {
      parts::NodeAccounting(*n, o.history, &found);
    }
    if (found.empty()) {
      nodes_.erase(name);
    } else {
      nodes_.insert_or_assign(name, std::move(found));
    }
  }
  for (const auto& [name, found] : nodes_) {
    violations->insert(violations->end(), found.begin(), found.end());
  }
}

// activeQ's order again when its keys moved or one of its keys was touched
// (the object an entry holds).
void IncrementalCheck::Order(const Observation& o, const Touched& t,
                             std::vector<Violation>* violations) {
  parts::PopOrder(o, violations);
  if (!o.after.queue) {
    active_order_.clear();
    return;
  }
  bool recheck = t.active_moved;
  for (size_t i = 0; i < t.keys.size() && !recheck; ++i) {
    recheck = PlaceOf(t.keys[i]).active > 0;
  }
  if (recheck) {
    active_order_.clear();
    parts::ActiveOrder(o.after.queue->active, o.history, &active_order_);
  }
  violations->insert(violations->end(), active_order_.begin(),
                     active_order_.end());
  parts::Backoffs(o.after.queue->backoff, o.history, violations);
}

void IncrementalCheck::OneCopy(const Observation& o, const Touched& t,
                               std::vector<Violation>* violations) {
  const History& h = o.history;
  for (const std::string& key : t.keys) {
    const Place p = PlaceOf(key);
    if (p.queued() > 0 &&
        (p.waiting > 0 || p.parked > 0 || h.in_flight().contains(key)) &&
        !h.DifferentPodsUnderKey(key)) {
      busy_.insert_or_assign(key, parts::Busy(key));
    } else {
      busy_.erase(key);
    }
  }
  Emit(busy_, violations);
}

}  // namespace schedtrace::properties
