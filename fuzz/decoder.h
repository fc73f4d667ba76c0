// Turns fuzzer bytes into a schedtrace: a header and a sequence of steps, one
// step at a time, for the libFuzzer targets of fuzz/targets/ and for the
// tools that replay or convert their inputs.
//
// The byte format (byte_format.h; byte_format.cc has the record layout,
// variants.h the objects' bytes) is small on purpose: pods come from a pool
// of kPodPool names and nodes from a pool of kNodePool, so pods collide, are
// deleted and created again, and nodes come and go under pods; the clock
// advances by a table of deltas that straddle the backoff (1 s, 2 s, 10 s)
// and the 5-minute unschedulable-flush boundaries.
//
//   byte 0            config: backoff preset, assumed-pod TTL, gates feature,
//                     a second profile, bit 5: a perturbation header follows
//   bytes 1-4         (only with bit 5) the perturbation header: one level
//                     nibble per informer perturbation (PerturbLevels)
//   then records      [op][dt][arguments...], the number of argument bytes
//                     fixed by the op (missing bytes read as 0); dt's low
//                     nibble is the clock delta, its high nibble the record's
//                     perturbation draw
//
// Informer perturbations (issue 7.3, as harness/step_source.h makes them for
// `schedtrace gen` and RapidCheck): resync, race, tombstone, recreate,
// recreate_update, node_recreate, node_burst. Each has its own level in the
// perturbation header (0 = off, L = fires at a record with probability L/16:
// when the record's draw nibble is >= 16 - L, so the encoder's draw 0 never
// fires), or its own probability forced by DecoderOptions. A record where one
// fires (and applies to the current state) becomes that perturbation instead
// of its own op; its argument bytes choose the pod or node. Two-event
// perturbations (recreate, node_recreate, node_burst) emit their later
// steps from the following Next() calls, 1 ms apart, reading no bytes. Only
// Mode::kValid perturbs; the sequences stay what an informer can deliver.
//
// Two modes:
//   kValid    what an apiserver and informer could deliver: uids stable per
//             incarnation, resourceVersion increasing, spec.nodeName set at
//             most once, gates only removed, no add of a pod that exists,
//             no delete of one that does not (such a record becomes the
//             nearest valid op); q_add_unschedulable only for a pod in
//             flight.
//   kHostile  the record literally: duplicate adds, deletes and updates of
//             unknown pods, nodeName changes (a bound pod moved),
//             resourceVersion and uid chosen by the bytes (so they decrease and
//             repeat), q_add_unschedulable of pods never popped.
//
// Validity needs a little feedback: which pods a pop returned, which the
// cache holds, which wait on Permit or are parked, which nodes hold pods.
// The decoder reads it from each step's out, never from a system's state
// (harness/informer_world.h): after applying each step to a reference
// system the caller passes its out to Observe(). DecodeTrace() does that
// with the model, so a crashing input becomes the very trace the target
// ran.
//
//   Decoder dec(Layer::kScheduler, Mode::kValid, bytes);
//   model->Configure(dec.header());
//   while (std::optional<Step> step = dec.Next()) {
//     StepOut out = *model->Apply(*step);
//     dec.Observe(*step, out);
//   }
#ifndef SCHEDTRACE_FUZZ_DECODER_H_
#define SCHEDTRACE_FUZZ_DECODER_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "fuzz/byte_format.h"
#include "fuzz/variants.h"
#include "harness/generator.h"
#include "harness/informer_world.h"
#include "harness/op_table.h"
#include "harness/state.h"
#include "harness/system.h"
#include "harness/trace.h"

namespace schedtrace::fuzz {

enum class Mode { kValid, kHostile };

inline constexpr int kMaxSteps = 200;

struct DecoderOptions {
  // When set, these probabilities replace the input's perturbation header
  // (whose bytes are still skipped, so records keep their places) and each
  // record draws from a hash of its position and its op and dt bytes, once
  // per kind, instead of from its draw nibble: a tool can say "all at
  // 0.05" and run any corpus with perturbations. Unset: the input decides.
  std::optional<Perturbations> perturb;
};

class Decoder {
 public:
  // The layer is fixed by the target (the hostile target reads it from its
  // first byte and passes the rest). `data` must outlive the decoder.
  Decoder(Layer layer, Mode mode, std::string_view data,
          const DecoderOptions& options = {});

  // The cached header of the input's config byte (CachedHeaderFor), or,
  // when the input is perturbed, a copy of it whose description says how.
  const TraceHeader& header() const { return *header_; }

  // The perturbation probabilities in effect (all 0 in hostile mode, the
  // node kinds 0 in the queue layer).
  const Perturbations& perturbations() const { return perturb_; }

  // The perturbation the step Next() returned last belongs to (its first
  // step or a later one), nullopt for a step decoded from its own record.
  std::optional<PerturbKind> last_perturbation() const {
    return last_perturbation_;
  }

  // The next step, or nullopt when the input is used up (or kMaxSteps).
  std::optional<Step> Next();

  // Feedback: `step` was applied to the reference system and gave `out`.
  void Observe(const Step& step, const StepOut& out);

 private:
  enum class CacheStatus { kNone, kAssumed, kAdded };
  struct Slot {
    PodPtr latest;      // the latest object a step carried
    PodPtr prev;        // the object an update replaced (tombstone's stale)
    bool live = false;  // in the informer / the queue-ops view
    int incarnation = 0;
    CacheStatus cache = CacheStatus::kNone;
  };

  uint8_t Byte();
  // `node_name` "" leaves the pod unbound.
  std::shared_ptr<Pod> BuildPod(int slot, const PodVariant& v, std::string uid,
                                std::string rv, std::string node_name) const;
  NodePtr BuildNode(int slot, const NodeVariant& v, int rv) const;
  // A new incarnation of `slot` (valid mode).
  PodPtr Fresh(int slot, const PodVariant& v, bool assigned);
  // `old` changed towards `v` the way the apiserver allows (valid mode).
  PodPtr Mutate(const Pod& old, const PodVariant& v, bool keep_node);
  // The pod argument in hostile mode: slot, uid and rv from the bytes.
  PodPtr HostilePod(uint8_t slot_byte, const PodVariant& v);
  PodPtr LatestOrStub(int slot) const;
  std::string Rv() { return std::to_string(++rv_); }

  void DecodeQueue(Step& step, uint8_t flags, const uint8_t* a);
  // Valid mode: the nearest op valid for slot `s` (no add of a live pod, no
  // delete of a dead one, q_add_unschedulable only with a pod in flight).
  void NearestValidQueueOp(Step& step, const Slot& s) const;
  void DecodeCache(Step& step, uint8_t flags, const uint8_t* a);
  // Valid mode: the call a scheduler and its informer can make next for a
  // pod whose cache status is `st`, nearest to `op`.
  static Op NearestValidCacheOp(Op op, CacheStatus st);
  void DecodeScheduler(Step& step, uint8_t flags, const uint8_t* a);
  void DecodeNodeOp(Step& step, const uint8_t* a);
  // The arguments of step.op that are not objects, in their record form
  // (a pod key or cycle as hostile mode reads it; valid mode then picks its
  // own), flags included.
  void DecodePlainArgs(Step& step, uint8_t flags, const uint8_t* a) const;
  // One argument of DecodePlainArgs: from the op byte's `flags`, or from
  // its byte `b` (`event_byte`: cluster_event's resource byte, which its
  // later arguments read).
  static void DecodeFlagArg(Step& step, Arg arg, int bits);
  void DecodeByteArg(Step& step, Arg arg, uint8_t b, int& event_byte) const;

  // Perturbations (valid mode): whether kind `k` fires at this record, and
  // the first kind that fires and applies, made by the step source's
  // perturbations (harness/step_source_perturb.h: the decoder's pods and
  // nodes are their PerturbSubject, its record's bytes their choices).
  bool Fires(int k, uint8_t op_byte, uint8_t dt_byte) const;
  bool Perturb(Step& step, uint8_t op_byte, uint8_t dt_byte, const uint8_t* a);
  // The stale object a tombstone of `slot` may carry, or null.
  PodPtr Stale(int slot) const;
  // A new incarnation of `slot`'s pod under the same name (RecreatedPod),
  // with a resourceVersion above every one before.
  PodPtr Recreated(int slot);
  class Subject;

  Layer layer_;
  Mode mode_;
  std::string_view data_;
  size_t pos_ = 0;
  int steps_ = 0;
  int64_t t_ = 0;
  int64_t rv_ = 0;
  const TraceHeader* header_ = nullptr;  // points to one of:
  // the perturbed header (shared so that a copied decoder stays valid), or
  // null when header_ is CachedHeaderFor's.
  std::shared_ptr<const TraceHeader> own_header_;
  std::array<Slot, kPodPool> slots_;
  std::array<NodePtr, kNodePool> nodes_;  // live nodes (null = absent)
  std::array<NodePtr, kNodePool> last_nodes_;
  // Queue layer, from the world: bit i = the pod of slot i is in flight
  // (popped, not given back or deleted).
  uint8_t InFlightSlots() const;
  InformerWorld world_{Layer::kQueue};  // what the outs imply

  // Perturbations. threshold_[k] in 1/65536: kind k fires when the record's
  // draw is below it (0 = off).
  Perturbations perturb_;
  std::array<uint32_t, kPerturbKinds> threshold_ = {};
  bool perturbing_ = false;
  bool forced_ = false;  // draws hashed, not the dt nibble (DecoderOptions)
  int records_ = 0;      // records read (pending steps read none)
  std::vector<Step> pending_;  // later steps of a perturbation, in order
  size_t pending_head_ = 0;
  std::optional<PerturbKind> last_perturbation_;
  std::array<int, kNodePool> node_incarnation_ = {};
  std::array<std::string, kNodePool> node_uid_;  // "" = uid-node-<name>
  uint8_t busy_nodes_ = 0;  // bit i: n<i> holds pods (from feedback)
};

// Decodes the whole input. With `reference` (normally the model) the steps
// are applied to it for feedback and, with `record`, each step's expect is
// filled from it, so the trace replays as a regression. Without `reference`
// no feedback is given (queue-layer q_add_unschedulable then becomes q_pop).
absl::StatusOr<Trace> DecodeTrace(Layer layer, Mode mode, std::string_view data,
                                  System* reference, bool record,
                                  const DecoderOptions& options = {});

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_DECODER_H_
