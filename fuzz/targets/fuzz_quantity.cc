// libFuzzer target: Kubernetes quantity parsing on any string. No crash, no
// undefined behaviour; what parses re-parses to the same values
// (fuzz/checks.h). Dictionary: fuzz/dicts/quantity.dict.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  schedtrace::fuzz::DieOnCheckFailure(schedtrace::fuzz::CheckQuantity(
      std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
