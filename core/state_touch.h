// What a step may have changed in a system's state: the parts of its
// snapshot, and in the cache the NodeInfos by name. A system says it after
// every Apply (System::Touched); the step driver then refreshes its
// snapshots, compares two systems and hands the properties only that
// (run/driver.h). A system that does not say has touched everything.
//
//   StateTouch t;
//   t.Clear();
//   t.Add(StateTouch::kActive);
//   t.AddNode("n1");
//   if (!EqualIn(a, b, t)) ...  // only activeQ and NodeInfo n1 compared
#ifndef SCHEDTRACE_CORE_STATE_TOUCH_H_
#define SCHEDTRACE_CORE_STATE_TOUCH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/state.h"

namespace schedtrace {

class StateTouch {
 public:
  // The parts of a snapshot (docs/FORMAT.md, "The state snapshot").
  enum Part : uint32_t {
    kActive = 1u << 0,         // queue.active
    kBackoff = 1u << 1,        // queue.backoff
    kUnschedulable = 1u << 2,  // queue.unschedulable
    kCycles = 1u << 3,         // queue.schedulingCycle, moveRequestCycle
    kNominated = 1u << 4,
    kNodeSet = 1u << 5,  // NodeInfos added or removed: every NodeInfo
    kAssumed = 1u << 6,
    kBindingFinished = 1u << 7,
    kWaiting = 1u << 8,
    kParked = 1u << 9,
    kAll = (1u << 10) - 1,
  };

  // Everything, until told otherwise.
  StateTouch() = default;

  bool all() const { return parts_ == kAll; }
  bool Touches(Part part) const { return (parts_ & part) != 0; }
  // Whether NodeInfo `name` may have changed.
  bool TouchesNode(std::string_view name) const;
  // The NodeInfos named one by one (sorted, no duplicates); every NodeInfo
  // when kNodeSet is touched.
  const std::vector<std::string>& nodes() const;

  void SetAll();
  void Clear();  // nothing touched
  void Add(Part part) { parts_ |= part; }
  void AddNode(std::string_view name);
  void Add(const StateTouch& other);

 private:
  uint32_t parts_ = kAll;
  // Unsorted while being added to; sorted by nodes().
  mutable std::vector<std::string> nodes_;
  mutable bool sorted_ = true;
};

// The NodeInfo named `name` in a list sorted by name, as a snapshot's is;
// null when absent.
const NodeInfoState* FindNodeInfo(const std::vector<NodeInfoState>& nodes,
                                  const std::string& name);
NodeInfoState* FindNodeInfo(std::vector<NodeInfoState>& nodes,
                            const std::string& name);

// Whether `a` and `b` are equal in the parts and NodeInfos `touch` names;
// what it does not name is not compared. Both NodeInfo lists sorted by name
// (as the spec says), or every NodeInfo is compared.
bool EqualIn(const State& a, const State& b, const StateTouch& touch);

// `out`, which equals `from` but in what `touch` names, made equal to it by
// copying that alone (into `out`'s storage).
void CopyTouched(const State& from, const StateTouch& touch, State& out);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_STATE_TOUCH_H_
