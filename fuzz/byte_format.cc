#include "fuzz/byte_format.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace schedtrace::fuzz {

Perturbations PerturbationsOf(const PerturbLevels& levels) {
  Perturbations p;
  for (int k = 0; k < kPerturbKinds; ++k) {
    p.*kPerturbFields[k] = std::min<int>(levels[k], 15) / 16.0;
  }
  return p;
}

PerturbLevels LevelsFor(const Perturbations& p) {
  PerturbLevels levels = {};
  for (int k = 0; k < kPerturbKinds; ++k) {
    const double v = std::clamp(p.*kPerturbFields[k], 0.0, 1.0);
    if (v <= 0) continue;
    levels[k] = static_cast<uint8_t>(
        std::clamp(static_cast<int>(std::lround(v * 16)), 1, 15));
  }
  return levels;
}

GenOptions OptionsFor(Layer layer, Mode mode, uint8_t config,
                      const PerturbLevels& levels,
                      const std::optional<Perturbations>& forced) {
  GenOptions o;
  const Pool& pool = kPools[config & 3];
  o.pods = pool.pods;
  o.queue_pool = pool.pods;
  o.nodes = pool.nodes;
  o.steps = kMaxSteps;
  o.seed = 0;
  o.upstream = kFuzzVersions[VersionOf(config)];
  // Clocks that land on the queue's boundaries: ordinary steps from 1 ms (so
  // a step can end exactly as a 1 s or 2 s backoff does), backoff jumps
  // over 1-10 s, and flush jumps within a millisecond of the 5-minute
  // podMaxInUnschedulablePodsDuration (before, on, after).
  o.clock.min_ms = 1;
  o.clock.backoff = {.p = 0.15, .min_ms = 1000, .max_ms = 10001};
  o.clock.flush = {.p = 0.05, .min_ms = 299999, .max_ms = 300001};
  if (mode == Mode::kHostile) {
    o.hostile = true;
    o.variety.hostile_rate = kHostileRates[(config >> 2) & 3];
  }
  if (forced) {
    o.perturb = *forced;
  } else if (config & kPerturbHeaderBit) {
    o.perturb = PerturbationsOf(levels);
  }
  // The queue layer sees no nodes: its node kinds would never fire.
  if (layer == Layer::kQueue) {
    o.perturb.node_recreate = 0;
    o.perturb.node_burst = 0;
  }
  return o;
}

uint8_t ConfigByte(int pool, int hostile, bool perturbed, int version) {
  return static_cast<uint8_t>(
      (pool & 3) | (hostile & 3) << 2 | (version & 4 ? kVersionHighBit : 0) |
      (perturbed ? kPerturbHeaderBit : 0) | (version & 3) << kVersionShift);
}

int VersionOf(uint8_t config) {
  return ((config >> kVersionShift) & 3) | (config & kVersionHighBit ? 4 : 0);
}

int VersionIndex(std::string_view version) {
  for (int i = 0; i < static_cast<int>(kFuzzVersions.size()); ++i) {
    if (version == kFuzzVersions[i]) return i;
  }
  return 0;
}

std::string InputPrefix(uint8_t config, const PerturbLevels& levels) {
  const bool perturbed =
      std::any_of(levels.begin(), levels.end(), [](uint8_t l) { return l; });
  std::string s(1, static_cast<char>(perturbed ? config | kPerturbHeaderBit
                                               : config & ~kPerturbHeaderBit));
  if (!perturbed) return s;
  for (int i = 0; i < kPerturbHeaderBytes; ++i) {
    const int lo = 2 * i < kPerturbKinds ? levels[2 * i] & 15 : 0;
    const int hi = 2 * i + 1 < kPerturbKinds ? levels[2 * i + 1] & 15 : 0;
    s.push_back(static_cast<char>(lo | hi << 4));
  }
  return s;
}

Layer HostileLayer(uint8_t byte) {
  switch (byte % 3) {
    case 0:
      return Layer::kQueue;
    case 1:
      return Layer::kCache;
    default:
      return Layer::kScheduler;
  }
}

uint8_t HostileLayerByte(Layer layer) {
  switch (layer) {
    case Layer::kQueue:
      return 0;
    case Layer::kCache:
      return 1;
    case Layer::kScheduler:
      break;
  }
  return 2;
}

}  // namespace schedtrace::fuzz
