// IndexedHeap: a binary heap of items that each carry a dense uint32 index
// (a pod's interned key), with a position map so that lookup, update and
// delete by index are O(1) / O(log n).
//
// The sift operations are exactly Go's container/heap (up, down, Push, Pop,
// Remove, Fix), so items that compare equal pop in the same order as in
// upstream's internal/heap: traces that tie on (priority, timestamp) replay
// identically.
//
//   IndexedHeap<uint32_t, Less, IndexOf> h(less, index_of);
//   h.Upsert(item);            // upstream heap.Add / heap.Update
//   if (h.Contains(idx)) h.Delete(idx);
//   uint32_t top = h.Pop();
#ifndef SCHEDTRACE_IMPL_INDEXED_HEAP_H_
#define SCHEDTRACE_IMPL_INDEXED_HEAP_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace schedtrace::impl {

template <typename Item, typename Less, typename IndexOf>
class IndexedHeap {
 public:
  static constexpr int32_t kAbsent = -1;

  IndexedHeap(Less less, IndexOf index_of)
      : less_(std::move(less)), index_of_(std::move(index_of)) {}

  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const std::vector<Item>& items() const { return items_; }

  bool Contains(uint32_t index) const {
    return index < pos_.size() && pos_[index] != kAbsent;
  }
  // Precondition: Contains(index).
  const Item& Get(uint32_t index) const { return items_[pos_[index]]; }

  // upstream: Heap.Add / Heap.Update (internal/heap/heap.go): replaces the
  // item with the same index in place and fixes the heap, or pushes.
  // Returns the replaced item when there was one.
  std::optional<Item> Upsert(const Item& item) {
    ++changes_;
    const uint32_t index = index_of_(item);
    if (Contains(index)) {
      const int i = pos_[index];
      Item old = std::move(items_[i]);
      items_[i] = item;
      Fix(i);
      return old;
    }
    if (index >= pos_.size()) pos_.resize(index + 1, kAbsent);
    items_.push_back(item);
    pos_[index] = static_cast<int32_t>(items_.size() - 1);
    Up(static_cast<int>(items_.size()) - 1);
    return std::nullopt;
  }

  // upstream: Heap.Pop -> container/heap.Pop. Precondition: !empty().
  Item Pop() {
    ++changes_;
    const int n = static_cast<int>(items_.size()) - 1;
    Swap(0, n);
    Down(0, n);
    return RemoveLast();
  }

  // upstream: Heap.Peek. Precondition: !empty().
  const Item& Top() const { return items_[0]; }

  // upstream: Heap.Delete -> container/heap.Remove. Returns the removed item.
  // Precondition: Contains(index).
  Item Delete(uint32_t index) {
    ++changes_;
    const int i = pos_[index];
    const int n = static_cast<int>(items_.size()) - 1;
    if (n != i) {
      Swap(i, n);
      if (!Down(i, n)) {
        Up(i);
      }
    }
    return RemoveLast();
  }

  // container/heap.Fix.
  void Fix(int i) {
    ++changes_;
    if (!Down(i, static_cast<int>(items_.size()))) Up(i);
  }

  // How many times the heap changed (an upsert, pop, delete, fix or clear):
  // what the queue's snapshot reads changed only if this did.
  uint64_t changes() const { return changes_; }

  void Clear() {
    ++changes_;
    for (const Item& it : items_) pos_[index_of_(it)] = kAbsent;
    items_.clear();
  }

 private:
  Item RemoveLast() {
    Item last = std::move(items_.back());
    items_.pop_back();
    pos_[index_of_(last)] = kAbsent;
    return last;
  }

  void Swap(int i, int j) {
    if (i == j) return;
    std::swap(items_[i], items_[j]);
    pos_[index_of_(items_[i])] = i;
    pos_[index_of_(items_[j])] = j;
  }

  bool LessAt(int i, int j) const { return less_(items_[i], items_[j]); }

  // container/heap.up
  void Up(int j) {
    while (true) {
      const int i = (j - 1) / 2;  // parent; Go's division truncates too
      if (i == j || !LessAt(j, i)) break;
      Swap(i, j);
      j = i;
    }
  }

  // container/heap.down
  bool Down(int i0, int n) {
    int i = i0;
    while (true) {
      const int j1 = 2 * i + 1;
      if (j1 >= n || j1 < 0) break;
      int j = j1;
      if (const int j2 = j1 + 1; j2 < n && LessAt(j2, j1)) j = j2;
      if (!LessAt(j, i)) break;
      Swap(i, j);
      i = j;
    }
    return i > i0;
  }

  Less less_;
  IndexOf index_of_;
  std::vector<Item> items_;
  std::vector<int32_t> pos_;  // index -> position in items_, or kAbsent
  uint64_t changes_ = 0;
};

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_IMPL_INDEXED_HEAP_H_
