// GoHeap: a keyed binary heap that makes exactly the moves of upstream's
// internal/heap.Heap over Go's container/heap (up, down, Fix, Remove), so
// that elements that compare equal come out in the same order as upstream.
//
//   GoHeap<std::shared_ptr<QueuedPodInfo>> q(less, key_of);
//   q.Add(x);           // insert, or replace the element with x's key
//   x = q.Pop();        // the least element (q must not be empty)
#ifndef SCHEDTRACE_MODEL_GO_HEAP_H_
#define SCHEDTRACE_MODEL_GO_HEAP_H_

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace schedtrace::model {

template <typename T>
class GoHeap {
 public:
  using LessFn = std::function<bool(const T&, const T&)>;
  using KeyOf = std::function<std::string(const T&)>;

  GoHeap(LessFn less, KeyOf key_of)
      : less_(std::move(less)), key_of_(std::move(key_of)) {}

  size_t Len() const { return items_.size(); }
  bool Empty() const { return items_.empty(); }

  // upstream: Heap.Add / Heap.Update: replaces and re-fixes an element with
  // the same key, pushes otherwise.
  void Add(const T& x) {
    std::string key = key_of_(x);
    auto it = index_.find(key);
    if (it != index_.end()) {
      items_[it->second] = x;
      Fix(it->second);
      return;
    }
    items_.push_back(x);
    keys_.push_back(key);
    index_[key] = items_.size() - 1;
    Up(items_.size() - 1);
  }

  // upstream: Heap.Delete: false when no element has that key.
  bool Delete(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return false;
    size_t i = it->second;
    size_t n = items_.size() - 1;
    if (n != i) {
      Swap(i, n);
      if (!Down(i, n)) Up(i);
    }
    index_.erase(keys_.back());
    items_.pop_back();
    keys_.pop_back();
    return true;
  }

  // upstream: Heap.Pop.
  T Pop() {
    size_t n = items_.size() - 1;
    Swap(0, n);
    Down(0, n);
    T x = items_.back();
    index_.erase(keys_.back());
    items_.pop_back();
    keys_.pop_back();
    return x;
  }

  const T& Peek() const { return items_.front(); }

  // upstream: Heap.GetByKey.
  const T* Get(const std::string& key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second];
  }

  // Every element in the order successive Pops would return them: Pop's
  // moves replayed on a copy of the element pointers (the keys and the
  // index play no part in the order, so they are not copied).
  std::vector<T> InPopOrder() const {
    std::vector<const T*> heap;
    heap.reserve(items_.size());
    for (const T& x : items_) heap.push_back(&x);
    auto less = [&](size_t i, size_t j) { return less_(*heap[i], *heap[j]); };
    auto swap = [&](size_t i, size_t j) { std::swap(heap[i], heap[j]); };
    std::vector<T> out;
    out.reserve(heap.size());
    for (size_t n = heap.size(); n > 0; --n) {  // Pop
      swap(0, n - 1);
      SiftDown(0, n - 1, less, swap);
      out.push_back(*heap[n - 1]);
    }
    return out;
  }

  const std::vector<T>& items() const { return items_; }

 private:
  void Swap(size_t i, size_t j) {
    std::swap(items_[i], items_[j]);
    std::swap(keys_[i], keys_[j]);
    index_[keys_[i]] = i;
    index_[keys_[j]] = j;
  }
  bool Less(size_t i, size_t j) const { return less_(items_[i], items_[j]); }
  // container/heap.up
  void Up(size_t j) {
    while (j > 0) {
      size_t i = (j - 1) / 2;
      if (!Less(j, i)) break;
      Swap(i, j);
      j = i;
    }
  }
  // container/heap.down, over any `less(i, j)` and `swap(i, j)` of slots.
  template <typename LessAt, typename SwapAt>
  static bool SiftDown(size_t i0, size_t n, LessAt less, SwapAt swap) {
    size_t i = i0;
    for (;;) {
      size_t j1 = 2 * i + 1;
      if (j1 >= n) break;
      size_t j = j1;
      if (size_t j2 = j1 + 1; j2 < n && less(j2, j1)) j = j2;
      if (!less(j, i)) break;
      swap(i, j);
      i = j;
    }
    return i > i0;
  }
  bool Down(size_t i0, size_t n) {
    return SiftDown(
        i0, n, [this](size_t i, size_t j) { return Less(i, j); },
        [this](size_t i, size_t j) { Swap(i, j); });
  }
  // container/heap.Fix
  void Fix(size_t i) {
    if (!Down(i, items_.size())) Up(i);
  }

  LessFn less_;
  KeyOf key_of_;
  std::vector<T> items_;
  // The key each element was added under, as upstream's heap keeps it (its
  // `queue` of keys): an element whose object later names another pod keeps
  // its old key, and the new key gets an element of its own.
  std::vector<std::string> keys_;
  std::map<std::string, size_t> index_;
};

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_GO_HEAP_H_
