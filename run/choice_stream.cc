#include "run/choice_stream.h"

#include <algorithm>
#include <cmath>

namespace schedtrace {

RandomChoices::RandomChoices(uint64_t seed)
    : main_(seed), variety_(seed ^ 0x9e3779b97f4a7c15ull) {}

int RandomChoices::Rng::Uniform(int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng_);
}

bool RandomChoices::Rng::Chance(double p) {
  return std::bernoulli_distribution(std::clamp(p, 0.0, 1.0))(rng_);
}

namespace {

uint64_t Range(int lo, int hi) {
  return static_cast<uint64_t>(int64_t{hi} - lo) + 1;
}

}  // namespace

int ByteChoices::UniformBytes(int lo, int hi) {
  int n = 0;
  for (int shift = 0; (uint64_t{1} << shift) < Range(lo, hi); shift += 8) ++n;
  return n;
}

int ByteChoices::Uniform(int lo, int hi) {
  const uint64_t range = Range(lo, hi);
  uint64_t value = 0;
  for (int shift = 0; (uint64_t{1} << shift) < range; shift += 8) {
    value |= uint64_t{Byte()} << shift;
  }
  return static_cast<int>(lo + static_cast<int64_t>(value % range));
}

bool ByteChoices::Chance(double p) {
  const int b = Byte();
  return b >= 256 - static_cast<int>(std::ceil(std::clamp(p, 0.0, 1.0) * 256));
}

int RecordingChoices::Record(std::string& bytes, int lo, int hi, int value) {
  uint64_t v = static_cast<uint64_t>(int64_t{value} - lo);
  for (int i = ByteChoices::UniformBytes(lo, hi); i > 0; --i, v >>= 8) {
    bytes.push_back(static_cast<char>(v & 255));
  }
  return value;
}

bool RecordingChoices::Record(std::string& bytes, bool fired) {
  bytes.push_back(static_cast<char>(fired ? 255 : 0));
  return fired;
}

int RecordingChoices::Uniform(int lo, int hi) {
  return Record(bytes_, lo, hi, inner_.Uniform(lo, hi));
}

bool RecordingChoices::Chance(double p) {
  return Record(bytes_, inner_.Chance(p));
}

int RecordingChoices::Side::Uniform(int lo, int hi) {
  return Record(bytes_, lo, hi, inner_.Uniform(lo, hi));
}

bool RecordingChoices::Side::Chance(double p) {
  return Record(bytes_, inner_.Chance(p));
}

}  // namespace schedtrace
