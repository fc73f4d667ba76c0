#include "model/go_time.h"

#include "model/go_int.h"

namespace schedtrace::model {
namespace {

constexpr int64_t kNsPerSec = 1000000000;
constexpr Duration kMinDuration = INT64_MIN;
constexpr Duration kMaxDuration = INT64_MAX;

}  // namespace

Duration MsToDuration(int64_t ms) { return WrapMul(ms, 1000000); }

// 0001-01-01 is 62135596800 s before the Unix epoch, and the trace's zero
// (2023-01-01T00:00:00Z) is 1672531200 s after it.
Time Time::GoZero() { return Time(-(62135596800LL + 1672531200LL), 0); }

Time Time::FromMs(int64_t ms) {
  const int64_t sec = FloorDiv(ms, 1000);
  return Time(sec, (ms - sec * 1000) * 1000000);
}

// Go: dsec := int64(d / 1e9); nsec := t.nsec() + int32(d%1e9), carried
// into [0, 1e9); then the seconds added.
Time Time::Add(Duration d) const {
  int64_t dsec = d / kNsPerSec;
  int64_t nsec = nsec_ + d % kNsPerSec;
  if (nsec >= kNsPerSec) {
    ++dsec;
    nsec -= kNsPerSec;
  } else if (nsec < 0) {
    --dsec;
    nsec += kNsPerSec;
  }
  return Time(sec_ + dsec, nsec);
}

// Go: d := Duration(t.sec()-u.sec())*Second + Duration(t.nsec()-u.nsec()),
// kept when u.Add(d) is t, else the Duration's end on t's side of u.
Duration Time::Sub(Time u) const {
  const Duration d =
      WrapAdd(WrapMul(WrapSub(sec_, u.sec_), kNsPerSec), nsec_ - u.nsec_);
  if (u.Add(d).Equal(*this)) return d;
  return Before(u) ? kMinDuration : kMaxDuration;
}

int64_t Time::Ms() const { return sec_ * 1000 + nsec_ / 1000000; }

}  // namespace schedtrace::model
