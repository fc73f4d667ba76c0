// The fuzz inputs' byte format (fuzz/decoder.h): a config byte, an optional
// perturbation header, then the step source's choices (run/
// step_source.h) as ByteChoices reads them (run/choice_stream.h). A
// contract with the committed corpus/ (decoder_pin_test pins it): a change
// here, or in the order or ranges of the step source's draws, changes what
// committed inputs mean, so re-derive corpus/ in the same change (README,
// "Fuzzing").
//
//   byte 0      config:
//                 bits 0-1  the pools: pods and nodes (kPools)
//                 bits 2-3  hostile target: the share of hostile steps
//                           (kHostileRates)
//                 bit 4     the version's high bit
//                 bit 5     a perturbation header follows
//                 bits 6-7  with bit 4, the upstream version whose
//                           profile runs (kFuzzVersions[bits 6-7 +
//                           4 * bit 4]: 0 is v1.26.7, so inputs from
//                           before versions keep their meaning, and so do
//                           those from before bit 4 chose a version, which
//                           never set it)
//   bytes 1-4   (only with bit 5) one level nibble per informer
//               perturbation, low then high: [race|resync]
//               [recreate|tombstone] [node_recreate|recreate_update]
//               [-|node_burst]; level L fires at a step with probability
//               L/16
//   then        the choices: the header's (a second profile, the TTL, a huge
//               backoff), then each step's, until the bytes run out or
//               kMaxSteps
//
// The hostile target's input has one more byte in front: the layer
// (HostileLayer).
#ifndef SCHEDTRACE_FUZZ_BYTE_FORMAT_H_
#define SCHEDTRACE_FUZZ_BYTE_FORMAT_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/op_table.h"
#include "run/gen_options.h"

namespace schedtrace::fuzz {

// What a fuzz input drives: a valid sequence, or one with hostile steps.
enum class Mode { kValid, kHostile };

inline constexpr int kMaxSteps = 200;

// The pools config bits 0-1 choose: small pools make pods collide, are
// deleted and created again and nodes come and go under pods; the larger
// grow heaps past a few levels.
struct Pool {
  int pods;
  int nodes;
};
inline constexpr std::array<Pool, 4> kPools = {
    {{6, 3}, {3, 2}, {12, 4}, {24, 6}}};

// The share of hostile steps config bits 2-3 choose (hostile mode only).
inline constexpr std::array<double, 4> kHostileRates = {0.15, 0.3, 0.6, 0.05};

inline constexpr uint8_t kPerturbHeaderBit = 32;  // in the config byte

// The version config bits 6-7 and 4 choose (the trace header's
// `upstream`). A target whose layer the model does not judge on the version
// chosen skips the input (fuzz/lockstep.h): which ones it judges is the
// systems' say (properties/judged_upstreams.h), so the targets reach a
// layer's new version the day it is judged.
inline constexpr std::array<const char*, 8> kFuzzVersions = {
    "v1.26.7", "v1.30.12", "v1.25.12", "v1.26.7",
    "v1.35.4", "v1.36.3",  "v1.37.2",  "v1.37.2"};
inline constexpr int kVersionShift = 6;
inline constexpr uint8_t kVersionHighBit = 16;  // in the config byte
// The index in kFuzzVersions the config byte chooses.
int VersionOf(uint8_t config);
// The first index of `version` in kFuzzVersions (0 for one it lacks).
int VersionIndex(std::string_view version);
inline constexpr int kPerturbHeaderBytes = 4;

// The perturbation header: a level per kind (PerturbKind order), 0 (off) to
// 15.
using PerturbLevels = std::array<uint8_t, kPerturbKinds>;

// The probabilities `levels` stand for (level / 16).
Perturbations PerturbationsOf(const PerturbLevels& levels);

// The levels nearest to `p` (round(16 p), at least 1 when p > 0, at most 15).
PerturbLevels LevelsFor(const Perturbations& p);

// The step source's options for an input of `layer` in `mode` whose config
// byte is `config` and perturbation header `levels` (all 0 without one): the
// pools, hostile share and perturbations the input chooses, and clock steps
// that reach the queue's boundaries exactly (1 ms steps, backoff jumps of
// 1-10 s, flush jumps of 5 minutes +-1 ms). `forced`, when set, replaces
// the probabilities `levels` give (the queue layer's node kinds stay off
// either way: it sees no nodes).
GenOptions OptionsFor(Layer layer, Mode mode, uint8_t config,
                      const PerturbLevels& levels,
                      const std::optional<Perturbations>& forced = {});

// The config byte of pool `pool` (index in kPools), hostile rate `hostile`
// (index in kHostileRates), with the perturbation header bit when
// `perturbed`, and version `version` (index in kFuzzVersions).
uint8_t ConfigByte(int pool, int hostile, bool perturbed, int version = 0);

// The config byte and perturbation header of an input (levels all 0 means
// no header).
std::string InputPrefix(uint8_t config, const PerturbLevels& levels);

// The hostile target's first byte picks the layer.
Layer HostileLayer(uint8_t byte);
// Its inverse: 0, 1, 2 for queue, cache, scheduler.
uint8_t HostileLayerByte(Layer layer);

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_BYTE_FORMAT_H_
