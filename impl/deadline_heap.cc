#include "impl/deadline_heap.h"

#include <algorithm>

namespace schedtrace::impl {
namespace {

// std heap algorithms build a max-heap: invert for the smallest deadline.
bool Later(const DeadlineHeap::Entry& a, const DeadlineHeap::Entry& b) {
  return a.deadline > b.deadline;
}

}  // namespace

void DeadlineHeap::Push(TimeNs deadline, uint32_t id, uint32_t stamp) {
  heap_.push_back({deadline, id, stamp});
  std::push_heap(heap_.begin(), heap_.end(), Later);
}

void DeadlineHeap::Pop() {
  std::pop_heap(heap_.begin(), heap_.end(), Later);
  heap_.pop_back();
}

void DeadlineHeap::Compact(const std::function<bool(const Entry&)>& live) {
  heap_.erase(std::remove_if(heap_.begin(), heap_.end(),
                             [&](const Entry& e) { return !live(e); }),
              heap_.end());
  // remove_if keeps the survivors' relative order, which is not a heap order.
  std::make_heap(heap_.begin(), heap_.end(), Later);
}

}  // namespace schedtrace::impl
