#include "core/state_touch.h"

#include <algorithm>

namespace schedtrace {
namespace {

template <typename Nodes>
auto* FindNode(Nodes& nodes, const std::string& name) {
  auto it = std::lower_bound(
      nodes.begin(), nodes.end(), name,
      [](const NodeInfoState& n, const std::string& k) { return n.name < k; });
  return it != nodes.end() && it->name == name ? &*it : nullptr;
}

bool SortedByName(const std::vector<NodeInfoState>& nodes) {
  return std::is_sorted(nodes.begin(), nodes.end(),
                        [](const NodeInfoState& a, const NodeInfoState& b) {
                          return a.name < b.name;
                        });
}

bool NodesEqualIn(const std::vector<NodeInfoState>& a,
                  const std::vector<NodeInfoState>& b,
                  const StateTouch& touch) {
  if (touch.Touches(StateTouch::kNodeSet)) return a == b;
  // No NodeInfo came or went on either side since they were last equal.
  if (a.size() != b.size()) return false;
  for (const std::string& name : touch.nodes()) {
    const NodeInfoState* na = FindNode(a, name);
    const NodeInfoState* nb = FindNode(b, name);
    if (na == nullptr || nb == nullptr) {
      if (na != nb) return false;
      // Absent from both, or a list not sorted by name: compare whole.
      if (!SortedByName(a) || !SortedByName(b)) return a == b;
      continue;
    }
    if (!(*na == *nb)) return false;
  }
  return true;
}

template <typename T>
bool SamePresence(const std::optional<T>& a, const std::optional<T>& b) {
  return a.has_value() == b.has_value();
}

}  // namespace

const NodeInfoState* FindNodeInfo(const std::vector<NodeInfoState>& nodes,
                                  const std::string& name) {
  return FindNode(nodes, name);
}

NodeInfoState* FindNodeInfo(std::vector<NodeInfoState>& nodes,
                            const std::string& name) {
  return FindNode(nodes, name);
}

bool StateTouch::TouchesNode(std::string_view name) const {
  if (Touches(kNodeSet)) return true;
  const std::vector<std::string>& n = nodes();
  return std::binary_search(n.begin(), n.end(), name);
}

const std::vector<std::string>& StateTouch::nodes() const {
  if (!sorted_) {
    std::sort(nodes_.begin(), nodes_.end());
    nodes_.erase(std::unique(nodes_.begin(), nodes_.end()), nodes_.end());
    sorted_ = true;
  }
  return nodes_;
}

void StateTouch::SetAll() {
  parts_ = kAll;
  nodes_.clear();
  sorted_ = true;
}

void StateTouch::Clear() {
  parts_ = 0;
  nodes_.clear();
  sorted_ = true;
}

void StateTouch::AddNode(std::string_view name) {
  if (Touches(kNodeSet)) return;
  nodes_.emplace_back(name);
  sorted_ = false;
}

void StateTouch::Add(const StateTouch& other) {
  parts_ |= other.parts_;
  if (Touches(kNodeSet)) {
    nodes_.clear();
    sorted_ = true;
    return;
  }
  for (const std::string& name : other.nodes_) AddNode(name);
}

bool EqualIn(const State& a, const State& b, const StateTouch& touch) {
  if (touch.all()) return a == b;
  if (a.queue.has_value() != b.queue.has_value() ||
      a.nominated.has_value() != b.nominated.has_value() ||
      a.cache.has_value() != b.cache.has_value() ||
      a.waiting.has_value() != b.waiting.has_value() ||
      a.parked.has_value() != b.parked.has_value()) {
    return false;
  }
  using T = StateTouch;
  if (a.queue) {
    const QueueState &qa = *a.queue, &qb = *b.queue;
    if ((touch.Touches(T::kActive) && qa.active != qb.active) ||
        (touch.Touches(T::kBackoff) && qa.backoff != qb.backoff) ||
        (touch.Touches(T::kUnschedulable) &&
         qa.unschedulable != qb.unschedulable) ||
        (touch.Touches(T::kCycles) &&
         (qa.scheduling_cycle != qb.scheduling_cycle ||
          qa.move_request_cycle != qb.move_request_cycle))) {
      return false;
    }
  }
  if (a.nominated && touch.Touches(T::kNominated) &&
      *a.nominated != *b.nominated) {
    return false;
  }
  if (a.cache) {
    const CacheState &ca = *a.cache, &cb = *b.cache;
    if (!NodesEqualIn(ca.nodes, cb.nodes, touch) ||
        (touch.Touches(T::kAssumed) && ca.assumed != cb.assumed) ||
        (touch.Touches(T::kBindingFinished) &&
         ca.binding_finished != cb.binding_finished)) {
      return false;
    }
  }
  if (a.waiting && touch.Touches(T::kWaiting) && *a.waiting != *b.waiting) {
    return false;
  }
  if (a.parked && touch.Touches(T::kParked) && *a.parked != *b.parked) {
    return false;
  }
  return true;
}

void CopyTouched(const State& from, const StateTouch& touch, State& out) {
  if (touch.all() || !SamePresence(from.queue, out.queue) ||
      !SamePresence(from.nominated, out.nominated) ||
      !SamePresence(from.cache, out.cache) ||
      !SamePresence(from.waiting, out.waiting) ||
      !SamePresence(from.parked, out.parked)) {
    out = from;
    return;
  }
  using T = StateTouch;
  if (from.queue) {
    const QueueState& f = *from.queue;
    QueueState& o = *out.queue;
    if (touch.Touches(T::kActive)) o.active = f.active;
    if (touch.Touches(T::kBackoff)) o.backoff = f.backoff;
    if (touch.Touches(T::kUnschedulable)) o.unschedulable = f.unschedulable;
    if (touch.Touches(T::kCycles)) {
      o.scheduling_cycle = f.scheduling_cycle;
      o.move_request_cycle = f.move_request_cycle;
    }
  }
  if (from.nominated && touch.Touches(T::kNominated)) {
    *out.nominated = *from.nominated;
  }
  if (from.cache) {
    const CacheState& f = *from.cache;
    CacheState& o = *out.cache;
    if (touch.Touches(T::kNodeSet) || f.nodes.size() != o.nodes.size()) {
      o.nodes = f.nodes;
    } else {
      for (const std::string& name : touch.nodes()) {
        const NodeInfoState* n = FindNode(f.nodes, name);
        NodeInfoState* m = FindNode(o.nodes, name);
        if (n == nullptr && m == nullptr) continue;
        if (n == nullptr || m == nullptr) {
          o.nodes = f.nodes;
          break;
        }
        *m = *n;
      }
    }
    if (touch.Touches(T::kAssumed)) o.assumed = f.assumed;
    if (touch.Touches(T::kBindingFinished)) {
      o.binding_finished = f.binding_finished;
    }
  }
  if (from.waiting && touch.Touches(T::kWaiting)) *out.waiting = *from.waiting;
  if (from.parked && touch.Touches(T::kParked)) *out.parked = *from.parked;
}

}  // namespace schedtrace
