#include "core/state_touch.h"

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

State WithNodes(std::vector<std::string> pods_of_n2) {
  State s;
  CacheState& c = s.cache.emplace();
  c.nodes.push_back({.name = "n1"});
  c.nodes.push_back({.name = "n2", .pods = std::move(pods_of_n2)});
  c.nodes.push_back({.name = "n3"});
  s.queue.emplace();
  return s;
}

TEST(StateTouchTest, EverythingUntilCleared) {
  StateTouch t;
  EXPECT_TRUE(t.all());
  EXPECT_TRUE(t.TouchesNode("anything"));
  t.Clear();
  EXPECT_FALSE(t.Touches(StateTouch::kActive));
  EXPECT_FALSE(t.TouchesNode("n1"));
  t.AddNode("n2");
  t.AddNode("n1");
  t.AddNode("n2");
  EXPECT_EQ(t.nodes(), (std::vector<std::string>{"n1", "n2"}));
  EXPECT_TRUE(t.TouchesNode("n1"));
  StateTouch u;
  u.Clear();
  u.Add(StateTouch::kNodeSet);
  t.Add(u);
  EXPECT_TRUE(t.TouchesNode("n9"));  // NodeInfos came or went: every one
}

TEST(StateTouchTest, EqualInComparesOnlyWhatIsTouched) {
  const State a = WithNodes({"d/a"});
  State b = WithNodes({"d/b"});
  b.queue->active.push_back({.pod = "d/q"});
  StateTouch t;
  t.Clear();
  EXPECT_TRUE(EqualIn(a, b, t));
  t.AddNode("n1");
  EXPECT_TRUE(EqualIn(a, b, t));
  t.AddNode("n2");
  EXPECT_FALSE(EqualIn(a, b, t));
  StateTouch q;
  q.Clear();
  q.Add(StateTouch::kActive);
  EXPECT_FALSE(EqualIn(a, b, q));
  EXPECT_FALSE(EqualIn(a, b, StateTouch()));  // everything
  State c = a;
  c.cache->nodes.pop_back();  // a NodeInfo went, unsaid: lengths differ
  EXPECT_FALSE(EqualIn(a, c, t));
}

TEST(StateTouchTest, CopyTouchedMakesEqual) {
  const State from = WithNodes({"d/a"});
  State out = WithNodes({"d/b"});
  StateTouch t;
  t.Clear();
  t.AddNode("n2");
  CopyTouched(from, t, out);
  EXPECT_EQ(out, from);
  State other = WithNodes({});
  other.cache->nodes.pop_back();
  t.Add(StateTouch::kNodeSet);
  CopyTouched(from, t, other);
  EXPECT_EQ(other, from);
}

}  // namespace
}  // namespace schedtrace
