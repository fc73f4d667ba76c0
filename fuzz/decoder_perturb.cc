// Perturbations (decoder.h; valid mode, config bit 5). Bytes 1-4 hold a level
// nibble per kind (PerturbLevels). Each record's dt byte: bits 0-3 the clock
// delta, bits 4-7 the draw n; kind k fires when 15 - n < level[k] (so with
// probability level/16 over random draws, never at n = 0). Kinds are tried
// in turn starting at k = (record index mod 7), so that kinds at equal levels
// share the records evenly; the first that fires *and applies* (race needs a
// pod in its scheduling cycle) replaces the record, as the generators let the
// first applicable perturbation replace their step. Its argument bytes,
// whatever the op, choose: pick = arg0 + op flags (the target, modulo the
// candidates in slot order), choice = arg0 >> 3 (race deletes when choice & 3
// == 3, else updates; node_burst sends 2 + (choice & 3) updates), and arg1-arg2
// a PodVariant (race's update). With DecoderOptions::perturb the draw of kind k
// is a hash of (record index, k, op byte, dt byte) instead, one per kind.
//
// What each kind sends, per layer (queue / cache / scheduler):
//   resync          q_update / c_update_pod (added pods) / pod_update of a
//                   known pod: the latest object unchanged, same version.
//   race            an update (Mutate) of a pod in its scheduling cycle:
//                   popped and not given back / assumed / waiting on Permit
//                   or parked before PreBind; queue and scheduler delete it
//                   instead when choice says so.
//   tombstone       a delete carrying the version an update replaced (same
//                   uid, older resourceVersion; in the cache only one on the
//                   same node, as upstream exits otherwise), else the latest;
//                   pod_delete sets `tombstone`.
//   recreate        delete, then (next step) add of RecreatedPod: a new uid,
//                   unbound (the cache keeps the node: it only holds placed
//                   pods).
//   recreate_update one update from the latest to RecreatedPod.
//   node_recreate   cache and scheduler: a node (one holding pods if any)
//                   deleted, then added again with a new uid (RecreatedNode).
//   node_burst      cache and scheduler: 2-5 updates of one node changing
//                   only its resourceVersion (NoOpNodeUpdate).
// resourceVersions stay increasing (one counter for the whole input), so a
// recreated or no-op object gets the counter's next value rather than the
// helpers' "1" / "+1".
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/decoder.h"

namespace schedtrace::fuzz {
namespace {

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// splitmix64's finalizer: a well-mixed 64-bit hash of `x`.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The index of the (pick mod n)-th slot below `count` satisfying `pred`, or
// -1: no container per step, the pools are tiny.
template <int kCount, typename Pred>
int Choose(uint8_t pick, Pred pred) {
  std::array<int, kCount> c;
  int n = 0;
  for (int i = 0; i < kCount; ++i) {
    if (pred(i)) c[n++] = i;
  }
  return n == 0 ? -1 : c[pick % n];
}

}  // namespace

bool Decoder::Fires(int k, uint8_t op_byte, uint8_t dt_byte) const {
  uint32_t draw;
  if (forced_) {
    draw = static_cast<uint32_t>(Mix(static_cast<uint64_t>(records_) << 24 |
                                     static_cast<uint64_t>(k) << 16 |
                                     uint64_t{op_byte} << 8 | dt_byte) &
                                 0xffff);
  } else {
    draw = (15u - (dt_byte >> 4)) * 4096u;
  }
  return draw < threshold_[k];
}

bool Decoder::Perturb(Step& step, uint8_t op_byte, uint8_t dt_byte,
                      const uint8_t* a) {
  const uint8_t pick = static_cast<uint8_t>(a[0] + (op_byte >> 4));
  const uint8_t choice = a[0] >> 3;
  const PodVariant v = PodVariant::Unpack(a[1], a[2]);
  for (int j = 0; j < kPerturbKinds; ++j) {
    const int k = (records_ + j) % kPerturbKinds;
    if (threshold_[k] == 0 || !Fires(k, op_byte, dt_byte)) continue;
    const auto kind = static_cast<PerturbKind>(k);
    const bool applied =
        kind == PerturbKind::kNodeRecreate || kind == PerturbKind::kNodeBurst
            ? PerturbNode(kind, step, pick, choice)
            : PerturbPod(kind, step, pick, choice, v);
    if (applied) {
      last_perturbation_ = kind;
      return true;
    }
  }
  return false;
}

PodPtr Decoder::Stale(int slot) const {
  const Slot& s = slots_[slot];
  if (!s.prev || !s.latest || s.prev == s.latest ||
      s.prev->uid != s.latest->uid) {
    return nullptr;
  }
  // Upstream's RemovePod exits when the object names another node than the
  // cached pod: an informer never delivers that (nodeName is set once), and
  // the cache's "previous" may be the assumed copy of another node.
  if (layer_ == Layer::kCache && s.prev->node_name != s.latest->node_name) {
    return nullptr;
  }
  return s.prev;
}

PodPtr Decoder::Recreated(int slot) {
  Slot& s = slots_[slot];
  auto p =
      std::const_pointer_cast<Pod>(RecreatedPod(*s.latest, ++s.incarnation));
  p->resource_version = Rv();
  // Cache-layer pods are placed ones (the informer adds bound pods only).
  if (layer_ == Layer::kCache) p->node_name = s.latest->node_name;
  return p;
}

int Decoder::PerturbPodTarget(PerturbKind kind, uint8_t pick) const {
  const bool cache = layer_ == Layer::kCache;
  // Known to the informer: the pods it can resync, delete or re-create.
  auto known = [&](int i) {
    return cache ? slots_[i].cache == CacheStatus::kAdded : slots_[i].live;
  };
  // In the middle of a scheduling cycle (feedback from the reference).
  auto busy = [&](int i) {
    switch (layer_) {
      case Layer::kQueue:
        return slots_[i].live && world_.InFlight(PodKeys()[i]);
      case Layer::kCache:
        return slots_[i].cache == CacheStatus::kAssumed;
      case Layer::kScheduler:
        break;
    }
    return slots_[i].live && (Contains(world_.waiting(), PodKeys()[i]) ||
                              Contains(world_.parked(), PodKeys()[i]));
  };
  switch (kind) {
    case PerturbKind::kRace:
      return Choose<kPodPool>(pick, busy);
    case PerturbKind::kTombstone: {
      // Rather a pod that has a stale version to carry.
      const int i =
          Choose<kPodPool>(pick, [&](int j) { return known(j) && Stale(j); });
      return i >= 0 ? i : Choose<kPodPool>(pick, known);
    }
    default:
      return Choose<kPodPool>(pick, known);
  }
}

bool Decoder::PerturbPod(PerturbKind kind, Step& step, uint8_t pick,
                         uint8_t choice, const PodVariant& v) {
  const bool cache = layer_ == Layer::kCache;
  Op add = Op::kPodAdd, update = Op::kPodUpdate, remove = Op::kPodDelete;
  if (layer_ == Layer::kQueue) {
    add = Op::kQAdd;
    update = Op::kQUpdate;
    remove = Op::kQDelete;
  } else if (cache) {
    add = Op::kCAddPod;
    update = Op::kCUpdatePod;
    remove = Op::kCRemovePod;
  }
  auto gone = [&](Slot& s) {
    if (cache) {
      s.cache = CacheStatus::kNone;
    } else {
      s.live = false;
    }
  };
  const int i = PerturbPodTarget(kind, pick);
  if (i < 0) return false;
  Slot& s = slots_[i];
  switch (kind) {
    case PerturbKind::kResync:
      step.op = update;
      step.old_pod = step.new_pod = s.latest;
      return true;
    case PerturbKind::kRace:
      // The cache has no delete here: the generator's cache race is an
      // informer update of an assumed pod (upstream refuses it).
      if (!cache && (choice & 3) == 3) {
        step.op = remove;
        step.pod = s.latest;
        gone(s);
        return true;
      }
      step.op = update;
      step.old_pod = s.latest;
      step.new_pod = Mutate(*s.latest, v, /*keep_node=*/true);
      return true;
    case PerturbKind::kTombstone: {
      PodPtr stale = Stale(i);
      step.op = remove;
      step.pod = stale ? stale : s.latest;
      step.tombstone = layer_ == Layer::kScheduler;
      gone(s);
      return true;
    }
    case PerturbKind::kRecreate: {
      step.op = remove;
      step.pod = s.latest;
      Step again;
      again.op = add;
      again.pod = Recreated(i);
      Push(std::move(again));
      // The slot as both steps leave it (live, or added in the cache).
      return true;
    }
    case PerturbKind::kRecreateUpdate:
      step.op = update;
      step.old_pod = s.latest;
      step.new_pod = Recreated(i);
      return true;
    default:
      return false;
  }
}

bool Decoder::PerturbNode(PerturbKind kind, Step& step, uint8_t pick,
                          uint8_t choice) {
  if (layer_ == Layer::kQueue) return false;  // the queue sees no nodes
  const bool sched = layer_ == Layer::kScheduler;
  auto live = [&](int j) { return nodes_[j] != nullptr; };
  if (kind == PerturbKind::kNodeRecreate) {
    // Rather a node that still holds pods: the case worth testing.
    int j = Choose<kNodePool>(
        pick, [&](int n) { return live(n) && (busy_nodes_ >> n & 1); });
    if (j < 0) j = Choose<kNodePool>(pick, live);
    if (j < 0) return false;
    step.op = sched ? Op::kNodeDelete : Op::kCRemoveNode;
    step.node = nodes_[j];
    auto again = std::const_pointer_cast<Node>(
        RecreatedNode(*nodes_[j], ++node_incarnation_[j]));
    again->resource_version = absl::StrCat(++rv_);
    node_uid_[j] = again->uid;
    Step add;
    add.op = sched ? Op::kNodeAdd : Op::kCAddNode;
    add.node = again;
    Push(std::move(add));
    nodes_[j] = last_nodes_[j] = again;
    return true;
  }
  const int j = Choose<kNodePool>(pick, live);
  if (j < 0) return false;
  const int n = 2 + (choice & 3);
  for (int k = 0; k < n; ++k) {
    auto next = std::const_pointer_cast<Node>(NoOpNodeUpdate(*nodes_[j]));
    next->resource_version = absl::StrCat(++rv_);
    Step u;
    u.op = sched ? Op::kNodeUpdate : Op::kCUpdateNode;
    u.old_node = nodes_[j];
    u.new_node = next;
    nodes_[j] = last_nodes_[j] = next;
    if (k == 0) {
      step.op = u.op;
      step.old_node = std::move(u.old_node);
      step.new_node = std::move(u.new_node);
    } else {
      Push(std::move(u));
    }
  }
  return true;
}

}  // namespace schedtrace::fuzz
