// One record decoded per layer (decoder.h): the op's plain arguments, then
// the layer's objects; in valid mode the nearest valid op first.
#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/decoder.h"

namespace schedtrace::fuzz {

void Decoder::DecodePlainArgs(Step& step, uint8_t flags,
                              const uint8_t* a) const {
  // Objects first, old versions last (the record layout above).
  int at = 0;
  int event_byte = 0;
  for (const ArgSpec& spec : SpecOf(step.op).Args()) {
    const bool old = spec.arg == Arg::kOldPod || spec.arg == Arg::kOldNode;
    const uint8_t b = old || at >= 4 ? 0 : a[at];
    if (!old) at += ArgWidth(step.op, spec.arg);
    if (const int shift = FlagShift(step.op, spec.arg); shift >= 0) {
      const int bits = (flags >> shift) & (spec.arg == Arg::kPermit ? 3 : 1);
      DecodeFlagArg(step, spec.arg, bits);
      continue;
    }
    DecodeByteArg(step, spec.arg, b, event_byte);
  }
}

void Decoder::DecodeFlagArg(Step& step, Arg arg, int bits) {
  switch (arg) {
    case Arg::kTombstone:
      step.tombstone = bits;
      break;
    case Arg::kReserve:
      step.reserve = bits ? ReserveOutcome::kError : ReserveOutcome::kOk;
      break;
    case Arg::kPermit: {
      static constexpr std::array<PermitOutcome, 4> kPermit = {
          PermitOutcome::kAllow, PermitOutcome::kWait, PermitOutcome::kReject,
          PermitOutcome::kWait};
      step.permit = kPermit[bits];
      break;
    }
    case Arg::kPreBind:
      step.prebind_ok = !bits;
      break;
    case Arg::kBindResult:
      step.bind_ok = !bits;
      break;
    default:
      break;
  }
}

void Decoder::DecodeByteArg(Step& step, Arg arg, uint8_t b,
                            int& event_byte) const {
  switch (arg) {
    case Arg::kPodKey:
      step.pod_key = PodKeys()[SlotOf(b)];
      break;
    case Arg::kPlugins:
      step.plugins.reserve(std::popcount(b));
      for (size_t i = 0; i < UnschedulablePlugins().size(); ++i) {
        if (b & (1u << i)) step.plugins.push_back(UnschedulablePlugins()[i]);
      }
      break;
    case Arg::kCycle:
      if (b & 1) step.cycle = static_cast<int64_t>(b >> 1);
      break;
    case Arg::kPodKeys: {
      const uint8_t slots = b & ((1u << kPodPool) - 1);
      step.pod_keys.reserve(std::popcount(slots));
      step.pods.reserve(std::popcount(slots));
      for (int i = 0; i < kPodPool; ++i) {
        if (slots & (1u << i)) {
          step.pod_keys.push_back(PodKeys()[i]);
          step.pods.push_back(LatestOrStub(i));
        }
      }
      break;
    }
    case Arg::kMoveEvent:
      step.event = MoveEvents()[b % MoveEvents().size()];
      break;
    case Arg::kPrecheck:
      if (b & 128) {
        const uint8_t slots = b & ((1u << kPodPool) - 1);
        std::vector<std::string>& keys = step.precheck.emplace();
        keys.reserve(std::popcount(slots));
        for (int i = 0; i < kPodPool; ++i) {
          if (slots & (1u << i)) keys.push_back(PodKeys()[i]);
        }
      }
      break;
    case Arg::kNominatedNode:
      step.nominated_node = (b & 3) == 3 ? "" : NodeName((b & 3) % kNodePool);
      break;
    case Arg::kEventResource: {
      const auto& rs = ClusterEventResources();
      step.event.resource = rs[(b & 7) % rs.size()];
      event_byte = b;
      break;
    }
    case Arg::kEventAction:
      step.event.action = (event_byte & 8) ? "Update" : "Add";
      break;
    case Arg::kWaitForFirstConsumer:
      // Upstream moves pods on it only for a StorageClass Add.
      if (step.event.resource == "StorageClass" && step.event.action == "Add") {
        step.wait_for_first_consumer = event_byte & 16;
      }
      break;
    default:  // objects: the layer's own decoding
      break;
  }
}

void Decoder::NearestValidQueueOp(Step& step, const Slot& s) const {
  if (step.op == Op::kQAdd && s.live) step.op = Op::kQUpdate;
  if (step.op == Op::kQUpdate && !s.live) step.op = Op::kQAdd;
  if (step.op == Op::kQDelete && !s.live) step.op = Op::kQPop;
  // An assigned pod is another incarnation, never the pending one.
  if ((step.op == Op::kQAssignedPodAdded ||
       step.op == Op::kQAssignedPodUpdated) &&
      s.live) {
    step.op = Op::kQUpdate;
  }
  if (step.op == Op::kQAddUnschedulable && InFlightSlots() == 0) {
    step.op = Op::kQPop;
  }
}

void Decoder::DecodeQueue(Step& step, uint8_t flags, const uint8_t* a) {
  const bool valid = mode_ == Mode::kValid;
  const int slot = SlotOf(a[0]);
  const PodVariant v = PodVariant::Unpack(a[1], a[2]);
  Slot& s = slots_[slot];
  if (valid) NearestValidQueueOp(step, s);
  DecodePlainArgs(step, flags, a);
  switch (step.op) {
    case Op::kQAdd:
      if (valid) {
        step.pod = Fresh(slot, v, /*assigned=*/false);
        s.live = true;
      } else {
        step.pod = HostilePod(a[0], v);
      }
      break;
    case Op::kQUpdate:
      if (valid) {
        // Never a null old: the scheduler never calls Update(nil, pod), and
        // upstream panics on it for a queued pod (hostile mode sends it).
        step.old_pod = s.latest;
        step.new_pod = Mutate(*s.latest, v, /*keep_node=*/true);
      } else {
        // Any version of the same pod (a stale uid or resourceVersion), or
        // null: an update never names two pods (CheckUpdateNamesOneObject).
        step.old_pod = (a[3] & 128) ? nullptr : LatestOrStub(SlotOf(a[0]));
        step.new_pod = HostilePod(a[0], v);
      }
      break;
    case Op::kQDelete:
      step.pod = valid ? s.latest : HostilePod(a[0], v);
      if (valid) s.live = false;
      break;
    case Op::kQAddUnschedulable:
      if (valid) {
        // The (a[0] mod n)-th of the n pods in flight, in key order.
        const uint8_t flying = InFlightSlots();
        int k = a[0] % std::popcount(flying);
        for (int i : SlotsByKey()) {
          if ((flying >> i & 1) && k-- == 0) {
            step.pod_key = PodKeys()[i];
            break;
          }
        }
        // A cycle given: the current one or the one before.
        if (a[2] & 1) {
          step.cycle = std::max<int64_t>(0, world_.cycle() - ((a[2] >> 1) & 1));
        }
      }
      break;
    case Op::kQAssignedPodAdded:
    case Op::kQAssignedPodUpdated: {
      // An assigned pod: in valid mode a slot not pending in the queue; an
      // update keeps the assigned incarnation, an add makes a new one.
      if (valid) {
        const bool same = step.op == Op::kQAssignedPodUpdated && s.latest &&
                          !s.latest->node_name.empty();
        step.pod = same ? Mutate(*s.latest, v, /*keep_node=*/true)
                        : Fresh(slot, v, /*assigned=*/true);
      } else {
        step.pod = HostilePod(a[0], v);
      }
      break;
    }
    case Op::kQNominate:
      step.pod = valid ? LatestOrStub(slot) : HostilePod(a[0], v);
      break;
    default:
      break;
  }
}

void Decoder::DecodeNodeOp(Step& step, const uint8_t* a) {
  const bool valid = mode_ == Mode::kValid;
  const int slot = NodeSlotOf(a[0]);
  const NodeVariant v = NodeVariant::Unpack(a[1]);
  const bool is_add = step.op == Op::kNodeAdd || step.op == Op::kCAddNode;
  const bool is_update =
      step.op == Op::kNodeUpdate || step.op == Op::kCUpdateNode;
  const bool sched = layer_ == Layer::kScheduler;
  if (valid) {
    if (is_add && nodes_[slot]) {
      step.op = sched ? Op::kNodeUpdate : Op::kCUpdateNode;
    } else if (!is_add && !nodes_[slot]) {
      step.op = sched ? Op::kNodeAdd : Op::kCAddNode;
    }
  }
  // Every record takes a resourceVersion, but a valid delete carries the
  // live node: no new version is built for it.
  const int rv = static_cast<int>(++rv_);
  const bool is_delete =
      step.op == Op::kNodeDelete || step.op == Op::kCRemoveNode;
  NodePtr built = valid && is_delete ? nullptr : BuildNode(slot, v, rv);
  switch (step.op) {
    case Op::kNodeAdd:
    case Op::kCAddNode:
      step.node = built;
      nodes_[slot] = built;
      break;
    case Op::kNodeUpdate:
    case Op::kCUpdateNode: {
      if (valid) {
        step.old_node = nodes_[slot];
      } else {
        // A stale version of the same node: an update never names two.
        step.old_node = last_nodes_[slot]
                            ? last_nodes_[slot]
                            : BuildNode(slot, NodeVariant::Unpack(a[2]), 0);
      }
      step.new_node = built;
      nodes_[slot] = built;
      break;
    }
    default:  // deletes
      step.node = valid ? nodes_[slot] : built;
      nodes_[slot] = nullptr;
      break;
  }
  (void)is_update;
  if (step.node) last_nodes_[NodeSlotOf(a[0])] = step.node;
  if (step.new_node) last_nodes_[slot] = step.new_node;
}

Op Decoder::NearestValidCacheOp(Op op, CacheStatus st) {
  using CS = CacheStatus;
  switch (op) {
    case Op::kCAssume:
      if (st == CS::kAssumed) op = Op::kCFinishBinding;
      if (st == CS::kAdded) op = Op::kCUpdatePod;
      break;
    case Op::kCFinishBinding:
    case Op::kCForget:
      if (st == CS::kNone) op = Op::kCAssume;
      if (st == CS::kAdded) op = Op::kCRemovePod;
      break;
    case Op::kCAddPod:
      if (st == CS::kAdded) op = Op::kCUpdatePod;
      break;
    case Op::kCUpdatePod:
      if (st != CS::kAdded) op = Op::kCAddPod;
      break;
    case Op::kCRemovePod:
      if (st == CS::kNone) op = Op::kCAddPod;
      if (st == CS::kAssumed) op = Op::kCForget;
      break;
    default:
      break;
  }
  return op;
}

void Decoder::DecodeCache(Step& step, uint8_t flags, const uint8_t* a) {
  (void)flags;
  switch (step.op) {
    case Op::kCAddNode:
    case Op::kCUpdateNode:
    case Op::kCRemoveNode:
      DecodeNodeOp(step, a);
      return;
    case Op::kCCleanup:
      return;
    default:
      break;
  }
  const int slot = SlotOf(a[0]);
  PodVariant v = PodVariant::Unpack(a[1], a[2]);
  if (v.node == 0) v.node = 1 + slot % kNodePool;  // cache pods are placed
  Slot& s = slots_[slot];
  if (mode_ == Mode::kHostile) {
    if (step.op == Op::kCUpdatePod) {
      step.old_pod = LatestOrStub(slot);
      step.new_pod = HostilePod(a[0], v);
    } else {
      step.pod = HostilePod(a[0], v);
    }
    return;
  }
  // Valid: the calls a scheduler and its informer make, in the order they
  // can make them: assume -> finish binding -> (add | forget), add ->
  // update* -> remove.
  using CS = CacheStatus;
  const CS st = s.cache;
  const Op op = NearestValidCacheOp(step.op, st);
  step.op = op;
  switch (op) {
    case Op::kCAssume:
      step.pod = Fresh(slot, v, /*assigned=*/true);
      s.cache = CS::kAssumed;
      break;
    case Op::kCFinishBinding:
      step.pod = s.latest;
      break;
    case Op::kCForget:
      step.pod = s.latest;
      s.cache = CS::kNone;
      break;
    case Op::kCAddPod:
      if (st == CS::kAssumed) {
        // The informer confirms the assumed pod, maybe on another node.
        auto p = std::make_shared<Pod>(*s.latest);
        p->resource_version = Rv();
        p->node_name = NodeName((v.node - 1) % kNodePool);
        step.pod = p;
      } else {
        step.pod = Fresh(slot, v, /*assigned=*/true);
      }
      s.cache = CS::kAdded;
      break;
    case Op::kCUpdatePod:
      step.old_pod = s.latest;
      step.new_pod = Mutate(*s.latest, v, /*keep_node=*/true);
      break;
    case Op::kCRemovePod:
      step.pod = s.latest;
      s.cache = CS::kNone;
      break;
    default:
      break;
  }
}

void Decoder::DecodeScheduler(Step& step, uint8_t flags, const uint8_t* a) {
  const bool valid = mode_ == Mode::kValid;
  switch (step.op) {
    case Op::kNodeAdd:
    case Op::kNodeUpdate:
    case Op::kNodeDelete:
      DecodeNodeOp(step, a);
      DecodePlainArgs(step, flags, a);  // as the valid op reads them
      return;
    case Op::kPermitAllow:
    case Op::kPermitReject:
    case Op::kBind: {
      DecodePlainArgs(step, flags, a);
      // Valid mode aims at a pod waiting on Permit (or parked) when any is.
      const std::vector<std::string>& aim =
          step.op == Op::kBind ? world_.parked() : world_.waiting();
      if (valid && !aim.empty()) step.pod_key = aim[a[0] % aim.size()];
      return;
    }
    default:
      if (!SpecOf(step.op).HasKind(ArgKind::kPodObject)) {
        // cluster_event, schedule_one, flush_*: arguments only.
        DecodePlainArgs(step, flags, a);
        return;
      }
      break;
  }
  const int slot = SlotOf(a[0]);
  const PodVariant v = PodVariant::Unpack(a[1], a[2]);
  Slot& s = slots_[slot];
  if (!valid) {
    if (step.op == Op::kPodUpdate) {
      step.old_pod = LatestOrStub(slot);
      step.new_pod = HostilePod(a[0], v);
    } else {
      step.pod = HostilePod(a[0], v);
    }
    DecodePlainArgs(step, flags, a);
    return;
  }
  if (step.op == Op::kPodAdd && s.live) step.op = Op::kPodUpdate;
  if (step.op != Op::kPodAdd && !s.live) step.op = Op::kPodAdd;
  switch (step.op) {
    case Op::kPodAdd:
      step.pod = Fresh(slot, v, /*assigned=*/flags & 2);
      s.live = true;
      break;
    case Op::kPodUpdate:
      step.old_pod = s.latest;
      if (flags & 1) {
        step.new_pod = s.latest;  // a resync: same object, same version
      } else {
        step.new_pod = Mutate(*s.latest, v, /*keep_node=*/!(flags & 2));
      }
      break;
    case Op::kPodDelete:
      step.pod = s.latest;
      s.live = false;
      break;
    default:
      break;
  }
  DecodePlainArgs(step, flags, a);
}

}  // namespace schedtrace::fuzz
