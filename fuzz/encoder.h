// Traces as fuzz inputs (fuzz/decoder.h), so every golden trace is also a
// seed of every fuzz target, and seeded runs of the step source too.
//
// A fuzz input is the step source's choices, so encoding a trace means
// finding, step by step, the choices that make the source send a step like
// the trace's. EncodeForFuzzing searches for them: for each step it tries
// the values of each choice the source reads (a copy of the source per try,
// StepSource::Clone), keeps the one whose step scores nearest the trace's
// (the same op first, then the same pod or node, the clock, the objects'
// shape and the outcomes), and sweeps twice. The trace's pods and nodes map
// to the source's pools in the order they first appear. What the source
// cannot send (an object shape it never builds, a step invalid in the
// world the trace built so far) becomes the nearest step it can: the seed
// decodes to a valid sequence shaped like the trace, not to the trace.
//
// Recorded() is exact: a seeded run of the source (RecordingChoices), which
// decodes to the very steps `schedtrace gen` would make with the same
// options.
//
//   absl::StatusOr<Trace> golden = ReadTraceFile(path);
//   std::string bytes = EncodeForFuzzing(*golden);       // a per-layer seed
//   std::string hostile = EncodeForHostile(*golden);     // fuzz_hostile seed
//   std::string gen = Recorded(Layer::kQueue, Mode::kValid,
//                              ConfigByte(0, 0, false), {}, /*seed=*/7, 60);
#ifndef SCHEDTRACE_FUZZ_ENCODER_H_
#define SCHEDTRACE_FUZZ_ENCODER_H_

#include <cstdint>
#include <string>

#include "core/trace.h"
#include "fuzz/byte_format.h"

namespace schedtrace::fuzz {

// The per-layer input nearest to `trace` (at most kMaxSteps steps), with the
// pool that holds its pods and nodes and perturbation header `levels` (all 0:
// none).
std::string EncodeForFuzzing(const Trace& trace,
                             const PerturbLevels& levels = {});

// The hostile target's input: the layer byte, then the trace encoded in
// hostile mode.
std::string EncodeForHostile(const Trace& trace);

// The input of a seeded run of `steps` steps: the source with the options
// `config` and `levels` give (OptionsFor), its choices drawn from
// RandomChoices(seed). For the hostile target put HostileLayerByte(layer) in
// front.
std::string Recorded(Layer layer, Mode mode, uint8_t config,
                     const PerturbLevels& levels, uint64_t seed, int steps);

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_ENCODER_H_
