#include "core/refill.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

// Longer than any small-string buffer: its characters live on the heap.
const std::string kLong(100, 'x');

TEST(RefillTest, OverwritesElementsInPlaceAndTruncates) {
  std::vector<std::string> v = {kLong, kLong, kLong};
  const char* first = v[0].data();
  const std::string* storage = v.data();
  {
    Refill<std::string> r(v);
    r.Next() = "a";
    r.Next() = "b";
  }  // the destructor truncates
  EXPECT_THAT(v, ElementsAre("a", "b"));
  EXPECT_EQ(v.data(), storage);   // the vector's buffer kept
  EXPECT_EQ(v[0].data(), first);  // and the element's string buffer
  EXPECT_GE(v[0].capacity(), 100u);
  EXPECT_GE(v.capacity(), 3u);
}

TEST(RefillTest, AppendsPastTheEnd) {
  std::vector<int> v = {7};
  Refill<int> r(v);
  r.Next() = 1;
  r.Next() = 2;
  r.Next() = 3;
  r.Finish();
  EXPECT_THAT(v, ElementsAre(1, 2, 3));
}

TEST(RefillTest, AppendedElementsAreDefaultConstructed) {
  struct E {
    int a = 5;
    std::vector<int> b = {9};
  };
  std::vector<E> v;
  Refill<E> r(v);
  E& e = r.Next();
  EXPECT_EQ(e.a, 5);
  EXPECT_THAT(e.b, ElementsAre(9));
}

TEST(RefillTest, NextReturnsTheOldValueForTheCallerToOverwrite) {
  std::vector<int> v = {4, 5};
  Refill<int> r(v);
  EXPECT_EQ(r.Next(), 4);
  EXPECT_EQ(r.Next(), 5);
}

TEST(RefillTest, NothingWrittenEmptiesTheVector) {
  std::vector<int> v = {1, 2, 3};
  { Refill<int> r(v); }
  EXPECT_THAT(v, IsEmpty());
}

TEST(RefillTest, FinishIsIdempotentAndTheDestructorAgrees) {
  std::vector<int> v = {1, 2, 3, 4};
  {
    Refill<int> r(v);
    r.Next() = 8;
    r.Next() = 9;
    r.Finish();
    EXPECT_THAT(v, ElementsAre(8, 9));
    r.Finish();
    EXPECT_THAT(v, ElementsAre(8, 9));
  }
  EXPECT_THAT(v, ElementsAre(8, 9));
}

TEST(RefillTest, ExactSizeKeepsEverything) {
  std::vector<int> v = {1, 2};
  {
    Refill<int> r(v);
    r.Next() = 3;
    r.Next() = 4;
  }
  EXPECT_THAT(v, ElementsAre(3, 4));
}

TEST(RefillMapTest, KeepsNodesOfKeysThatStay) {
  std::map<std::string, int64_t> m = {{"b", 1}, {"d", 2}};
  const int64_t* b = &m["b"];
  const int64_t* d = &m["d"];
  {
    RefillMap<std::map<std::string, int64_t>> r(m);
    r.Next("b") = 10;
    r.Next("d") = 20;
  }
  EXPECT_THAT(m, ElementsAre(Pair("b", 10), Pair("d", 20)));
  EXPECT_EQ(&m["b"], b);
  EXPECT_EQ(&m["d"], d);
}

TEST(RefillMapTest, InsertsAppearingKeysAndErasesVanishedOnes) {
  std::map<std::string, int64_t> m = {
      {"a", 1}, {"c", 3}, {"e", 5}, {"g", 7}, {"h", 8}};
  const int64_t* c = &m["c"];
  {
    RefillMap<std::map<std::string, int64_t>> r(m);
    r.Next("0") = 0;   // before every old key
    r.Next("c") = 30;  // kept; "a" erased before it
    r.Next("d") = 40;  // between old keys
    r.Next("e") = 50;  // kept
    // "g" and "h" erased at the end
  }
  EXPECT_THAT(m, ElementsAre(Pair("0", 0), Pair("c", 30), Pair("d", 40),
                             Pair("e", 50)));
  EXPECT_EQ(&m["c"], c);
}

TEST(RefillMapTest, NewValuesAreValueInitializedOldOnesKept) {
  std::map<std::string, std::vector<int>> m = {{"k", {1, 2}}};
  RefillMap<std::map<std::string, std::vector<int>>> r(m);
  EXPECT_THAT(r.Next("j"), IsEmpty());
  EXPECT_THAT(r.Next("k"), ElementsAre(1, 2));
  EXPECT_THAT(r.Next("l"), IsEmpty());
}

TEST(RefillMapTest, NothingWrittenEmptiesTheMap) {
  std::map<std::string, int64_t> m = {{"a", 1}, {"b", 2}};
  { RefillMap<std::map<std::string, int64_t>> r(m); }
  EXPECT_THAT(m, IsEmpty());
}

TEST(RefillMapTest, FillsAnEmptyMap) {
  std::map<std::string, int64_t> m;
  {
    RefillMap<std::map<std::string, int64_t>> r(m);
    r.Next("a") = 1;
    r.Next("b") = 2;
  }
  EXPECT_THAT(m, ElementsAre(Pair("a", 1), Pair("b", 2)));
}

TEST(RefillMapTest, FinishIsIdempotent) {
  std::map<std::string, int64_t> m = {{"a", 1}, {"b", 2}, {"c", 3}};
  RefillMap<std::map<std::string, int64_t>> r(m);
  r.Next("b") = 20;
  r.Finish();
  EXPECT_THAT(m, ElementsAre(Pair("b", 20)));
  r.Finish();
  EXPECT_THAT(m, ElementsAre(Pair("b", 20)));
}

TEST(EngageTest, KeepsTheValueHeld) {
  std::optional<std::vector<int>> o = std::vector<int>{1, 2, 3};
  const int* storage = o->data();
  std::vector<int>& v = Engage(o);
  EXPECT_EQ(&v, &*o);
  EXPECT_EQ(v.data(), storage);
  EXPECT_THAT(v, ElementsAre(1, 2, 3));
}

TEST(EngageTest, EmplacesWhenEmpty) {
  std::optional<std::vector<int>> o;
  std::vector<int>& v = Engage(o);
  ASSERT_TRUE(o.has_value());
  EXPECT_EQ(&v, &*o);
  EXPECT_THAT(v, IsEmpty());
}

}  // namespace
}  // namespace schedtrace
