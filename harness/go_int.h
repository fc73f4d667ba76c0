// Go's int64 arithmetic where upstream relies on it: + - * wrap around
// (C++ signed overflow is undefined), and floor division for turning
// nanosecond times into the trace's milliseconds. Shared by model and impl.
#ifndef SCHEDTRACE_HARNESS_GO_INT_H_
#define SCHEDTRACE_HARNESS_GO_INT_H_

#include <cstdint>

namespace schedtrace {

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

}  // namespace schedtrace

#endif  // SCHEDTRACE_HARNESS_GO_INT_H_
