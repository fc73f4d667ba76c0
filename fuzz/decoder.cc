// The Decoder's driver: the config byte and perturbation header, one record
// (or a perturbation's later step) per Next(), the reference's feedback, and
// DecodeTrace. A record's decoding per layer: decoder_records.cc; the
// objects it builds: decoder_objects.cc; perturbations: decoder_perturb.cc;
// the byte format itself: byte_format.cc, variants.cc.
#include "fuzz/decoder.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/json_codec.h"

namespace schedtrace::fuzz {

Decoder::Decoder(Layer layer, Mode mode, std::string_view data,
                 const DecoderOptions& options)
    : layer_(layer), mode_(mode), data_(data) {
  const uint8_t config = Byte();
  header_ = &CachedHeaderFor(layer, config);
  world_ = InformerWorld(layer, header_->config.assumed_pod_ttl_ms);
  PerturbLevels levels = {};
  if (config & kPerturbHeaderBit) {
    // Read in every mode, so that a record starts at the same byte whatever
    // the mode and the options.
    for (int i = 0; i < kPerturbHeaderBytes; ++i) {
      const uint8_t b = Byte();
      if (2 * i < kPerturbKinds) levels[2 * i] = b & 15;
      if (2 * i + 1 < kPerturbKinds) levels[2 * i + 1] = b >> 4;
    }
  }
  if (mode_ != Mode::kValid) return;  // hostile input needs no help
  forced_ = options.perturb.has_value();
  perturb_ = forced_ ? *options.perturb : PerturbationsOf(levels);
  std::string spec;
  for (int k = 0; k < kPerturbKinds; ++k) {
    const double p = std::clamp(perturb_.*kPerturbFields[k], 0.0, 1.0);
    // A forced probability too small for 1/65536 still fires sometimes: it
    // was asked for.
    threshold_[k] = forced_
                        ? (p > 0 ? std::max<uint32_t>(1, p * 65536 + 0.5) : 0)
                        : uint32_t{levels[k]} * 4096;
    // The queue layer sees no nodes: a node kind never applies there, so it
    // is off (and the trace does not claim it).
    if (layer_ == Layer::kQueue &&
        k >= static_cast<int>(PerturbKind::kNodeRecreate)) {
      threshold_[k] = 0;
      perturb_.*kPerturbFields[k] = 0;
    }
    if (threshold_[k] == 0) continue;
    perturbing_ = true;
    absl::StrAppend(&spec, spec.empty() ? "" : ",",
                    std::string(PerturbKindName(static_cast<PerturbKind>(k))),
                    ":", p);
  }
  // The decoded trace says how it was perturbed (the --perturb spelling):
  // its own header, the cached one stays as it is.
  if (perturbing_) {
    auto own = std::make_shared<TraceHeader>(*header_);
    absl::StrAppend(&own->description, "; perturb ", spec);
    header_ = own.get();
    own_header_ = std::move(own);
  }
}

uint8_t Decoder::Byte() {
  return pos_ < data_.size() ? static_cast<uint8_t>(data_[pos_++]) : 0;
}

std::optional<Step> Decoder::Next() {
  if (steps_ >= kMaxSteps) return std::nullopt;
  Step step;
  if (pending_head_ < pending_.size()) {
    // A perturbation's later step: no bytes, 1 ms after the one before (t
    // stays strictly increasing, as exact traces want).
    step = std::move(pending_[pending_head_++]);
    if (pending_head_ == pending_.size()) {
      pending_.clear();  // keeps its capacity: no allocation next time
      pending_head_ = 0;
    }
    step.t = ++t_;
  } else {
    if (pos_ >= data_.size()) return std::nullopt;
    const uint8_t op_byte = Byte();
    const uint8_t dt_byte = Byte();
    step.op = OpTable(layer_)[op_byte & 15];
    t_ += DeltaTable()[dt_byte & 15];
    step.t = t_;
    // Arguments are read for the op as written, before validity may turn it
    // into another, so a record's length never depends on the state.
    std::array<uint8_t, 4> a = {0, 0, 0, 0};
    for (int i = 0; i < ArgBytes(step.op); ++i) a[i] = Byte();
    const uint8_t flags = op_byte >> 4;
    last_perturbation_.reset();
    if (!perturbing_ || !Perturb(step, op_byte, dt_byte, a.data())) {
      switch (layer_) {
        case Layer::kQueue:
          DecodeQueue(step, flags, a.data());
          break;
        case Layer::kCache:
          DecodeCache(step, flags, a.data());
          break;
        case Layer::kScheduler:
          DecodeScheduler(step, flags, a.data());
          break;
      }
    }
    ++records_;
  }
  // The version an update replaced, while the same incarnation lives: what a
  // tombstone may carry stale. Not a resync (the same object).
  if (perturbing_ && step.old_pod && step.new_pod &&
      step.old_pod != step.new_pod && step.old_pod->uid == step.new_pod->uid) {
    const int slot = PodSlotOfKey(step.new_pod->Key());
    if (slot >= 0) slots_[slot].prev = step.old_pod;
  }
  // What the codec would remember as "the latest carried" (old, then new).
  for (const PodPtr* p : {&step.pod, &step.old_pod, &step.new_pod}) {
    if (*p == nullptr) continue;
    const int slot = PodSlotOfKey((*p)->Key());
    if (slot >= 0) slots_[slot].latest = *p;
  }
  ++steps_;
  return step;
}

uint8_t Decoder::InFlightSlots() const {
  uint8_t slots = 0;
  for (int i = 0; i < kPodPool; ++i) {
    if (world_.InFlight(PodKeys()[i])) slots |= 1u << i;
  }
  return slots;
}

void Decoder::Observe(const Step& step, const StepOut& out) {
  world_.Observe(step, out);
  // The queue layer's pods in flight and its cycle are the world's.
  if (layer_ == Layer::kCache && mode_ == Mode::kValid) {
    // What the outs imply wins over what the decoder sent (cleanup
    // expiries, refused calls).
    for (int i = 0; i < kPodPool; ++i) {
      const std::string& key = PodKeys()[i];
      slots_[i].cache = world_.Assumed(key) ? CacheStatus::kAssumed
                        : world_.Added(key) ? CacheStatus::kAdded
                                            : CacheStatus::kNone;
    }
  }
  // Which nodes hold pods (node_recreate aims at them).
  if (perturbing_) {
    busy_nodes_ = 0;
    for (int j = 0; j < kNodePool; ++j) {
      if (world_.HoldsPods(NodeName(j))) busy_nodes_ |= 1u << j;
    }
  }
}

absl::StatusOr<Trace> DecodeTrace(Layer layer, Mode mode, std::string_view data,
                                  System* reference, bool record,
                                  const DecoderOptions& options) {
  Decoder dec(layer, mode, data, options);
  Trace trace;
  trace.header = dec.header();
  if (reference != nullptr) {
    if (absl::Status s = reference->Configure(trace.header); !s.ok()) return s;
  }
  while (std::optional<Step> step = dec.Next()) {
    if (reference == nullptr) {  // no outs: nothing to observe
      trace.steps.push_back(*std::move(step));
      continue;
    }
    absl::StatusOr<StepOut> out = reference->Apply(*step);
    if (!out.ok()) {
      // The reference refused the step: the trace ends before it (hostile
      // input the model rejects, e.g. q_add_unschedulable of a pod never
      // popped); keep the step so the trace shows it.
      trace.steps.push_back(*std::move(step));
      break;
    }
    if (record) {
      auto expect = std::make_shared<Expect>();
      expect->out = OutToJson(*out);
      if (!out->fatal) expect->state = StateToJson(reference->Snapshot());
      step->expect = expect;
    }
    dec.Observe(*step, *out);
    trace.steps.push_back(*std::move(step));
    if (out->fatal) break;
  }
  return trace;
}

}  // namespace schedtrace::fuzz
