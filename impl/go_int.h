// Go's int64 + - * for impl: they wrap around where C++'s signed overflow is
// undefined. Written with the compiler's overflow builtins, apart from the
// model's (model/go_int.h), so that the differential checks both.
#ifndef SCHEDTRACE_IMPL_GO_INT_H_
#define SCHEDTRACE_IMPL_GO_INT_H_

#include <cstdint>

namespace schedtrace::impl {

inline int64_t WrapAdd(int64_t a, int64_t b) {
  int64_t r;
  __builtin_add_overflow(a, b, &r);  // r is the wrapped sum either way
  return r;
}
inline int64_t WrapSub(int64_t a, int64_t b) {
  int64_t r;
  __builtin_sub_overflow(a, b, &r);
  return r;
}
inline int64_t WrapMul(int64_t a, int64_t b) {
  int64_t r;
  __builtin_mul_overflow(a, b, &r);
  return r;
}

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_GO_INT_H_
