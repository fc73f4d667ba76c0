// The inverse of fuzz/decoder.h: a trace (normally a golden one) as fuzzer
// bytes, so every golden trace is also a seed of every fuzz target.
//
// Pods map to pool slots by the order their keys first appear, nodes
// likewise; each object becomes its nearest variant; each clock delta the
// nearest entry of the delta table. The encoding keeps every step's op, its
// pod and node identities (up to the pool's renaming), uids and
// resourceVersions (up to the slot byte's few bits), so decoding it in
// Mode::kHostile gives back the same ops on the same slots; decoding it in
// Mode::kValid gives the nearest valid sequence.
//
//   absl::StatusOr<Trace> golden = ReadTraceFile(path);
//   std::string bytes = EncodeForFuzzing(*golden);       // a per-layer seed
//   std::string hostile = EncodeForHostile(*golden);     // fuzz_hostile seed
//
// The encoder writes no perturbation header and draw nibble 0 in every
// record, so its seeds decode unperturbed; WithPerturbations switches
// perturbations on in any per-layer input, and WithDraws gives its records
// draws that fire at those levels:
//
//   std::string perturbed = WithDraws(
//       layer, WithPerturbations(bytes, LevelsFor(*spec)), seed);
#ifndef SCHEDTRACE_FUZZ_ENCODER_H_
#define SCHEDTRACE_FUZZ_ENCODER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/decoder.h"
#include "harness/trace.h"

namespace schedtrace::fuzz {

// At most kMaxSteps records (the decoder reads no more).
std::string EncodeForFuzzing(const Trace& trace);

// The hostile target's input: the layer byte, then EncodeForFuzzing.
std::string EncodeForHostile(const Trace& trace);

// The config byte (byte 0) nearest to `header`'s config.
uint8_t ConfigByte(const TraceHeader& header);

// `input` (a per-layer input; "" counts as config 0) with config bit 5 set
// and `levels` as its perturbation header, replacing the one it had. The
// records are kept as they are: which of them a perturbation takes is up to
// their draw nibbles (decoder.h).
std::string WithPerturbations(std::string_view input,
                              const PerturbLevels& levels);

// `input` (a per-layer input of `layer`) with every record's draw nibble (the
// dt byte's high nibble) set to a pseudo-random value determined by `seed`
// (splitmix64, one draw per record, in order). Everything else is kept: the
// config byte, the perturbation header (when config bit 5 announces one),
// each op byte, each dt byte's low nibble (the clock delta) and the argument
// bytes, so the records and their boundaries stay where they were. With a
// perturbation header of level L, a record then fires with probability about
// L/16.
std::string WithDraws(Layer layer, std::string_view input, uint64_t seed);

// The levels nearest to `p` (round(16 p), at least 1 when p > 0, at most 15).
PerturbLevels LevelsFor(const Perturbations& p);

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_ENCODER_H_
