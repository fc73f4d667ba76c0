// Go's int64 arithmetic where upstream relies on it, for the model: + - *
// wrap around (C++ signed overflow is undefined), and floor division for
// turning nanosecond times into the trace's milliseconds. impl has its own
// (impl/go_int.h): what the two shared, a differential could not check.
#ifndef SCHEDTRACE_MODEL_GO_INT_H_
#define SCHEDTRACE_MODEL_GO_INT_H_

#include <cstdint>

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

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_GO_INT_H_
