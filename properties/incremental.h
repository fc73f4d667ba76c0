// The properties evaluated on what a step changed: the same violations, in
// the same order, with the same words as CheckAll (properties.h), which stays
// the reference (properties/incremental_test.cc runs the two side by side).
//
// A step changes few pods and nodes, but a full check re-reads every pod
// of a state of 20,000. This one keeps, from step to step:
//   - where each key stands in the state after the last step (how often in
//     activeQ, backoffQ, unschedulablePods, waiting, parked, assumed),
//     updated from a diff of the step's `before` and `after` (equal prefixes
//     and suffixes of each list are skipped; only the middles are sorted);
//   - which NodeInfos hold each key (the nodes' pods), likewise;
//   - the violations of the properties that hold over the whole state (1, 5,
//     6, activeQ's order in 7, 10), by key or node, which a step leaves as
//     they were unless it touched that key or node.
// A key is touched when its place in the lists changed, or the step or its
// out names it (the only keys whose history a step changes: History::Observe);
// a node when its NodeInfo changed, or it holds a touched key. The step-local
// properties (2, 3, 4, the pop and the backoffs of 7, 8, 11) and the
// nominations (9) are evaluated as the full check does, on the lists' diff
// where they read the queues.
//
// It reads only the states, the step, its out and the history: what any
// system shows. When the system says what its step touched
// (Observation::touch), the lists and NodeInfos it did not touch are not
// diffed at all. States must follow each other (each call's `before` is the
// previous call's `after`, as the replayer passes them); NodeInfos must be
// sorted by name, as the spec says, or property 6 is checked in full for
// that step and its index rebuilt.
//
//   IncrementalCheck check;
//   ... after each step, the history fed:
//   check.Check(Observation{before, step, out, after, history}, &violations);
#ifndef SCHEDTRACE_PROPERTIES_INCREMENTAL_H_
#define SCHEDTRACE_PROPERTIES_INCREMENTAL_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "properties/properties.h"

namespace schedtrace::properties {

class IncrementalCheck {
 public:
  // Appends what CheckAll(o, violations) would append.
  void Check(const Observation& o, std::vector<Violation>* violations);

  // Where a key stands in a state: entries per list.
  struct Place {
    int active = 0, backoff = 0, unschedulable = 0;
    int waiting = 0, parked = 0, assumed = 0;
    int queued() const { return active + backoff + unschedulable; }
    bool empty() const {
      return queued() == 0 && waiting == 0 && parked == 0 && assumed == 0;
    }
  };

 private:
  struct Change {
    Place was, is;
  };
  using KeyMap = std::map<std::string, Place, std::less<>>;
  // Adds `delta` entries of `key` to `field`, noting the change.
  void Move(std::string_view key, int Place::*field, int delta);
  // The lists of `before` and `after` diffed into places_ and changes_;
  // whether activeQ's order of keys changed.
  bool DiffLists(const State& before, const State& after,
                 const StateTouch* touch = nullptr);
  // The NodeInfos diffed into node_pods_; the nodes that changed, appended
  // to `*touched`. False when the nodes are not sorted by name.
  bool DiffNodes(const State& before, const State& after,
                 std::vector<std::string>* touched,
                 const StateTouch* touch = nullptr);
  void Index(const State& state);  // from nothing: the first call
  void IndexNodes(const State& state);

  // What Check's step changed: the touched keys (sorted), the touched
  // NodeInfos, whether the nodes could be diffed and whether activeQ's
  // order of keys moved.
  struct Touched {
    std::vector<std::string> keys, nodes;
    bool nodes_ok = true;
    bool active_moved = false;
  };
  Touched Update(const Observation& o);
  Place PlaceOf(const std::string& key) const;
  // Check's properties that keep standing violations (numbered as in
  // properties.h).
  void TwiceQueued(const Touched& t, std::vector<Violation>* violations);
  void Lost(const Observation& o, const Touched& t,
            std::vector<Violation>* violations);
  void NodeAccounting(const Observation& o, Touched& t,
                      std::vector<Violation>* violations);
  void Order(const Observation& o, const Touched& t,
             std::vector<Violation>* violations);
  void OneCopy(const Observation& o, const Touched& t,
               std::vector<Violation>* violations);

  // DiffNodes' scratch: the touched NodeInfos before and after.
  std::vector<std::pair<const NodeInfoState*, const NodeInfoState*>>
      touched_nodes_;
  bool indexed_ = false;
  bool nodes_indexed_ = false;
  KeyMap places_;  // of the last `after`; no empty places
  std::map<std::string, Change, std::less<>> changes_;  // this step's
  // key -> the NodeInfos holding it (names, once per entry)
  std::map<std::string, std::vector<std::string>, std::less<>> node_pods_;
  // The standing violations, by key or node name.
  std::map<std::string, Violation, std::less<>> twice_queued_;        // 1
  std::map<std::string, Violation, std::less<>> lost_;                // 5
  std::map<std::string, std::vector<Violation>, std::less<>> nodes_;  // 6
  std::vector<Violation> active_order_;                               // 7
  std::map<std::string, Violation, std::less<>> busy_;                // 10
};

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_INCREMENTAL_H_
