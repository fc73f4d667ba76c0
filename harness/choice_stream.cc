#include "harness/choice_stream.h"

#include <algorithm>

namespace schedtrace {

RandomChoices::RandomChoices(uint64_t seed)
    : main_(seed), variety_(seed ^ 0x9e3779b97f4a7c15ull) {}

int RandomChoices::Rng::Uniform(int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng_);
}

bool RandomChoices::Rng::Chance(double p) {
  return std::bernoulli_distribution(std::clamp(p, 0.0, 1.0))(rng_);
}

int ByteChoices::Uniform(int lo, int hi) {
  const uint64_t range = static_cast<uint64_t>(int64_t{hi} - lo) + 1;
  uint64_t value = 0;
  for (int shift = 0; (uint64_t{1} << shift) < range; shift += 8) {
    value |= uint64_t{Byte()} << shift;
  }
  return static_cast<int>(lo + static_cast<int64_t>(value % range));
}

bool ByteChoices::Chance(double p) {
  const int b = Byte();
  return b >= 256 - static_cast<int>(std::clamp(p, 0.0, 1.0) * 256);
}

}  // namespace schedtrace
