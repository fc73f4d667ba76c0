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
  // The slot byte: slot, uid generation, resourceVersion (decoder.cc).
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

  void Record(const Step& s, int64_t dt) {
    uint8_t flags = 0;
    switch (s.op) {
      case Op::kPodDelete:
      case Op::kNodeDelete:
        flags = s.tombstone ? 1 : 0;
        break;
      case Op::kScheduleOne:
        flags = (s.reserve == ReserveOutcome::kError ? 1 : 0) |
                (s.permit == PermitOutcome::kWait     ? 1 << 1
                 : s.permit == PermitOutcome::kReject ? 2 << 1
                                                      : 0);
        break;
      case Op::kBind:
        flags = (s.prebind_ok ? 0 : 1) | (s.bind_ok ? 0 : 2);
        break;
      case Op::kPodUpdate:
        if (s.old_pod && s.new_pod) {
          flags = (*s.old_pod == *s.new_pod ? 1 : 0) |
                  (s.old_pod->node_name.empty() && !s.new_pod->node_name.empty()
                       ? 2
                       : 0);
        }
        break;
      case Op::kPodAdd:
        flags = s.pod && !s.pod->node_name.empty() ? 2 : 0;
        break;
      default:
        break;
    }
    Put(static_cast<uint8_t>(OpIndex(s.op) | flags << 4));
    Put(DeltaIndex(std::max<int64_t>(dt, 1)));
    const size_t start = out_.size();
    switch (s.op) {
      case Op::kQAdd:
      case Op::kQDelete:
      case Op::kQAssignedPodAdded:
      case Op::kQAssignedPodUpdated:
      case Op::kCAssume:
      case Op::kCFinishBinding:
      case Op::kCForget:
      case Op::kCAddPod:
      case Op::kCRemovePod:
      case Op::kPodAdd:
      case Op::kPodDelete:
        PodArg(*s.pod);
        break;
      case Op::kQUpdate:
      case Op::kCUpdatePod:
      case Op::kPodUpdate:
        if (s.old_pod) {
          // Slot first, so a key first seen here gets its slot in order.
          const uint8_t old = KeySlotByte(s.old_pod->Key());
          PodArg(*s.new_pod);
          Put(old);
        } else {
          PodArg(*s.new_pod);
          Put(128);
        }
        break;
      case Op::kCAddNode:
      case Op::kCRemoveNode:
      case Op::kNodeAdd:
      case Op::kNodeDelete:
        NodeArg(*s.node);
        break;
      case Op::kCUpdateNode:
      case Op::kNodeUpdate: {
        const uint8_t old = static_cast<uint8_t>(NodeSlot(s.old_node->name));
        NodeArg(*s.new_node);
        Put(old);
        break;
      }
      case Op::kQAddUnschedulable: {
        Put(KeySlotByte(s.pod_key));
        uint8_t bits = 0;
        const auto& plugins = UnschedulablePlugins();
        for (const std::string& p : s.plugins) {
          auto it = std::find(plugins.begin(), plugins.end(), p);
          if (it != plugins.end()) bits |= 1u << (it - plugins.begin());
        }
        Put(bits);
        Put(s.cycle ? static_cast<uint8_t>(
                          1 | (std::clamp<int64_t>(*s.cycle, 0, 127) << 1))
                    : 0);
        break;
      }
      case Op::kQActivate: {
        uint8_t bits = 0;
        for (const std::string& k : s.pod_keys) bits |= 1u << PodSlot(k);
        Put(bits);
        break;
      }
      case Op::kQMoveAll: {
        const auto& events = MoveEvents();
        size_t best = 0;
        for (size_t i = 0; i < events.size(); ++i) {
          if (events[i] == s.event) {
            best = i;
            break;
          }
          if (events[i].resource == s.event.resource &&
              events[i].action == s.event.action && best == 0) {
            best = i;
          }
        }
        Put(static_cast<uint8_t>(best));
        uint8_t bits = 0;
        if (s.precheck) {
          bits = 128;
          for (const std::string& k : *s.precheck) bits |= 1u << PodSlot(k);
        }
        Put(bits);
        break;
      }
      case Op::kQNominate:
        Put(SlotByte(*s.pod));
        Put(s.nominated_node.empty()
                ? 3
                : static_cast<uint8_t>(NodeSlot(s.nominated_node)));
        break;
      case Op::kClusterEvent: {
        const auto& rs = ClusterEventResources();
        auto it = std::find(rs.begin(), rs.end(), s.event.resource);
        uint8_t b = it == rs.end() ? 0 : static_cast<uint8_t>(it - rs.begin());
        if (s.event.action != "Add") b |= 8;
        if (s.wait_for_first_consumer) b |= 16;
        Put(b);
        break;
      }
      case Op::kPermitAllow:
      case Op::kPermitReject:
      case Op::kBind:
        Put(KeySlotByte(s.pod_key));
        break;
      default:
        break;
    }
    // Always exactly ArgBytes(op), so records stay aligned.
    out_.resize(start + ArgBytes(s.op), '\0');
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
