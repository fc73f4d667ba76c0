// Perturbations (decoder.h; valid mode, config bit 5). Bytes 1-4 hold a level
// nibble per kind (PerturbLevels). Each record's dt byte: bits 0-3 the clock
// delta, bits 4-7 the draw n; kind k fires when 15 - n < level[k] (so with
// probability level/16 over random draws, never at n = 0). Kinds are tried
// in turn starting at k = (record index mod 7), so that kinds at equal levels
// share the records evenly; the first that fires *and applies* (race needs a
// pod in its scheduling cycle) replaces the record, as the step source lets
// the first applicable perturbation replace its step. The step source's
// perturbations (harness/step_source_perturb.h, PerturbWith) make it: the
// decoder's slots are their PerturbSubject, and the record's argument
// bytes, whatever the op, their choices: pick = arg0 + op flags (the target,
// modulo the candidates in slot order), choice = arg0 >> 3 (race deletes
// when choice & 3 == 3, else updates; node_burst sends 2 + (choice & 3)
// updates), and arg1-arg2 a PodVariant (race's update). With
// DecoderOptions::perturb the draw of kind k is a hash of (record index, k,
// op byte, dt byte) instead, one per kind.
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
#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "fuzz/decoder.h"
#include "harness/step_source_perturb.h"

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

// The record's bytes as PerturbWith's choices, one byte a choice (a range
// of one value still takes its byte, so the second choice always reads the
// second byte), then zeros.
class RecordChoices : public ChoiceStream {
 public:
  RecordChoices(uint8_t first, uint8_t second) : bytes_{first, second} {}
  int Uniform(int lo, int hi) override { return lo + Next() % (hi - lo + 1); }
  bool Chance(double p) override {
    return Next() >= 256 - static_cast<int>(std::clamp(p, 0.0, 1.0) * 256);
  }

 private:
  uint8_t Next() { return used_ < 2 ? bytes_[used_++] : 0; }
  std::array<uint8_t, 2> bytes_;
  int used_ = 0;
};

}  // namespace

// The decoder's pods and nodes, as the step source's perturbations read and
// change them. Latest and previous versions follow in Next(), from the
// steps themselves.
class Decoder::Subject : public step_source::PerturbSubject {
 public:
  Subject(Decoder& d, const PodVariant& v) : d_(d), v_(v) {}
  Layer layer() const override { return d_.layer_; }
  // Known to the informer: the pods it can resync, delete or re-create.
  std::vector<int> Known() override {
    return Slots([&](int i) { return Live(i); });
  }
  // In the middle of a scheduling cycle (feedback from the reference).
  std::vector<int> Busy() override {
    return Slots([&](int i) {
      const std::string& key = PodKeys()[i];
      switch (d_.layer_) {
        case Layer::kQueue:
          return d_.slots_[i].live && d_.world_.InFlight(key);
        case Layer::kCache:
          return d_.slots_[i].cache == CacheStatus::kAssumed;
        case Layer::kScheduler:
          break;
      }
      return d_.slots_[i].live && (Contains(d_.world_.waiting(), key) ||
                                   Contains(d_.world_.parked(), key));
    });
  }
  PodPtr Latest(int i) override { return d_.slots_[i].latest; }
  PodPtr Stale(int i) override { return d_.Stale(i); }
  PodPtr Raced(int i) override {
    return d_.Mutate(*d_.slots_[i].latest, v_, /*keep_node=*/true);
  }
  // The cache has no delete here: the generator's cache race is an
  // informer update of an assumed pod (upstream refuses it).
  double RaceDeletes() const override {
    return d_.layer_ == Layer::kCache ? 0 : 0.25;
  }
  PodPtr Recreated(int i, bool) override { return d_.Recreated(i); }
  void Sent(int i, PodPtr pod) override {
    Slot& s = d_.slots_[i];
    if (d_.layer_ != Layer::kCache) {
      s.live = pod != nullptr;
    } else if (!pod) {
      s.cache = CacheStatus::kNone;
    } else if (s.cache == CacheStatus::kNone) {
      s.cache = CacheStatus::kAdded;  // re-created
    }
  }
  std::vector<int> Nodes() override {
    if (d_.layer_ == Layer::kQueue) return {};  // the queue sees no nodes
    return NodeSlots([](int) { return true; });
  }
  std::vector<int> BusyNodes() override {
    if (d_.layer_ == Layer::kQueue) return {};
    return NodeSlots([&](int j) { return d_.busy_nodes_ >> j & 1; });
  }
  NodePtr NodeAt(int j) override { return d_.nodes_[j]; }
  NodePtr RecreatedNode(int j) override {
    auto again = std::const_pointer_cast<Node>(
        schedtrace::RecreatedNode(*d_.nodes_[j], ++d_.node_incarnation_[j]));
    again->resource_version = absl::StrCat(++d_.rv_);
    d_.node_uid_[j] = again->uid;
    return again;
  }
  NodePtr NoOpUpdate(int j) override {
    auto next = std::const_pointer_cast<Node>(NoOpNodeUpdate(*d_.nodes_[j]));
    next->resource_version = absl::StrCat(++d_.rv_);
    return next;
  }
  void SentNode(int j, NodePtr node) override {
    d_.nodes_[j] = d_.last_nodes_[j] = std::move(node);
  }

 private:
  bool Live(int i) const {
    return d_.layer_ == Layer::kCache
               ? d_.slots_[i].cache == CacheStatus::kAdded
               : d_.slots_[i].live;
  }
  template <typename Pred>
  std::vector<int> Slots(Pred pred) const {
    std::vector<int> v;
    for (int i = 0; i < kPodPool; ++i) {
      if (pred(i)) v.push_back(i);
    }
    return v;
  }
  template <typename Pred>
  std::vector<int> NodeSlots(Pred pred) const {
    std::vector<int> v;
    for (int j = 0; j < kNodePool; ++j) {
      if (d_.nodes_[j] && pred(j)) v.push_back(j);
    }
    return v;
  }

  Decoder& d_;
  const PodVariant& v_;
};

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
  Subject subject(*this, v);
  for (int j = 0; j < kPerturbKinds; ++j) {
    const int k = (records_ + j) % kPerturbKinds;
    if (threshold_[k] == 0 || !Fires(k, op_byte, dt_byte)) continue;
    const auto kind = static_cast<PerturbKind>(k);
    // The choices PerturbWith draws: the target (pick mod the candidates),
    // then a race's delete (a chance of 1/4: choice & 3 == 3) or a burst's
    // length (2 + choice & 3).
    RecordChoices choices(
        pick, kind == PerturbKind::kRace ? (choice & 3) << 6 : choice & 3);
    if (step_source::PerturbWith(kind, choices, subject, step, pending_)) {
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

}  // namespace schedtrace::fuzz
