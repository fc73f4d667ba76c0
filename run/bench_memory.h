// Process memory figures for benchmarks (Linux).
//
// PeakRssBytes is getrusage(RUSAGE_SELF).ru_maxrss: the high-water mark of
// the resident set of the whole process since it started — code, libraries,
// the allocator's retained free memory, and everything the program ever held
// at once. CurrentRssBytes reads the resident set now (/proc/self/statm).
//
//   int64_t before = CurrentRssBytes();
//   Run();
//   std::cout << (PeakRssBytes() - before) / 1e6 << " MB above start\n";
#ifndef SCHEDTRACE_RUN_BENCH_MEMORY_H_
#define SCHEDTRACE_RUN_BENCH_MEMORY_H_

#include <cstdint>

namespace schedtrace {

// Bytes; -1 when the figure is unavailable.
int64_t PeakRssBytes();
int64_t CurrentRssBytes();

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_BENCH_MEMORY_H_
