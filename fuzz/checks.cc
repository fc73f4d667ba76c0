#include "fuzz/checks.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/codec.h"
#include "core/quantity.h"

namespace schedtrace::fuzz {
namespace {

bool AllDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::optional<CheckFailure> CheckCodecRoundTrip(std::string_view data) {
  absl::StatusOr<Trace> first = ParseTrace(data, "fuzz.jsonl");
  if (!first.ok()) return std::nullopt;  // rejected: fine, it did not crash
  const std::string text = EncodeTrace(*first);
  absl::StatusOr<Trace> second = ParseTrace(text, "reencoded.jsonl");
  if (!second.ok()) {
    return CheckFailure{"codec:reparse",
                        absl::StrCat("the encoding of a parsed trace does not "
                                     "parse: ",
                                     second.status().message(), "\n", text)};
  }
  if (!(second->header == first->header) ||
      second->steps.size() != first->steps.size()) {
    return CheckFailure{"codec:header",
                        absl::StrCat("header or step count changed in a round "
                                     "trip\n",
                                     text)};
  }
  const std::string again = EncodeTrace(*second);
  if (again != text) {
    return CheckFailure{"codec:roundtrip",
                        absl::StrCat("encode(parse(encode(parse(x)))) != "
                                     "encode(parse(x))\nfirst:  ",
                                     text, "\nsecond: ", again)};
  }
  return std::nullopt;
}

std::optional<CheckFailure> CheckQuantity(std::string_view input) {
  // absl::string_view may not be std::string_view here: use a string.
  const std::string data(input);
  absl::StatusOr<Quantity> q = ParseQuantity(data);
  if (!q.ok()) return std::nullopt;
  const int64_t value = q->Value(), milli = q->MilliValue(),
                nano = q->ScaledValue(9), kilo = q->ScaledValue(-3);
  absl::StatusOr<Quantity> again = ParseQuantity(q->text());
  if (!again.ok() || again->Value() != value || again->MilliValue() != milli ||
      again->ScaledValue(9) != nano || again->ScaledValue(-3) != kilo) {
    return CheckFailure{
        "quantity:reparse",
        absl::StrCat("\"", q->text(),
                     "\" does not re-parse to the same values")};
  }
  // Plain integers and milli: the arithmetic is obvious below 10^15.
  int64_t n = 0;
  if (data.size() <= 15 && AllDigits(data) && absl::SimpleAtoi(data, &n)) {
    if (value != n || milli != n * 1000) {
      return CheckFailure{
          "quantity:integer",
          absl::StrCat("\"", data, "\": Value ", value, " MilliValue ", milli)};
    }
  }
  if (data.size() >= 2 && data.size() <= 16 && data.back() == 'm' &&
      AllDigits(data.substr(0, data.size() - 1)) &&
      absl::SimpleAtoi(data.substr(0, data.size() - 1), &n)) {
    if (milli != n || value != (n + 999) / 1000) {
      return CheckFailure{
          "quantity:milli",
          absl::StrCat("\"", data, "\": Value ", value, " MilliValue ", milli)};
    }
  }
  if (data.size() >= 3 && data.size() <= 12 &&
      data.substr(data.size() - 2) == "Ki" &&
      AllDigits(data.substr(0, data.size() - 2)) &&
      absl::SimpleAtoi(data.substr(0, data.size() - 2), &n)) {
    if (value != n * 1024) {
      return CheckFailure{"quantity:binary",
                          absl::StrCat("\"", data, "\": Value ", value)};
    }
  }
  return std::nullopt;
}

void DieOnCheckFailure(const std::optional<CheckFailure>& failure) {
  if (!failure) return;
  std::fprintf(stderr, "SCHEDTRACE-FAILURE %s\n%s\n",
               failure->signature.c_str(), failure->message.c_str());
  std::abort();
}

}  // namespace schedtrace::fuzz
