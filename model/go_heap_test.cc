#include "model/go_heap.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace::model {
namespace {

// (key, rank): ordered by rank only, so equal ranks are ties.
using Item = std::pair<std::string, int>;

GoHeap<Item> MakeHeap() {
  return GoHeap<Item>(
      [](const Item& a, const Item& b) { return a.second < b.second; },
      [](const Item& x) { return x.first; });
}

std::vector<std::string> Keys(const std::vector<Item>& items) {
  std::vector<std::string> keys;
  for (const Item& i : items) keys.push_back(i.first);
  return keys;
}

TEST(GoHeapTest, PopsInOrderAndAddReplacesByKey) {
  GoHeap<Item> h = MakeHeap();
  h.Add({"c", 3});
  h.Add({"a", 1});
  h.Add({"b", 2});
  h.Add({"c", 0});  // same key: replaced and re-fixed
  EXPECT_EQ(h.Len(), 3u);
  EXPECT_EQ(Keys(h.InPopOrder()), (std::vector<std::string>{"c", "a", "b"}));
  EXPECT_TRUE(h.Delete("a"));
  EXPECT_FALSE(h.Delete("a"));
  EXPECT_EQ(h.Pop().first, "c");
  EXPECT_EQ(h.Pop().first, "b");
  EXPECT_TRUE(h.Empty());
}

TEST(GoHeapTest, TiesComeOutAsGoContainerHeapWouldPopThem) {
  // Pushing w, x, y, z of equal rank into Go's container/heap leaves the
  // slice [w x y z]; Pop swaps the root with the last element and sifts
  // down without moving ties, so the order is w, z, y, x.
  GoHeap<Item> h = MakeHeap();
  for (const char* k : {"w", "x", "y", "z"}) h.Add({k, 7});
  EXPECT_EQ(Keys(h.InPopOrder()),
            (std::vector<std::string>{"w", "z", "y", "x"}));
  // Remove(i) swaps with the last element too: deleting x leaves [w z y].
  EXPECT_TRUE(h.Delete("x"));
  EXPECT_EQ(Keys(h.items()), (std::vector<std::string>{"w", "z", "y"}));
}

// InPopOrder replays Pop on a copy of the element pointers; it must give
// exactly what popping the heap itself gives, ties included, after any mix
// of adds, replacements and deletes.
TEST(GoHeapTest, InPopOrderIsWhatSuccessivePopsReturn) {
  uint32_t rng = 12345;
  auto next = [&rng](uint32_t n) {
    rng = rng * 1103515245u + 12345u;
    return (rng >> 16) % n;
  };
  for (int round = 0; round < 200; ++round) {
    GoHeap<Item> h = MakeHeap();
    for (int op = 0; op < 30; ++op) {
      const std::string key(1, static_cast<char>('a' + next(12)));
      if (next(4) == 0) {
        h.Delete(key);
      } else {
        h.Add({key, static_cast<int>(next(3))});  // few ranks: many ties
      }
    }
    const std::vector<std::string> predicted = Keys(h.InPopOrder());
    std::vector<std::string> popped;
    while (!h.Empty()) popped.push_back(h.Pop().first);
    ASSERT_EQ(predicted, popped) << "round " << round;
  }
}

// upstream's PriorityQueue.Update mutates the queued PodInfo in place and
// then calls activeQ.Update with it: when the new object names another pod,
// the old entry keeps its old key and the new key gets a second entry.
TEST(GoHeapTest, AnElementKeepsTheKeyItWasAddedUnder) {
  using Shared = std::shared_ptr<Item>;
  GoHeap<Shared> h(
      [](const Shared& a, const Shared& b) { return a->second < b->second; },
      [](const Shared& x) { return x->first; });
  Shared a = std::make_shared<Item>("a", 1);
  h.Add(a);
  h.Add(std::make_shared<Item>("b", 2));
  a->first = "c";  // the object now names another pod
  h.Add(a);        // pushed under "c"; "a" still holds it too
  EXPECT_EQ(h.Len(), 3u);
  EXPECT_NE(h.Get("a"), nullptr);
  EXPECT_NE(h.Get("c"), nullptr);
  EXPECT_TRUE(h.Delete("a"));
  EXPECT_TRUE(h.Delete("c"));
  EXPECT_FALSE(h.Delete("c"));
  EXPECT_EQ(h.Pop()->first, "b");
  EXPECT_TRUE(h.Empty());
}

}  // namespace
}  // namespace schedtrace::model
