// DeadlineHeap: a min-heap of (deadline, id, stamp) entries for expiring
// assumed pods (upstream cacheImpl.cleanupAssumedPods) without scanning every
// assumed pod. Entries are never updated or erased in place: the owner bumps
// an id's stamp when its deadline moves or it stops being expirable, and
// treats an entry whose stamp differs as stale (lazy deletion).
//
//   DeadlineHeap h;
//   h.Push(deadline, pod_id, stamp);  // a TimeNs (impl/time_ns.h)
//   while (const DeadlineHeap::Entry* e = h.Top(); e && now > e->deadline) {
//     DeadlineHeap::Entry x = *e; h.Pop(); if (x.stamp == stamp_of[x.id]) ...
//   }
#ifndef SCHEDTRACE_IMPL_DEADLINE_HEAP_H_
#define SCHEDTRACE_IMPL_DEADLINE_HEAP_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "impl/time_ns.h"

namespace schedtrace::impl {

class DeadlineHeap {
 public:
  struct Entry {
    TimeNs deadline;
    uint32_t id;
    uint32_t stamp;
  };

  void Push(TimeNs deadline, uint32_t id, uint32_t stamp);
  // The entry with the smallest deadline, or null when empty.
  const Entry* Top() const { return heap_.empty() ? nullptr : &heap_[0]; }
  void Pop();
  size_t size() const { return heap_.size(); }
  // Drops every entry for which `live` is false, in O(n).
  void Compact(const std::function<bool(const Entry&)>& live);

 private:
  std::vector<Entry> heap_;
};

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_DEADLINE_HEAP_H_
