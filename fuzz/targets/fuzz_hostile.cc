// libFuzzer target: the step source's hostile mode (run/step_source.h;
// fuzz/decoder.h, Mode::kHostile): sequences with steps an apiserver would
// never send (duplicate adds, unknown pods, nodeName changes (a bound pod
// moved), decreasing resourceVersion), any layer (the first byte picks it).
// Model and impl must agree on every out, error and state; neither may crash or
// leak (ASan's leak checker runs at exit). Properties are not checked: hostile
// input may legitimately break them.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/lockstep.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  schedtrace::fuzz::DieOnFailure(schedtrace::fuzz::RunLockstep(
      schedtrace::fuzz::HostileLayer(data[0]), schedtrace::fuzz::Mode::kHostile,
      std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1)));
  return 0;
}
