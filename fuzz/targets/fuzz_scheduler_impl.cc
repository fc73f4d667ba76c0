// libFuzzer target: impl alone on valid scheduler-layer sequences the step
// source makes from the input's bytes (fuzz/decoder.h, the same bytes as
// fuzz_scheduler's, whose corpus it shares), every property checked
// (fuzz/lockstep.h, RunImplAlone). An unknown violation aborts; a
// divergence from the model is found when ci/nightly-fuzz replays the new
// inputs in lockstep.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/lockstep.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using schedtrace::fuzz::Mode;
  schedtrace::fuzz::DieOnFailure(schedtrace::fuzz::RunImplAlone(
      schedtrace::Layer::kScheduler, Mode::kValid,
      std::string_view(reinterpret_cast<const char*>(data), size)));
  return 0;
}
