#include "fuzz/encoder.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <vector>

#include "absl/strings/numbers.h"
#include "fuzz/decoder.h"

namespace schedtrace::fuzz {
namespace {

class Encoder {
 public:
  explicit Encoder(const Trace& trace) : trace_(trace) {}

  std::string Run() {
    out_.push_back(static_cast<char>(ConfigByte(trace_.header)));
    int64_t last_t = 0;
    int n = 0;
    for (const Step& step : trace_.steps) {
      if (n++ >= kMaxSteps) break;
      Record(step, step.t - last_t);
      last_t = step.t;
    }
    return out_;
  }

 private:
  int PodSlot(const std::string& key) {
    auto [it, inserted] = pod_slots_.emplace(key, 0);
    if (inserted) it->second = static_cast<int>(pod_slots_.size() - 1);
    return it->second % kPodPool;
  }
  int NodeSlot(const std::string& name) {
    auto [it, inserted] = node_slots_.emplace(name, 0);
    if (inserted) it->second = static_cast<int>(node_slots_.size() - 1);
    return it->second % kNodePool;
  }
  // The slot byte: slot, uid generation, resourceVersion (byte_format.cc).
  uint8_t SlotByte(const Pod& pod) {
    const int slot = PodSlot(pod.Key());
    std::vector<std::string>& uids = uids_[pod.Key()];
    auto it = std::find(uids.begin(), uids.end(), pod.uid);
    int gen = static_cast<int>(it - uids.begin());
    if (it == uids.end()) uids.push_back(pod.uid);
    int64_t rv = 1;
    if (!absl::SimpleAtoi(pod.resource_version, &rv)) rv = 1;
    rv = std::clamp<int64_t>(rv, 1, 8);
    return static_cast<uint8_t>(slot | (gen & 3) << 3 | (rv - 1) << 5);
  }
  uint8_t KeySlotByte(const std::string& key) {
    return static_cast<uint8_t>(PodSlot(key));
  }
  void PodArg(const Pod& pod) {
    const uint8_t slot = SlotByte(pod);
    std::array<uint8_t, 2> v =
        PodVariant::Of(pod, [this](const std::string& n) {
          return NodeSlot(n);
        }).Pack();
    Put(slot);
    Put(v[0]);
    Put(v[1]);
  }
  void NodeArg(const Node& node) {
    Put(static_cast<uint8_t>(NodeSlot(node.name)));
    Put(NodeVariant::Of(node).Pack());
  }
  void Put(uint8_t b) { out_.push_back(static_cast<char>(b)); }

  static uint8_t DeltaIndex(int64_t dt) {
    const auto& table = DeltaTable();
    int best = 0;
    for (int i = 1; i < 16; ++i) {
      if (std::llabs(table[i] - dt) < std::llabs(table[best] - dt)) best = i;
    }
    return static_cast<uint8_t>(best);
  }

  uint8_t OpIndex(Op op) const {
    const auto& table = OpTable(trace_.header.layer);
    for (int i = 0; i < 16; ++i) {
      if (table[i] == op) return static_cast<uint8_t>(i);
    }
    return 0;
  }

  // The flag and outcome arguments' bits (FlagShift), then the hints valid
  // mode reads from the scheduler layer's pod records.
  static uint8_t Flags(const Step& s) {
    uint8_t flags = 0;
    for (const ArgSpec& a : SpecOf(s.op).Args()) {
      const int shift = FlagShift(s.op, a.arg);
      if (shift < 0) continue;
      int bits = 0;
      switch (a.arg) {
        case Arg::kTombstone:
          bits = s.tombstone ? 1 : 0;
          break;
        case Arg::kReserve:
          bits = s.reserve == ReserveOutcome::kError ? 1 : 0;
          break;
        case Arg::kPermit:
          bits = s.permit == PermitOutcome::kWait     ? 1
                 : s.permit == PermitOutcome::kReject ? 2
                                                      : 0;
          break;
        case Arg::kPreBind:
          bits = s.prebind_ok ? 0 : 1;
          break;
        case Arg::kBindResult:
          bits = s.bind_ok ? 0 : 1;
          break;
        default:
          break;
      }
      flags |= static_cast<uint8_t>(bits << shift);
    }
    if (s.op == Op::kPodUpdate && s.old_pod && s.new_pod) {
      // bit 4 a resync, bit 5 a bind (byte_format.cc)
      flags =
          (*s.old_pod == *s.new_pod ? 1 : 0) |
          (s.old_pod->node_name.empty() && !s.new_pod->node_name.empty() ? 2
                                                                         : 0);
    } else if (s.op == Op::kPodAdd) {
      flags = s.pod && !s.pod->node_name.empty() ? 2 : 0;  // an assigned pod
    }
    return flags;
  }

  void Record(const Step& s, int64_t dt) {
    Put(static_cast<uint8_t>(OpIndex(s.op) | Flags(s) << 4));
    Put(DeltaIndex(std::max<int64_t>(dt, 1)));
    const size_t start = out_.size();
    // The op table's arguments in order, except that an update's old
    // version (its slot byte, taken first so that a key first seen here
    // gets its slot in order) follows the new object.
    std::array<uint8_t, kMaxArgs> old_bytes;
    int olds = 0;
    size_t event_byte = 0;
    for (const ArgSpec& a : SpecOf(s.op).Args()) {
      if (a.arg == Arg::kOldPod) {
        old_bytes[olds++] = s.old_pod ? KeySlotByte(s.old_pod->Key()) : 128;
      } else if (a.arg == Arg::kOldNode) {
        old_bytes[olds++] = static_cast<uint8_t>(NodeSlot(s.old_node->name));
      } else {
        PutArg(s, a.arg, event_byte);
      }
    }
    for (int i = 0; i < olds; ++i) Put(old_bytes[i]);
    // Always exactly ArgBytes(op), so records stay aligned.
    out_.resize(start + ArgBytes(s.op), '\0');
  }

  // One argument of `s` but an old version, in its record form;
  // `event_byte`: where cluster_event's resource byte is, which its later
  // arguments set bits of.
  void PutArg(const Step& s, Arg arg, size_t& event_byte) {
    switch (arg) {
      case Arg::kPod:
        if (s.op == Op::kQNominate) {
          Put(SlotByte(*s.pod));  // its slot byte alone (ArgWidth)
        } else {
          PodArg(*s.pod);
        }
        break;
      case Arg::kNewPod:
        PodArg(*s.new_pod);
        break;
      case Arg::kNode:
        NodeArg(*s.node);
        break;
      case Arg::kNewNode:
        NodeArg(*s.new_node);
        break;
      case Arg::kPodKey:
        Put(KeySlotByte(s.pod_key));
        break;
      case Arg::kPlugins:
        Put(PluginBits(s.plugins));
        break;
      case Arg::kCycle:
        Put(s.cycle ? static_cast<uint8_t>(
                          1 | (std::clamp<int64_t>(*s.cycle, 0, 127) << 1))
                    : 0);
        break;
      case Arg::kPodKeys:
        Put(KeyBits(s.pod_keys));
        break;
      case Arg::kMoveEvent:
        Put(MoveEventIndex(s.event));
        break;
      case Arg::kPrecheck:
        Put(s.precheck ? static_cast<uint8_t>(128 | KeyBits(*s.precheck)) : 0);
        break;
      case Arg::kNominatedNode:
        Put(s.nominated_node.empty()
                ? 3
                : static_cast<uint8_t>(NodeSlot(s.nominated_node)));
        break;
      case Arg::kEventResource: {
        const auto& rs = ClusterEventResources();
        auto it = std::find(rs.begin(), rs.end(), s.event.resource);
        event_byte = out_.size();
        Put(it == rs.end() ? 0 : static_cast<uint8_t>(it - rs.begin()));
        break;
      }
      case Arg::kEventAction:
        if (s.event.action != "Add") out_[event_byte] |= 8;
        break;
      case Arg::kWaitForFirstConsumer:
        if (s.wait_for_first_consumer) out_[event_byte] |= 16;
        break;
      default:  // flags: in the op byte; old versions: after the record
        break;
    }
  }

  // One bit per plugin of UnschedulablePlugins (others are dropped).
  static uint8_t PluginBits(const std::vector<std::string>& names) {
    uint8_t bits = 0;
    const auto& plugins = UnschedulablePlugins();
    for (const std::string& p : names) {
      auto it = std::find(plugins.begin(), plugins.end(), p);
      if (it != plugins.end()) bits |= 1u << (it - plugins.begin());
    }
    return bits;
  }

  // One bit per key's pod slot.
  uint8_t KeyBits(const std::vector<std::string>& keys) {
    uint8_t bits = 0;
    for (const std::string& k : keys) bits |= 1u << PodSlot(k);
    return bits;
  }

  // The MoveEvents index of `event`, else the first of its resource and
  // action, else 0.
  static uint8_t MoveEventIndex(const ClusterEvent& event) {
    const auto& events = MoveEvents();
    size_t best = 0;
    for (size_t i = 0; i < events.size(); ++i) {
      if (events[i] == event) {
        best = i;
        break;
      }
      if (events[i].resource == event.resource &&
          events[i].action == event.action && best == 0) {
        best = i;
      }
    }
    return static_cast<uint8_t>(best);
  }

  const Trace& trace_;
  std::string out_;
  std::map<std::string, int> pod_slots_;
  std::map<std::string, int> node_slots_;
  std::map<std::string, std::vector<std::string>> uids_;
};

}  // namespace

uint8_t ConfigByte(const TraceHeader& header) {
  const Config& c = header.config;
  uint8_t b = 0;
  if (c.pod_max_backoff_ms <= 1000) {
    b = 3;
  } else if (c.pod_initial_backoff_ms >= 2000) {
    b = 2;
  } else if (c.pod_max_backoff_ms <= 2000) {
    b = 1;
  }
  if (c.assumed_pod_ttl_ms > 0) b |= 4;
  auto f = c.features.find("PodSchedulingReadiness");
  if (f != c.features.end() && !f->second) b |= 8;
  if (c.profiles.size() > 1) b |= 16;
  return b;
}

std::string WithPerturbations(std::string_view input,
                              const PerturbLevels& levels) {
  const uint8_t config = input.empty() ? 0 : static_cast<uint8_t>(input[0]);
  std::string_view records = input.empty() ? input : input.substr(1);
  if (config & kPerturbHeaderBit) {
    records.remove_prefix(
        std::min<size_t>(records.size(), kPerturbHeaderBytes));
  }
  std::string out(1, static_cast<char>(config | kPerturbHeaderBit));
  for (int i = 0; i < kPerturbHeaderBytes; ++i) {
    const uint8_t lo = 2 * i < kPerturbKinds ? levels[2 * i] & 15 : 0;
    const uint8_t hi = 2 * i + 1 < kPerturbKinds ? levels[2 * i + 1] & 15 : 0;
    out.push_back(static_cast<char>(lo | hi << 4));
  }
  out.append(records);
  return out;
}

std::string WithDraws(Layer layer, std::string_view input, uint64_t seed) {
  std::string out(input);
  if (out.empty()) return out;
  size_t pos = 1;
  if (static_cast<uint8_t>(out[0]) & kPerturbHeaderBit) {
    pos += kPerturbHeaderBytes;
  }
  uint64_t state = seed;
  // Records as the decoder reads them; a last record cut short keeps the
  // bytes it has (the decoder reads the missing ones as 0).
  while (pos < out.size()) {
    const Op op = OpTable(layer)[static_cast<uint8_t>(out[pos]) & 15];
    if (pos + 1 < out.size()) {
      // splitmix64
      uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      const uint8_t draw = static_cast<uint8_t>(z >> 60);
      const uint8_t dt = static_cast<uint8_t>(out[pos + 1]);
      out[pos + 1] = static_cast<char>((dt & 15) | draw << 4);
    }
    pos += 2 + ArgBytes(op);
  }
  return out;
}

PerturbLevels LevelsFor(const Perturbations& p) {
  const std::array<double, kPerturbKinds> probs = {
      p.resync,          p.race,          p.tombstone, p.recreate,
      p.recreate_update, p.node_recreate, p.node_burst};
  PerturbLevels levels = {};
  for (int k = 0; k < kPerturbKinds; ++k) {
    if (probs[k] <= 0) continue;
    levels[k] = static_cast<uint8_t>(
        std::clamp<long>(std::lround(probs[k] * 16), 1, 15));
  }
  return levels;
}

std::string EncodeForFuzzing(const Trace& trace) {
  return Encoder(trace).Run();
}

std::string EncodeForHostile(const Trace& trace) {
  return std::string(1,
                     static_cast<char>(HostileLayerByte(trace.header.layer))) +
         EncodeForFuzzing(trace);
}

}  // namespace schedtrace::fuzz
