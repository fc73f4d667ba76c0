// The non-differential fuzz checks: the trace codec and quantity parsing.
// Each takes any bytes and returns the first thing wrong, or nullopt.
//
//   if (auto f = CheckCodecRoundTrip(bytes)) { report(f->signature); }
//
// Codec: any input may be rejected, but none may crash, and what parses must
// round-trip: encode(parse(x)) parses again, to a trace that encodes to the
// same text, with the same header and number of steps.
// Quantity: any string may be rejected; one that parses re-parses from its
// text to the same values, and plain integers ("123", "123m", "5Ki") read
// as their arithmetic says.
#ifndef SCHEDTRACE_FUZZ_CHECKS_H_
#define SCHEDTRACE_FUZZ_CHECKS_H_

#include <optional>
#include <string>
#include <string_view>

namespace schedtrace::fuzz {

struct CheckFailure {
  std::string signature;  // short and stable, e.g. "codec:reparse"
  std::string message;
};

std::optional<CheckFailure> CheckCodecRoundTrip(std::string_view data);
std::optional<CheckFailure> CheckQuantity(std::string_view data);

// Prints "SCHEDTRACE-FAILURE <signature>" and the message, then aborts.
void DieOnCheckFailure(const std::optional<CheckFailure>& failure);

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_CHECKS_H_
