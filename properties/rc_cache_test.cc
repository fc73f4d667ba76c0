// RapidCheck state machine for the cache layer: model against impl on
// random sequences of c_* calls (properties/rc_stateful.h). Every call is
// one the scheduler or its informer can make; the wrong-but-possible ones
// (forget of a pod never assumed, remove of an unknown node) are answered
// by upstream with an error, which both systems must give alike.
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "properties/rc_stateful.h"

namespace schedtrace::properties::rc_stateful {
namespace {

std::string NodeName(const Model& m) {
  return absl::StrCat("n", Uniform(0, m.gen.nodes));
}

PodPtr NewPod(int i, int64_t t, const std::string& node) {
  auto p = std::make_shared<Pod>();
  p->namespace_ = "default";
  p->name = absl::StrCat("p", i);
  p->uid = absl::StrCat("uid-p", i, "-", t);
  p->resource_version = absl::StrCat(t);
  p->node_name = node;
  Container c{.name = "c"};
  c.requests["cpu"] = *ParseQuantity(absl::StrCat(Uniform(1, 20) * 50, "m"));
  if (Uniform(0, 3) == 0) {
    c.requests["memory"] = *ParseQuantity(absl::StrCat(Uniform(1, 64), "Mi"));
  }
  p->containers.push_back(c);
  return p;
}

NodePtr NewNode(const std::string& name) {
  auto n = std::make_shared<Node>();
  n->name = name;
  n->allocatable["cpu"] = *ParseQuantity(absl::StrCat(Uniform(1, 8)));
  return n;
}

Step CacheStep(const Model& m) {
  Step s;
  s.t = m.t + ClockStep(m.gen.clock, schedtrace::Layer::kCache);
  const int i = Uniform(0, m.gen.pods);
  const std::string key = absl::StrCat("default/p", i);
  auto it = m.pods.find(key);
  const PodPtr known = it == m.pods.end() ? nullptr : it->second;
  switch (Uniform(0, 11)) {
    case 0:
    case 1:
      s.op = Op::kCAssume;
      s.pod = known && Uniform(0, 3) ? known : NewPod(i, s.t, NodeName(m));
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
      s.pod = known && Uniform(0, 3) ? known : NewPod(i, s.t, NodeName(m));
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
      s.node = NewNode(NodeName(m));
      return s;
    case 8: {
      std::string name = NodeName(m);
      auto n = m.nodes.find(name);
      s.op = Op::kCUpdateNode;
      s.old_node = n == m.nodes.end() ? NewNode(name) : n->second;
      s.new_node = NewNode(name);
      return s;
    }
    case 9: {
      std::string name = NodeName(m);
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

// A re-created pod keeps its node: the cache only holds placed pods.
constexpr Layer kCache = {.generate = &CacheStep,
                          .valid = &CacheValid,
                          .layer = schedtrace::Layer::kCache,
                          .bound_recreate = true,
                          .defaults = {.pods = 4, .nodes = 3}};

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

// With every perturbation at 0.2, a fixed seed runs each kind the layer
// has; model and impl still agree (known upstream violations aside).
TEST(RcCacheTest, EachPerturbationOccurs) {
  TraceHeader h;
  h.name = "rc/cache-perturb";
  h.layer = schedtrace::Layer::kCache;
  h.upstream = "v1.26.7";
  h.config.assumed_pod_ttl_ms = 30000;
  PerturbCounts().clear();
  KnownCounts().clear();
  rc::detail::TestParams params = RcParams(60);
  params.seed = 7;
  rc::detail::TestResult r =
      Check<&kCache>(h, &model::NewSystem, &impl::NewSystem, params,
                     *ParsePerturbations("all:0.2"));
  EXPECT_TRUE(r.is<rc::detail::SuccessResult>()) << Describe(r);
  for (const char* kind : kPerturbKinds) {
    EXPECT_GT(PerturbCounts()[kind], 0) << kind;
  }
  std::cout << "perturbations: " << FormatCounts(PerturbCounts())
            << "\nknown violations: " << FormatCounts(KnownCounts()) << "\n";
}

}  // namespace
}  // namespace schedtrace::properties::rc_stateful
