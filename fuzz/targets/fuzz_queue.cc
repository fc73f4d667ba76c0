// libFuzzer target: model and impl side by side on valid queue-layer
// sequences the step source makes from the input's bytes (fuzz/decoder.h),
// every property checked (fuzz/lockstep.h). A divergence or an unknown
// violation aborts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/lockstep.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using schedtrace::fuzz::Mode;
  schedtrace::fuzz::DieOnFailure(schedtrace::fuzz::RunLockstep(
      schedtrace::Layer::kQueue, Mode::kValid,
      std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
