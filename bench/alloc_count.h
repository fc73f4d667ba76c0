// Counting heap allocations: a binary that links alloc_count.cc replaces the
// global operator new (every form) with one that counts, on the calling
// thread, the allocations made between StartCountingAllocations and
// StopCountingAllocations. Only the allocation benchmark and its test link
// it; everything else keeps the standard library's operator new.
//
//   StartCountingAllocations();
//   sut->Apply(step);
//   int64_t allocations = StopCountingAllocations();
#ifndef SCHEDTRACE_BENCH_ALLOC_COUNT_H_
#define SCHEDTRACE_BENCH_ALLOC_COUNT_H_

#include <cstdint>

namespace schedtrace::bench {

void StartCountingAllocations();
// The allocations since the matching StartCountingAllocations.
int64_t StopCountingAllocations();

}  // namespace schedtrace::bench

#endif  // SCHEDTRACE_BENCH_ALLOC_COUNT_H_
