// Go's time.Parse(time.RFC3339, s), as metav1.Time.UnmarshalJSON reads every
// timestamp of a pod or node (metadata.deletionTimestamp among them): what it
// takes, what it refuses, and the instant it reads.
//
// Go's layout parser is more lenient than RFC 3339 (Go's time/format.go,
// parse with the layout "2006-01-02T15:04:05Z07:00"):
//   - a one-digit hour ("2023-01-01T7:00:00Z");
//   - a fraction after the seconds with '.' or ',' and any number of digits,
//     of which only the first nine count;
//   - an offset of up to 24 hours and 60 minutes ("+24:60");
// and as strict as its layout elsewhere: four-digit year, two-digit month,
// day, minute and second, an upper-case 'T' and 'Z', no blanks, the day
// within its month (Feb 29 only in a leap year).
//
//   absl::StatusOr<GoInstant> t = ParseGoRfc3339("2023-01-01T00:00:07+01:00");
//   t->unix_seconds;  // 1672527607
#ifndef SCHEDTRACE_CORE_GO_RFC3339_H_
#define SCHEDTRACE_CORE_GO_RFC3339_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace schedtrace {

// The instant a timestamp names. Two metav1.Times are reflect.DeepEqual
// exactly when their instants are equal (UnmarshalJSON keeps t.Local(): one
// location, and no monotonic reading), whatever their spelling.
struct GoInstant {
  int64_t unix_seconds = 0;
  int32_t nanoseconds = 0;  // [0, 1e9)
  bool operator==(const GoInstant&) const = default;
};

// upstream: time.Parse(time.RFC3339, s). The error quotes `s` and says what
// Go's parser stopped at.
absl::StatusOr<GoInstant> ParseGoRfc3339(std::string_view s);

// Whether two timestamps the codec took (both parse) name the same instant:
// reflect.DeepEqual of the metav1.Times. Equal text is equal without parsing.
bool SameGoInstant(std::string_view a, std::string_view b);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_GO_RFC3339_H_
