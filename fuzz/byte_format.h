// The fuzz inputs' byte format (decoder.h): the pools, what each nibble and
// byte of a record indexes, how many bytes an op's arguments take, the config
// byte's header and the perturbation header. A contract with the committed
// corpus/ (decoder_pin_test pins it): a change here changes what every
// committed input means. byte_format.cc has the record layout.
#ifndef SCHEDTRACE_FUZZ_BYTE_FORMAT_H_
#define SCHEDTRACE_FUZZ_BYTE_FORMAT_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/generator.h"
#include "harness/op_table.h"
#include "harness/trace.h"

namespace schedtrace::fuzz {

inline constexpr int kPodPool = 6;   // p0..p5, even in "default", odd in "team"
inline constexpr int kNodePool = 3;  // n0..n2, TraceScore label i+1

// The op nibbles of a layer: the low 4 bits of a record's op byte index it.
// Frequent ops appear twice; the encoder uses the first index. Part of the
// byte format (the committed corpus/ means what it means through it), so
// it is written out here rather than derived from harness/op_table.h: an op
// added there is fuzzed once it takes one of the repeated nibbles, which
// changes what corpus records with that nibble decode to
// (docs/ADDING-AN-OP.md).
const std::array<Op, 16>& OpTable(Layer layer);

// The clock table: the low 4 bits of a record's dt byte index it (ms).
const std::array<int64_t, 16>& DeltaTable();

// q_move_all's events (resource, action, label as upstream names them).
const std::vector<ClusterEvent>& MoveEvents();
// cluster_event's resources (action chosen by a bit).
const std::vector<std::string>& ClusterEventResources();
// q_add_unschedulable's plugins, one bit each.
const std::vector<std::string>& UnschedulablePlugins();

// How many argument bytes follow [op][dt] for `op`: the sum of its op-table
// arguments' ArgWidth.
int ArgBytes(Op op);
// The bytes one argument of `op` takes in its record (byte_format.cc's layout):
// 0 for those held in the op byte's flags or in another argument's byte.
int ArgWidth(Op op, Arg arg);
// Where a flag or outcome argument of `op` sits in the op byte's flags
// (bits 4-7, shifted down): the flag arguments take bits in the op table's
// order, one each, permit two. -1 for other arguments.
int FlagShift(Op op, Arg arg);

// The header byte 0 decodes to, for `layer`.
TraceHeader HeaderFor(Layer layer, uint8_t config_byte);
// The same header, built once per (layer, byte) and kept for the life of the
// process (thread-safe): a decoder refers to it instead of copying it.
const TraceHeader& CachedHeaderFor(Layer layer, uint8_t config_byte);

// The hostile target's first byte picks the layer.
Layer HostileLayer(uint8_t byte);
// Its inverse: 0, 1, 2 for queue, cache, scheduler (also the layer's index
// in tables per layer).
uint8_t HostileLayerByte(Layer layer);

// The pool's pod keys ("default/p0", "team/p1", ...), built once.
const std::array<std::string, kPodPool>& PodKeys();
// The pool's slots in the order of their keys ("default/p0", "default/p2",
// ... "team/p5").
const std::array<int, kPodPool>& SlotsByKey();
// A slot byte's pod slot (bits 0-2) and node slot (bits 0-1).
inline int SlotOf(uint8_t b) { return (b & 7) % kPodPool; }
inline int NodeSlotOf(uint8_t b) { return (b & 3) % kNodePool; }
// The slot of a pool pod's key or a pool node's name, -1 for another.
int PodSlotOfKey(std::string_view key);
int NodeSlotOfName(const std::string& name);

std::string PodName(int slot);
std::string PodNamespace(int slot);
std::string NodeName(int slot);

// PerturbKind, kPerturbKinds, kPerturbFields and PerturbKindName
// (harness/gen_options.h) order the perturbation header's nibbles.

// The perturbation header: a level per kind, 0 (off) to 15. Level L fires
// at a record with probability L/16. Bytes 1-4 of an input carry them as
// nibbles, low then high: [race|resync] [recreate|tombstone]
// [node_recreate|recreate_update] [-|node_burst].
using PerturbLevels = std::array<uint8_t, kPerturbKinds>;

// The probabilities `levels` stand for (level / 16).
Perturbations PerturbationsOf(const PerturbLevels& levels);

inline constexpr uint8_t kPerturbHeaderBit = 32;  // in the config byte
inline constexpr int kPerturbHeaderBytes = 4;

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_BYTE_FORMAT_H_
