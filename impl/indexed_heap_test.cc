#include "impl/indexed_heap.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace::impl {
namespace {

// Items are (index, priority); the heap orders by priority, lowest first.
struct Item {
  uint32_t index;
  int prio;
};
struct Less {
  bool operator()(const Item& a, const Item& b) const {
    return a.prio < b.prio;
  }
};
struct IndexOf {
  uint32_t operator()(const Item& i) const { return i.index; }
};
using Heap = IndexedHeap<Item, Less, IndexOf>;

std::vector<int> Drain(Heap h) {
  std::vector<int> out;
  while (!h.empty()) out.push_back(h.Pop().prio);
  return out;
}

TEST(IndexedHeapTest, PopsInOrder) {
  Heap h(Less{}, IndexOf{});
  for (uint32_t i = 0; i < 6; ++i) h.Upsert({i, static_cast<int>(10 - i)});
  EXPECT_EQ(Drain(h), (std::vector<int>{5, 6, 7, 8, 9, 10}));
}

TEST(IndexedHeapTest, UpsertReplacesInPlaceAndReturnsOld) {
  Heap h(Less{}, IndexOf{});
  h.Upsert({1, 5});
  h.Upsert({2, 3});
  std::optional<Item> old = h.Upsert({1, 1});
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->prio, 5);
  EXPECT_EQ(h.size(), 2u);
  EXPECT_EQ(h.Top().index, 1u);
  EXPECT_FALSE(h.Upsert({3, 9}).has_value());
}

TEST(IndexedHeapTest, DeleteByIndex) {
  Heap h(Less{}, IndexOf{});
  for (uint32_t i = 0; i < 8; ++i) h.Upsert({i, static_cast<int>(i * 3 % 8)});
  EXPECT_TRUE(h.Contains(4));
  EXPECT_EQ(h.Delete(4).prio, 4);
  EXPECT_FALSE(h.Contains(4));
  EXPECT_FALSE(h.Contains(100));
  EXPECT_EQ(Drain(h), (std::vector<int>{0, 1, 2, 3, 5, 6, 7}));
}

// Ties pop exactly as Go's container/heap pops them: equal items keep the
// order the up/down sifts give (Go's heap of [a b c] all equal pops a, c, b).
TEST(IndexedHeapTest, TiesFollowGoContainerHeap) {
  Heap h(Less{}, IndexOf{});
  h.Upsert({0, 1});
  h.Upsert({1, 1});
  h.Upsert({2, 1});
  std::vector<uint32_t> order;
  while (!h.empty()) order.push_back(h.Pop().index);
  EXPECT_EQ(order, (std::vector<uint32_t>{0, 2, 1}));
}

// Random operations against a sorted reference.
TEST(IndexedHeapTest, RandomAgainstReference) {
  std::mt19937 rng(7);
  Heap h(Less{}, IndexOf{});
  std::vector<std::pair<uint32_t, int>> ref;  // index, prio
  size_t largest = 0;
  for (int step = 0; step < 5000; ++step) {
    const uint32_t idx = rng() % 64;
    auto it = std::find_if(ref.begin(), ref.end(),
                           [&](const auto& p) { return p.first == idx; });
    // Phases of 500 steps that fill the heap (7 upserts in 10) and drain it
    // (7 pops or deletes in 10): it grows deep enough for sift paths of
    // five levels, not only the few elements an even mix keeps.
    const bool filling = (step / 500) % 2 == 0;
    const uint32_t draw = rng() % 10;
    const int op =
        draw < (filling ? 7u : 3u) ? 0 : 1 + static_cast<int>(draw % 2);
    switch (op) {
      case 0: {
        const int prio = static_cast<int>(rng() % 1000);
        h.Upsert({idx, prio});
        if (it != ref.end()) {
          it->second = prio;
        } else {
          ref.push_back({idx, prio});
        }
        break;
      }
      case 1:
        ASSERT_EQ(h.Contains(idx), it != ref.end());
        if (it != ref.end()) {
          h.Delete(idx);
          ref.erase(it);
        }
        break;
      case 2:
        if (!ref.empty()) {
          const int min = std::min_element(ref.begin(), ref.end(),
                                           [](const auto& a, const auto& b) {
                                             return a.second < b.second;
                                           })
                              ->second;
          Item top = h.Pop();
          ASSERT_EQ(top.prio, min);
          ref.erase(std::find_if(ref.begin(), ref.end(), [&](const auto& p) {
            return p.first == top.index;
          }));
        }
        break;
    }
    ASSERT_EQ(h.size(), ref.size());
    largest = std::max(largest, ref.size());
  }
  EXPECT_GE(largest, 40u);
}

}  // namespace
}  // namespace schedtrace::impl
