// Go's time.Time as the queue reads it: seconds and nanoseconds, so that
// Add, Sub, Before and After behave as Go's do for every clock the format
// allows (docs/FORMAT.md: 0 <= t <= 2^62 ms), far past the int64
// nanosecond range (about 292 years) where a pod's backoff expiry lands with
// a huge podMaxBackoff. The trace's t = 0 is the zero here (upstream's
// recordings start their fake clock at 2023-01-01T00:00:00Z).
//
//   Time ts = Time::FromMs(step.t);
//   Time expiry = ts.Add(backoff);            // time.Time.Add
//   if (expiry.After(now)) ...                // still backing off
//   int64_t ms = expiry.Ms();                 // what a snapshot prints
#ifndef SCHEDTRACE_MODEL_GO_TIME_H_
#define SCHEDTRACE_MODEL_GO_TIME_H_

#include <cstdint>

namespace schedtrace::model {

// A Go time.Duration: int64 nanoseconds.
using Duration = int64_t;

// A Go time.Duration of `ms` milliseconds (time.Duration(ms) *
// time.Millisecond, wrapping as Go's multiplication does).
Duration MsToDuration(int64_t ms);

class Time {
 public:
  Time() = default;
  // The instant t milliseconds after the trace's zero.
  static Time FromMs(int64_t ms);
  // Go's zero time.Time{} (January 1, year 1, UTC): before every instant of
  // a trace.
  static Time GoZero();

  // upstream: time.Time.Truncate(time.Second), for instants at or after
  // the trace's zero (a whole second of Go's absolute time).
  Time TruncateToSecond() const { return Time(sec_, 0); }
  // upstream: time.Time.IsZero.
  bool IsGoZero() const { return Equal(GoZero()); }

  // upstream: time.Time.Add (Go's time.go): exact, whatever d.
  Time Add(Duration d) const;
  // upstream: time.Time.Sub: t - u, saturated to the Duration range.
  Duration Sub(Time u) const;
  // upstream: time.Time.Before, After, Equal.
  bool Before(Time u) const {
    return sec_ < u.sec_ || (sec_ == u.sec_ && nsec_ < u.nsec_);
  }
  bool After(Time u) const { return u.Before(*this); }
  bool Equal(Time u) const { return sec_ == u.sec_ && nsec_ == u.nsec_; }

  // Whole milliseconds since the trace's zero, rounded down (as a
  // recording prints an instant).
  int64_t Ms() const;

 private:
  Time(int64_t sec, int64_t nsec) : sec_(sec), nsec_(nsec) {}
  int64_t sec_ = 0;   // seconds since the trace's zero
  int64_t nsec_ = 0;  // [0, 1e9)
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_GO_TIME_H_
