// RapidCheck state machine for the cache layer: model against impl on
// random sequences of c_* calls (properties/rc_stateful.h). Every call is
// one the scheduler or its informer can make; the wrong-but-possible ones
// (forget of a pod never assumed, remove of an unknown node) are answered
// by upstream with an error, which both systems must give alike.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "properties/rc_stateful.h"

namespace schedtrace::properties::rc_stateful {
namespace {

constexpr int kPods = 4;
constexpr int kNodes = 3;

std::string NodeName() {
  return absl::StrCat("n", *rc::gen::inRange(0, kNodes));
}

PodPtr NewPod(int i, int64_t t, const std::string& node) {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "default";
  p->name = absl::StrCat("p", i);
  p->uid = absl::StrCat("uid-p", i, "-", t);
  p->resource_version = absl::StrCat(t);
  p->node_name = node;
  Container c{.name = "c"};
  c.requests["cpu"] =
      *ParseQuantity(absl::StrCat(*rc::gen::inRange(1, 20) * 50, "m"));
  if (*rc::gen::inRange(0, 3) == 0) {
    c.requests["memory"] =
        *ParseQuantity(absl::StrCat(*rc::gen::inRange(1, 64), "Mi"));
  }
  p->containers.push_back(c);
  return p;
}

NodePtr NewNode(const std::string& name) {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->allocatable["cpu"] = *ParseQuantity(absl::StrCat(*rc::gen::inRange(1, 8)));
  return n;
}

Step CacheStep(const Model& m) {
  Step s;
  s.t = m.t + (*rc::gen::inRange(0, 8) == 0 ? *rc::gen::inRange(20000, 40000)
                                            : *rc::gen::inRange(100, 3000));
  const int i = *rc::gen::inRange(0, kPods);
  const std::string key = absl::StrCat("default/p", i);
  auto it = m.pods.find(key);
  const PodPtr known = it == m.pods.end() ? nullptr : it->second;
  switch (*rc::gen::inRange(0, 11)) {
    case 0:
    case 1:
      s.op = Op::kCAssume;
      s.pod =
          known && *rc::gen::inRange(0, 3) ? known : NewPod(i, s.t, NodeName());
      return s;
    case 2:
      if (!known) break;
      s.op = Op::kCFinishBinding;
      s.pod = known;
      return s;
    case 3:
      if (!known) break;
      s.op = Op::kCForget;
      s.pod = known;
      return s;
    case 4:
      s.op = Op::kCAddPod;
      s.pod =
          known && *rc::gen::inRange(0, 3) ? known : NewPod(i, s.t, NodeName());
      return s;
    case 5: {
      if (!known) break;
      PodPtr next = NewPod(i, s.t, known->node_name);
      std::const_pointer_cast<Pod>(next)->uid = known->uid;
      s.op = Op::kCUpdatePod;
      s.old_pod = known;
      s.new_pod = next;
      return s;
    }
    case 6:
      if (!known) break;
      s.op = Op::kCRemovePod;
      s.pod = known;
      return s;
    case 7:
      s.op = Op::kCAddNode;
      s.node = NewNode(NodeName());
      return s;
    case 8: {
      std::string name = NodeName();
      auto n = m.nodes.find(name);
      s.op = Op::kCUpdateNode;
      s.old_node = n == m.nodes.end() ? NewNode(name) : n->second;
      s.new_node = NewNode(name);
      return s;
    }
    case 9: {
      std::string name = NodeName();
      auto n = m.nodes.find(name);
      s.op = Op::kCRemoveNode;
      s.node = n == m.nodes.end() ? NewNode(name) : n->second;
      return s;
    }
    default:
      break;
  }
  s.op = Op::kCCleanup;
  return s;
}

bool CacheValid(const Model& m, const Step& s) {
  switch (s.op) {
    case Op::kCFinishBinding:
    case Op::kCForget:
    case Op::kCRemovePod:
      return Holds(m, s.pod);
    case Op::kCUpdatePod:
      return Holds(m, s.old_pod);
    default:
      return true;
  }
}

constexpr Layer kCache = {&CacheStep, &CacheValid};

TEST(RcCacheTest, ModelAndImplAgreeAndKeepEveryProperty) {
  for (int64_t ttl : {0, 30000}) {
    TraceHeader h;
    h.name = absl::StrCat("rc/cache-ttl-", ttl);
    h.layer = schedtrace::Layer::kCache;
    h.upstream = "v1.26.7";
    h.config.assumed_pod_ttl_ms = ttl;
    rc::detail::TestResult r =
        Check<&kCache>(h, &model::NewSystem, &impl::NewSystem, RcParams(100));
    EXPECT_TRUE(r.is<rc::detail::SuccessResult>()) << Describe(r);
  }
}

}  // namespace
}  // namespace schedtrace::properties::rc_stateful
