// Inside the step source (run/step_source.h): the informer
// perturbations and the hostile steps, written once for the three layers.
// Each layer's source describes its pods and nodes to them through a
// PerturbSubject (which pods the informer knows, which are in the middle of
// a scheduling cycle, how the layer builds a raced or re-created object);
// what each perturbation sends is decided here.
//
// The draws, per step (Perturb): the kinds in PerturbKind order; a kind
// with no target draws nothing, else it fires with its probability
// (drawing nothing when that is 0, so traces made without perturbations
// stay what they were) and then picks its target uniformly among the
// candidates (a race then draws whether it deletes, a node_burst how many
// updates). The fuzz targets draw them from their bytes like every other
// choice (fuzz/decoder.h).
#ifndef SCHEDTRACE_RUN_STEP_SOURCE_PERTURB_H_
#define SCHEDTRACE_RUN_STEP_SOURCE_PERTURB_H_

#include <map>
#include <utility>
#include <vector>

#include "core/objects.h"
#include "core/trace.h"
#include "run/choice_stream.h"
#include "run/gen_options.h"

namespace schedtrace::step_source {

// A layer's pods (by pool index) and nodes (by pool index), as the
// perturbations and hostile steps read and change them.
class PerturbSubject {
 public:
  virtual ~PerturbSubject() = default;
  virtual Layer layer() const = 0;

  // Pods the informer knows: resync, tombstone and re-create targets.
  virtual std::vector<int> Known() = 0;
  // Pods in the middle of a scheduling cycle (race targets): popped and not
  // given back (queue), assumed (cache), waiting on Permit or parked before
  // PreBind (scheduler).
  virtual std::vector<int> Busy() = 0;
  // The latest object sent for pod `i`, and the version an update replaced
  // while the same incarnation lives (what a tombstone may carry), or null.
  virtual PodPtr Latest(int i) = 0;
  virtual PodPtr Stale(int i) = 0;
  // The object a racing update sends for pod `i`.
  virtual PodPtr Raced(int i) = 0;
  // The chance that a race deletes the pod rather than updates it (0: the
  // layer has no such delete).
  virtual double RaceDeletes() const = 0;
  // A new incarnation of pod `i` under its name; `in_update`: carried by
  // one update (recreate_update), else added after its delete.
  virtual PodPtr Recreated(int i, bool in_update) = 0;
  // Pod `i` is now `pod` as the informer sees it (null: deleted).
  virtual void Sent(int i, PodPtr pod) = 0;

  // Nodes that exist, and of them those holding pods (node_recreate
  // prefers them); empty in the queue layer, which sees no nodes.
  virtual std::vector<int> Nodes() { return {}; }
  virtual std::vector<int> BusyNodes() { return {}; }
  virtual NodePtr NodeAt(int j) = 0;
  virtual NodePtr RecreatedNode(int j) = 0;
  // A node_burst update of node `j`: nothing the scheduler reads changes.
  virtual NodePtr NoOpUpdate(int j) = 0;
  virtual void SentNode(int j, NodePtr node) = 0;
};

// What the layer sources keep of their pods for the perturbations: the
// latest object sent per pool index (null: none) and the version an update
// replaced.
class KeptPods : public PerturbSubject {
 protected:
  PodPtr Latest(int i) override { return pods_[i]; }
  PodPtr Stale(int i) override {
    return prev_[i] && pods_[i] && prev_[i]->uid == pods_[i]->uid ? prev_[i]
                                                                  : nullptr;
  }
  void Sent(int i, PodPtr pod) override {
    prev_[i] = pod ? pods_[i] : nullptr;
    pods_[i] = std::move(pod);
  }

  std::map<int, PodPtr> pods_;  // the informer's view; null = absent
  std::map<int, PodPtr> prev_;  // the version before pods_[i], same uid
};

// One informer perturbation (step_source.h) into `step`, its later steps
// appended to `later`; false when none fired. A fired kind draws its target
// among its candidates (a tombstone's, the pods with a stale version if
// any; a node_recreate's, the nodes holding pods if any).
bool Perturb(const Perturbations& p, ChoiceStream& c, PerturbSubject& s,
             Step& step, std::vector<Step>& later);

}  // namespace schedtrace::step_source

#endif  // SCHEDTRACE_RUN_STEP_SOURCE_PERTURB_H_
