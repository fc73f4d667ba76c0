// libFuzzer target: the trace codec on any bytes. No crash; what parses must
// round-trip (fuzz/checks.h). Dictionary: fuzz/dicts/codec.dict.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  schedtrace::fuzz::DieOnCheckFailure(schedtrace::fuzz::CheckCodecRoundTrip(
      std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
