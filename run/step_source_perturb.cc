// The informer perturbations, once for every layer (step_source_perturb.h).
#include "run/step_source_perturb.h"

#include <utility>

#include "run/step_source_layers.h"

namespace schedtrace::step_source {
namespace {

// The ops that carry a layer's pods and nodes.
struct LayerOps {
  Op add, update, remove;
  Op node_add, node_update, node_remove;
};

LayerOps OpsOf(Layer layer) {
  switch (layer) {
    case Layer::kQueue:
      return {Op::kQAdd, Op::kQUpdate, Op::kQDelete,
              Op::kQAdd, Op::kQUpdate, Op::kQDelete};  // (no nodes)
    case Layer::kCache:
      return {Op::kCAddPod,  Op::kCUpdatePod,  Op::kCRemovePod,
              Op::kCAddNode, Op::kCUpdateNode, Op::kCRemoveNode};
    case Layer::kScheduler:
      break;
  }
  return {Op::kPodAdd,  Op::kPodUpdate,  Op::kPodDelete,
          Op::kNodeAdd, Op::kNodeUpdate, Op::kNodeDelete};
}

int Pick(ChoiceStream& c, const std::vector<int>& v) {
  return v[c.Uniform(0, static_cast<int>(v.size()) - 1)];
}

void Update(Step& step, Op op, PodPtr old_pod, PodPtr new_pod) {
  step.op = op;
  step.old_pod = std::move(old_pod);
  step.new_pod = std::move(new_pod);
}

// The targets kind `kind` may aim at.
std::vector<int> Candidates(PerturbKind kind, PerturbSubject& s) {
  switch (kind) {
    case PerturbKind::kRace:
      return s.Busy();
    case PerturbKind::kTombstone: {
      // Rather a pod with a stale version to carry.
      std::vector<int> known = s.Known(), stale;
      for (int i : known) {
        if (s.Stale(i)) stale.push_back(i);
      }
      return stale.empty() ? known : stale;
    }
    case PerturbKind::kNodeRecreate: {
      // Rather a node that still holds pods: the case worth testing.
      std::vector<int> busy = s.BusyNodes();
      return busy.empty() ? s.Nodes() : busy;
    }
    case PerturbKind::kNodeBurst:
      return s.Nodes();
    default:
      return s.Known();
  }
}

// Kind `kind` aimed at pod or node `i`.
void Apply(PerturbKind kind, int i, ChoiceStream& c, PerturbSubject& s,
           Step& step, std::vector<Step>& later) {
  const LayerOps ops = OpsOf(s.layer());
  switch (kind) {
    case PerturbKind::kResync:  // the latest object unchanged
      Update(step, ops.update, s.Latest(i), s.Latest(i));
      return;
    case PerturbKind::kRace: {  // an update (or delete) mid-cycle
      if (Fire(c, s.RaceDeletes())) {
        step.op = ops.remove;
        step.pod = s.Latest(i);
        s.Sent(i, nullptr);
        return;
      }
      PodPtr next = s.Raced(i);
      Update(step, ops.update, s.Latest(i), next);
      s.Sent(i, std::move(next));
      return;
    }
    case PerturbKind::kTombstone: {  // a delete carrying a stale version
      PodPtr stale = s.Stale(i);
      step.op = ops.remove;
      step.pod = stale ? stale : s.Latest(i);
      step.tombstone = s.layer() == Layer::kScheduler;
      s.Sent(i, nullptr);
      return;
    }
    case PerturbKind::kRecreate: {  // delete, then add a new incarnation
      step.op = ops.remove;
      step.pod = s.Latest(i);
      Step& add = later.emplace_back();
      add.op = ops.add;
      add.pod = s.Recreated(i, /*in_update=*/false);
      s.Sent(i, nullptr);
      s.Sent(i, add.pod);
      return;
    }
    case PerturbKind::kRecreateUpdate: {  // the same as one update
      PodPtr next = s.Recreated(i, /*in_update=*/true);
      Update(step, ops.update, s.Latest(i), next);
      s.Sent(i, std::move(next));
      return;
    }
    case PerturbKind::kNodeRecreate: {  // deleted, added with a new uid
      step.op = ops.node_remove;
      step.node = s.NodeAt(i);
      Step& add = later.emplace_back();
      add.op = ops.node_add;
      add.node = s.RecreatedNode(i);
      s.SentNode(i, add.node);
      return;
    }
    case PerturbKind::kNodeBurst: {  // 2-5 updates changing nothing read
      const int n = c.Uniform(2, 5);
      for (int k = 0; k < n; ++k) {
        Step& u = k == 0 ? step : later.emplace_back();
        u.op = ops.node_update;
        u.old_node = s.NodeAt(i);
        u.new_node = s.NoOpUpdate(i);
        s.SentNode(i, u.new_node);
      }
      return;
    }
  }
}

}  // namespace

bool Perturb(const Perturbations& p, ChoiceStream& c, PerturbSubject& s,
             Step& step, std::vector<Step>& later) {
  for (int k = 0; k < kPerturbKinds; ++k) {
    // An unperturbed trace (the common case) asks the subject nothing: Fire
    // draws nothing for a kind that is off, so skipping it first draws the
    // same.
    if (!(p.*kPerturbFields[k] > 0)) continue;
    const auto kind = static_cast<PerturbKind>(k);
    std::vector<int> candidates = Candidates(kind, s);
    if (candidates.empty() || !Fire(c, p.*kPerturbFields[k])) continue;
    Apply(kind, Pick(c, candidates), c, s, step, later);
    return true;
  }
  return false;
}

}  // namespace schedtrace::step_source
