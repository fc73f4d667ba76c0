#include "core/go_rfc3339.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace schedtrace {
namespace {

bool IsDigitAt(std::string_view s, size_t i) {
  return i < s.size() && s[i] >= '0' && s[i] <= '9';
}

// upstream: getnum (time/format.go): one or two leading digits; `fixed`
// wants two.
bool GetNum(std::string_view& s, bool fixed, int& out) {
  if (!IsDigitAt(s, 0)) return false;
  if (!IsDigitAt(s, 1)) {
    if (fixed) return false;
    out = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  out = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

// upstream: skip (time/format.go) for a one-character literal of the layout.
bool Skip(std::string_view& s, char literal) {
  if (s.empty() || s[0] != literal) return false;
  s.remove_prefix(1);
  return true;
}

bool IsLeap(int64_t year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

// upstream: daysIn (time/time.go).
int DaysIn(int month, int64_t year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

// Days from 1970-01-01 to year-month-day (proleptic Gregorian), as
// time.Date counts them.
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// (absl::StrCat takes absl::string_view, not std::string_view, here.)
absl::string_view Absl(std::string_view s) { return {s.data(), s.size()}; }

absl::Status Bad(std::string_view s, std::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("\"", Absl(s), "\" is not an RFC 3339 time as Go's ",
                   "time.Parse(time.RFC3339) reads it: ", Absl(what)));
}

}  // namespace

// upstream: time.Parse (time/format.go): parse with the layout
// "2006-01-02T15:04:05Z07:00" (the fast path parseRFC3339 takes a subset of
// what parse takes, and falls back to it).
absl::StatusOr<GoInstant> ParseGoRfc3339(std::string_view s) {
  std::string_view v = s;
  // stdLongYear: four bytes, the first a digit, atoi of all four.
  if (v.size() < 4 || !IsDigitAt(v, 0) || !IsDigitAt(v, 1) ||
      !IsDigitAt(v, 2) || !IsDigitAt(v, 3)) {
    return Bad(s, "the year is not four digits");
  }
  const int64_t year = (v[0] - '0') * 1000 + (v[1] - '0') * 100 +
                       (v[2] - '0') * 10 + (v[3] - '0');
  v.remove_prefix(4);
  int month = 0, day = 0, hour = 0, minute = 0, second = 0;
  const char* range = nullptr;  // rangeErrString: reported after the parse
  if (!Skip(v, '-') || !GetNum(v, true, month)) {
    return Bad(s, "no two-digit month after the year's '-'");
  }
  if (month < 1 || month > 12) range = "month out of range";
  if (!Skip(v, '-') || !GetNum(v, true, day)) {
    return Bad(s, "no two-digit day after the month's '-'");
  }
  if (!Skip(v, 'T') || !GetNum(v, false, hour)) {
    return Bad(s, "no 'T' and hour after the date");
  }
  if (hour >= 24) range = "hour out of range";
  if (!Skip(v, ':') || !GetNum(v, true, minute)) {
    return Bad(s, "no ':' and two-digit minute after the hour");
  }
  if (minute >= 60) range = "minute out of range";
  if (!Skip(v, ':') || !GetNum(v, true, second)) {
    return Bad(s, "no ':' and two-digit second after the minute");
  }
  int64_t nanos = 0;
  if (second >= 60) {
    range = "second out of range";
  } else if (v.size() >= 2 && (v[0] == '.' || v[0] == ',') && IsDigitAt(v, 1)) {
    // A fraction the layout does not name: parseNanoseconds of its first
    // nine digits; the others are read and dropped.
    size_t n = 2;
    while (IsDigitAt(v, n)) ++n;
    const size_t used = n > 10 ? 10 : n;
    for (size_t i = 1; i < 10; ++i) {
      nanos = nanos * 10 + (i < used ? v[i] - '0' : 0);
    }
    v.remove_prefix(n);
  }
  // stdISO8601ColonTZ: "Z", or a sign, two digits, ':' and two digits.
  int64_t offset = 0;
  if (!v.empty() && v[0] == 'Z') {
    v.remove_prefix(1);
  } else {
    if (v.size() < 6 || v[3] != ':') {
      return Bad(s, "no 'Z' or \"+hh:mm\" offset after the time");
    }
    std::string_view hh = v.substr(1, 2), mm = v.substr(4, 2);
    int oh = 0, om = 0;
    if (!GetNum(hh, true, oh) || !GetNum(mm, true, om) ||
        (v[0] != '+' && v[0] != '-')) {
      return Bad(s, "the offset is not \"+hh:mm\" or \"-hh:mm\"");
    }
    if (oh > 24) range = "time zone offset hour out of range";
    if (om > 60) range = "time zone offset minute out of range";
    offset = (oh * 60 + om) * 60;
    if (v[0] == '-') offset = -offset;
    v.remove_prefix(6);
  }
  if (!v.empty()) return Bad(s, absl::StrCat("extra text \"", Absl(v), "\""));
  if (range != nullptr) return Bad(s, range);
  if (day < 1 || day > DaysIn(month, year)) {
    return Bad(s, "day out of range");
  }
  GoInstant t;
  t.unix_seconds = DaysFromCivil(year, month, day) * 86400 + hour * 3600 +
                   minute * 60 + second - offset;
  t.nanoseconds = static_cast<int32_t>(nanos);
  return t;
}

bool SameGoInstant(std::string_view a, std::string_view b) {
  if (a == b) return true;
  absl::StatusOr<GoInstant> x = ParseGoRfc3339(a), y = ParseGoRfc3339(b);
  return x.ok() && y.ok() && *x == *y;
}

}  // namespace schedtrace
