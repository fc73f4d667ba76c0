// impl's clock: an instant as 128-bit nanoseconds since the trace's t = 0,
// so that what Go's time.Time does exactly (Add past the int64 nanosecond
// range, where a huge backoff's expiry lands; clocks up to the format's
// 2^62 ms) is exact here too, with Sub saturating to a time.Duration as
// Go's does. The model keeps Go's seconds-and-nanoseconds form
// (model/go_time.h); the two share no time arithmetic.
#ifndef SCHEDTRACE_IMPL_TIME_NS_H_
#define SCHEDTRACE_IMPL_TIME_NS_H_

#include <cstdint>

namespace schedtrace::impl {

using TimeNs = __int128;

inline TimeNs TimeFromMs(int64_t ms) { return TimeNs{ms} * 1000000; }

// Go's Time.Sub: a - b as an int64 Duration, saturated at its ends.
inline int64_t SubSaturating(TimeNs a, TimeNs b) {
  const TimeNs d = a - b;
  if (d > INT64_MAX) return INT64_MAX;
  if (d < INT64_MIN) return INT64_MIN;
  return static_cast<int64_t>(d);
}

// Whole milliseconds, rounded towards negative infinity.
inline int64_t FloorMs(TimeNs t) {
  TimeNs q = t / 1000000;
  if (t % 1000000 != 0 && t < 0) --q;
  return static_cast<int64_t>(q);
}

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_TIME_NS_H_
