// Refill / RefillMap: write a container's contents in place, reusing the
// elements (and so the strings, vectors and map nodes inside them) it already
// holds, so that a snapshot taken every step into the same container stops
// allocating once its shape is stable.
//
//   Refill<QueuedPod> r(out.active);
//   for (...) { QueuedPod& e = r.Next(); e.pod = key; e.attempts = ...; }
//   r.Finish();  // (or the destructor) drops the elements not written
//
//   RefillMap<Resources> m(out.requested);
//   for (const auto& [name, v] : sorted) m.Next(name) = v;  // ascending keys
//   // the destructor (or m.Finish()) erases the keys not written
//
//   QueueState& q = Engage(out.queue);  // the value held, or a new one
//
// Next() hands back an element that may still hold a previous fill's values:
// the caller must assign every field of it.
#ifndef SCHEDTRACE_CORE_REFILL_H_
#define SCHEDTRACE_CORE_REFILL_H_

#include <cstddef>
#include <optional>
#include <vector>

namespace schedtrace {

template <typename T>
class Refill {
 public:
  explicit Refill(std::vector<T>& out) : out_(out) {}
  Refill(const Refill&) = delete;
  Refill& operator=(const Refill&) = delete;
  ~Refill() { Finish(); }

  // The next element: the existing one at that position, or a new
  // default-constructed one appended.
  T& Next() {
    if (n_ == out_.size()) out_.emplace_back();
    return out_[n_++];
  }

  // Truncates the vector to the elements written so far. Idempotent; Next()
  // may not be called after it.
  void Finish() {
    if (out_.size() > n_) out_.erase(out_.begin() + n_, out_.end());
  }

 private:
  std::vector<T>& out_;
  size_t n_ = 0;
};

// The same for a std::map, whose keys must be given in strictly ascending
// order: a key the map already holds keeps its node and its value (for the
// caller to overwrite), keys skipped over are erased, and a missing key is
// inserted with a value-initialized value.
template <typename Map>
class RefillMap {
 public:
  using Key = typename Map::key_type;
  using Value = typename Map::mapped_type;

  explicit RefillMap(Map& out) : out_(out), it_(out.begin()) {}
  RefillMap(const RefillMap&) = delete;
  RefillMap& operator=(const RefillMap&) = delete;
  ~RefillMap() { Finish(); }

  // The value for `key`, greater than every key given before.
  Value& Next(const Key& key) {
    const auto& less = out_.key_comp();
    while (it_ != out_.end() && less(it_->first, key)) it_ = out_.erase(it_);
    if (it_ == out_.end() || less(key, it_->first)) {
      it_ = out_.emplace_hint(it_, key, Value());
    }
    return (it_++)->second;
  }

  // Erases the keys after the last one written. Idempotent; Next() may not
  // be called after it.
  void Finish() { it_ = out_.erase(it_, out_.end()); }

 private:
  Map& out_;
  typename Map::iterator it_;
};

// The value `o` holds, or, when it is empty, a new value-initialized one: an
// engaged optional keeps its value's storage.
template <typename T>
T& Engage(std::optional<T>& o) {
  return o.has_value() ? *o : o.emplace();
}

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_REFILL_H_
