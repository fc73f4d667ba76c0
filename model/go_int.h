// Go's int64 arithmetic where upstream relies on it, for the model: + - *
// wrap around (C++ signed overflow is undefined), floor division for
// turning nanosecond times into the trace's milliseconds, and
// strconv.ParseInt's reading of a decimal integer. impl has its own
// (impl/go_int.h): what the two shared, a differential could not check.
#ifndef SCHEDTRACE_MODEL_GO_INT_H_
#define SCHEDTRACE_MODEL_GO_INT_H_

#include <charconv>
#include <cstdint>
#include <string_view>

namespace schedtrace::model {

inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
inline int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
inline int64_t WrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
// a / b rounded towards negative infinity.
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// upstream: strconv.ParseInt(s, 10, 64), which is strconv.Atoi on 64-bit
// Go: one optional sign ("+5", "-0"; not "+-5", " 5" or "5 "), then at
// least one decimal digit (leading zeros allowed: "007"), within int64.
inline bool ParseGoInt64(std::string_view s, int64_t& out) {
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  if (begin == end) return false;
  if (*begin == '+' && end - begin > 1 && begin[1] != '-') ++begin;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(begin, end, v);
  if (ec != std::errc() || ptr != end) return false;
  out = v;
  return true;
}

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_GO_INT_H_
