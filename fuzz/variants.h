// A pod's or a node's attributes in the bytes of a fuzz record (decoder.h):
// what the decoder builds an object from, and the nearest such variant of
// any object (what the encoder writes). Part of the byte format
// (byte_format.h): the bit layouts are a contract with the committed corpus.
#ifndef SCHEDTRACE_FUZZ_VARIANTS_H_
#define SCHEDTRACE_FUZZ_VARIANTS_H_

#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "harness/objects.h"

namespace schedtrace::fuzz {

// A pod's attributes in two bytes (see variants.cc for the bit layout).
struct PodVariant {
  int priority = 0;    // index into {nil, 0, 10, 100}
  int cpu = 0;         // index into {none, 100m, 250m, 500m, 1, 1500m, 2, 4}
  bool gated = false;  // one scheduling gate
  bool other_scheduler = false;
  bool annotated = false;
  int node = 0;      // spec.nodeName: 0 none, i+1 = n<i>
  int selector = 0;  // 0 none, 1 zone=a, 2 zone=b, 3 affinity zone In [a]
  bool tolerates = false;
  bool memory = false;     // requests 1Gi memory
  bool nominated = false;  // status.nominatedNodeName = the node above, or n0
  bool deleting = false;   // metadata.deletionTimestamp
  std::array<uint8_t, 2> Pack() const;
  static PodVariant Unpack(uint8_t b0, uint8_t b1);
  // The nearest variant (the encoder); `node_slot` maps a node name to its
  // pool slot.
  static PodVariant Of(const Pod& pod,
                       const std::function<int(const std::string&)>& node_slot);
};

struct NodeVariant {
  int cpu = 0;  // index into {1, 2, 4, 500m}
  bool unschedulable = false;
  bool tainted = false;  // dedicated=x:NoSchedule
  bool zone_b = false;
  bool not_ready = false;
  bool few_pods = false;  // allocatable pods 1
  // Bit 7, the rarer node: a tainted node's taint is PreferNoSchedule (it
  // must not filter); an untainted node scores 101 + slot, outside [0, 100]
  // (a cycle that scores it fails).
  bool odd = false;
  uint8_t Pack() const;
  static NodeVariant Unpack(uint8_t b);
  static NodeVariant Of(const Node& node);
};

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_VARIANTS_H_
