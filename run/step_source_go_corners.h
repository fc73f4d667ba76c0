// Inside the step source (run/step_source.h): the Go corners, inputs
// that schedtrace decodes itself and upstream's child decodes with
// encoding/json, so that `diff --b=exec:upstream` meets Go's own readings:
//   - a node's score label spelled as strconv.Atoi reads it ("+5", "07",
//     "-0", " 0": TraceScore, docs/FORMAT.md);
//   - a request or allocatable quantity whose Value or MilliValue overflows
//     int64 (apimachinery's positiveScaleInt64 wraps or reads 0,
//     core/quantity.h);
//   - a deletionTimestamp in another of the spellings time.Parse(RFC3339)
//     takes: an offset (up to "+24:60"), a fraction (',' or more than nine
//     digits), a one-digit hour (core/go_rfc3339.h); and an update that
//     only respells it (the same instant: reflect.DeepEqual).
//
// The corners draw on neither choice stream but on GoDice, a splitmix64
// sequence of the trace's seed: a seed's steps and objects stay what they
// were, except where a corner lands (one trace in four; in such a trace,
// one object in four or so).
#ifndef SCHEDTRACE_RUN_STEP_SOURCE_GO_CORNERS_H_
#define SCHEDTRACE_RUN_STEP_SOURCE_GO_CORNERS_H_

#include <cstdint>
#include <initializer_list>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/go_rfc3339.h"
#include "core/objects.h"
#include "core/quantity.h"

namespace schedtrace::step_source {

// A splitmix64 sequence: the Go corners' draws (see above).
class GoDice {
 public:
  GoDice() = default;
  // `salt` keeps the layers' sequences apart for one seed. One trace in
  // four has the corners on; none of seed 0, the fuzz decoder's
  // (fuzz/byte_format.cc), which draws everything from its input's bytes:
  // dice of one fixed seed would give every input the same corners.
  GoDice(uint64_t seed, uint64_t salt)
      : state_(seed * 0x9e3779b97f4a7c15ull ^ (salt + 0x5851f42d4c957f2dull)) {
    on_ = seed != 0 && Chance(0.25);
  }
  bool on() const { return on_; }
  // With the corners on, a draw that fires with probability p.
  bool Fire(double p) { return on_ && Chance(p); }
  int Uniform(int lo, int hi) {
    return lo + static_cast<int>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  const char* Pick(std::initializer_list<const char*> choices) {
    return choices.begin()[Uniform(0, static_cast<int>(choices.size()) - 1)];
  }

 private:
  bool Chance(double p) {
    return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p;
  }
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t state_ = 0;
  bool on_ = false;
};

// A score label's text (a decimal integer, as the step source writes it)
// now and then spelled another way strconv.Atoi reads as the same integer:
// a '+', leading zeros; for 0 also "-0" and blanks, which Atoi refuses and
// TraceScore then reads as 0 (so scores stay unique).
inline std::string GoScoreSpelling(GoDice& d, const std::string& text) {
  if (text.empty() || !d.Fire(0.3)) return text;
  if (text == "0") return d.Pick({"+0", "-0", "00", " 0", "0 "});
  if (text[0] == '-') return absl::StrCat("-0", text.substr(1));
  return absl::StrCat(d.Pick({"+", "0", "00", "+0"}), text);
}

// Quantities whose Value or MilliValue overflows int64 in upstream's
// int64Amount (wrapped at 10, 100, 1000, 10^6, 10^9; 0 beyond) or inf.Dec
// form, and a few at the edge of it.
inline const char* GoHugeQuantity(GoDice& d) {
  return d.Pick({"10000000000000G", "100000000000000M", "9999999999999999k",
                 "99999999999999999", "10000000000000000", "10000000000000k",
                 "1000000000000M", "123456789012345e6", "12E", "1E", "9Ei",
                 "7Ei", "1e30", "5e18", "922337203685477580700m",
                 "9223372036854775807", "-10000000000000G"});
}

// Now and then one of a node's allocatable quantities (cpu, memory, pods
// or ephemeral storage) huge (GoHugeQuantity).
inline void GoAllocatableCorner(GoDice& d, Node& n) {
  if (!d.Fire(0.25)) return;
  n.allocatable[d.Pick({"cpu", "memory", "pods", "ephemeral-storage"})] =
      *ParseQuantity(GoHugeQuantity(d));
}

// Now and then one of a pod's first container's requests (cpu, memory or
// ephemeral storage) huge (GoHugeQuantity).
inline void GoRequestCorner(GoDice& d, Pod& p) {
  if (p.containers.empty() || !d.Fire(0.15)) return;
  p.containers.front()
      .requests[d.Pick({"cpu", "memory", "ephemeral-storage"})] =
      *ParseQuantity(GoHugeQuantity(d));
}

// The instant `unix_seconds` in one of the spellings
// time.Parse(time.RFC3339) takes other than K8sTime's; unless `exact`, now
// and then a fraction of a second later.
inline std::string GoTimeText(GoDice& d, int64_t unix_seconds, bool exact) {
  // An offset east (+) or west (-) of UTC of up to 24 hours and 60
  // minutes, Go's largest; the text names the local time there.
  const bool west = d.Uniform(0, 1) == 0;
  const int hours = d.Uniform(0, 4) == 0 ? 24 : d.Uniform(0, 23);
  const int minutes = d.Uniform(0, 4) == 0 ? 60 : d.Uniform(0, 59);
  const int64_t offset = (hours * 60 + minutes) * 60 * (west ? -1 : 1);
  std::string local = K8sTime(unix_seconds + offset);
  local.pop_back();  // "YYYY-MM-DDThh:mm:ssZ" without its 'Z'
  switch (d.Uniform(0, 3)) {
    case 0:
      absl::StrAppend(&local,
                      exact ? d.Pick({".000", ",0"})
                            : d.Pick({".5", ",25", ".000", ".1234567891"}));
      break;
    case 1:
      if (local[11] == '0') local.erase(11, 1);  // a one-digit hour
      break;
    default:
      break;
  }
  if (offset == 0 && d.Uniform(0, 1) == 0) return local + "Z";
  absl::StrAppend(&local, west ? "-" : "+", hours < 10 ? "0" : "", hours, ":",
                  minutes < 10 ? "0" : "", minutes);
  return local;
}

// A deletionTimestamp for `unix_seconds`: usually K8sTime's spelling, with
// the corners on now and then another (GoTimeText).
inline std::string GoTimeSpelling(GoDice& d, int64_t unix_seconds) {
  return d.Fire(0.5) ? GoTimeText(d, unix_seconds, /*exact=*/false)
                     : K8sTime(unix_seconds);
}

// Corner of Subtle (step_source_layers.h): `pod`'s deletionTimestamp, if it
// has a whole-second one, spelled another way for the same instant (an
// update reflect.DeepEqual calls no change). False when it did nothing.
inline bool GoRespellDeletion(GoDice& d, Pod& pod) {
  if (!pod.deletion_timestamp || !d.Fire(0.5)) return false;
  absl::StatusOr<GoInstant> t = ParseGoRfc3339(*pod.deletion_timestamp);
  if (!t.ok() || t->nanoseconds != 0) return false;
  pod.deletion_timestamp = GoTimeText(d, t->unix_seconds, /*exact=*/true);
  return true;
}

}  // namespace schedtrace::step_source

#endif  // SCHEDTRACE_RUN_STEP_SOURCE_GO_CORNERS_H_
