// RapidCheck state machine for the scheduler layer: model against impl on
// random valid informer deliveries and scheduling cycles
// (properties/rc_stateful.h). permit_allow / permit_reject are generated
// only for pods really waiting, bind only for pods really parked.
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/generator.h"
#include "impl/system.h"
#include "properties/rc_stateful.h"

namespace schedtrace::properties::rc_stateful {
namespace {

PodPtr NewPod(int i, int64_t t) {
  auto p = std::make_shared<Pod>();
  p->namespace_ = i % 2 == 0 ? "default" : "team";
  p->name = absl::StrCat("p", i);
  p->uid = absl::StrCat("uid-", p->name, "-", t);
  p->resource_version = absl::StrCat(t);
  p->scheduler_name = "default-scheduler";
  p->priority = Uniform(0, 3);
  Container c{.name = "c", .image = "img"};
  c.requests["cpu"] = *ParseQuantity(absl::StrCat(Uniform(1, 15) * 100, "m"));
  p->containers.push_back(c);
  if (Uniform(0, 5) == 0) p->node_selector = {{"zone", "a"}};
  if (Uniform(0, 10) == 0) p->scheduling_gates = {"example.com/g"};
  return p;
}

// Node i of `nodes` scores 10i+1, or i*(100/nodes) past 10 nodes: unique,
// in [0, 100].
NodePtr NewNode(int i, int nodes) {
  auto n = std::make_shared<Node>();
  n->name = absl::StrCat("n", i);
  n->uid = absl::StrCat("uid-", n->name);
  n->labels = {{"zone", *rc::gen::element<std::string>("a", "b")},
               {"schedtrace.io/score",
                absl::StrCat(nodes > 10 ? i * (100 / nodes) : i * 10 + 1)}};
  n->allocatable["cpu"] = *ParseQuantity(absl::StrCat(Uniform(1, 4)));
  n->allocatable["pods"] = *ParseQuantity("110");
  if (Uniform(0, 5) == 0) n->unschedulable = true;
  return n;
}

Step SchedulerStep(const Model& m) {
  Step s;
  s.t = m.t + ClockStep(m.gen.clock, schedtrace::Layer::kScheduler);
  const int i = Uniform(0, m.gen.pods);
  const std::string key =
      absl::StrCat(i % 2 == 0 ? "default" : "team", "/p", i);
  auto it = m.pods.find(key);
  const PodPtr known = it == m.pods.end() ? nullptr : it->second;
  const int ni = Uniform(0, m.gen.nodes);
  auto nit = m.nodes.find(absl::StrCat("n", ni));
  const NodePtr node = nit == m.nodes.end() ? nullptr : nit->second;
  switch (Uniform(0, 14)) {
    case 0:
      if (known) break;
      s.op = Op::kPodAdd;
      s.pod = NewPod(i, s.t);
      return s;
    case 1: {
      if (!known) break;
      auto next = std::make_shared<Pod>(*known);
      next->resource_version = absl::StrCat(s.t);
      switch (Uniform(0, 3)) {
        case 0:
          next->labels["l"] = absl::StrCat(s.t);
          break;
        case 1:
          next->scheduling_gates.clear();
          break;
        default: {
          // The apiserver's answer to a bind this pod had.
          bool bound = false;
          for (const Step& b : m.steps) {
            bound |= b.op == Op::kBind && b.pod_key == key;
          }
          if (bound && known->node_name.empty()) next->node_name = "n0";
        }
      }
      s.op = Op::kPodUpdate;
      s.old_pod = known;
      s.new_pod = next;
      return s;
    }
    case 2:
      if (!known) break;
      s.op = Op::kPodDelete;
      s.pod = known;
      s.tombstone = Uniform(0, 5) == 0;
      return s;
    case 3:
      if (node) break;
      s.op = Op::kNodeAdd;
      s.node = NewNode(ni, m.gen.nodes);
      return s;
    case 4: {
      if (!node) break;
      auto next = std::make_shared<Node>(*node);
      if (*rc::gen::arbitrary<bool>()) {
        next->unschedulable = !next->unschedulable;
      } else {
        next->allocatable["cpu"] = *ParseQuantity(absl::StrCat(Uniform(1, 4)));
      }
      s.op = Op::kNodeUpdate;
      s.old_node = node;
      s.new_node = next;
      return s;
    }
    case 5:
      if (!node) break;
      s.op = Op::kNodeDelete;
      s.node = node;
      return s;
    case 6:
      s.op = Op::kClusterEvent;
      s.event.resource = *rc::gen::element<std::string>(
          "PersistentVolume", "StorageClass", "CSINode");
      s.event.action = "Add";
      return s;
    case 7:
    case 8:
    case 9: {
      s.op = Op::kScheduleOne;
      const int p = Uniform(0, 10);
      s.permit = p < 3   ? PermitOutcome::kWait
                 : p < 4 ? PermitOutcome::kReject
                         : PermitOutcome::kAllow;
      if (Uniform(0, 10) == 0) s.reserve = ReserveOutcome::kError;
      return s;
    }
    case 10:
      if (!m.state.waiting || m.state.waiting->empty()) break;
      s.op = *rc::gen::arbitrary<bool>() ? Op::kPermitAllow : Op::kPermitReject;
      s.pod_key = *rc::gen::elementOf(*m.state.waiting);
      return s;
    case 11:
      if (!m.state.parked || m.state.parked->empty()) break;
      s.op = Op::kBind;
      s.pod_key = *rc::gen::elementOf(*m.state.parked);
      s.prebind_ok = Uniform(0, 8) != 0;
      s.bind_ok = Uniform(0, 8) != 0;
      return s;
    case 12:
      s.op = Op::kFlushBackoff;
      return s;
    default:
      break;
  }
  s.op = Op::kFlushUnschedulable;
  return s;
}

bool SchedulerValid(const Model& m, const Step& s) {
  switch (s.op) {
    case Op::kPodAdd:
      return Absent(m, s.pod);
    case Op::kPodUpdate:
      return Holds(m, s.old_pod);
    case Op::kPodDelete:
      return Holds(m, s.pod);
    case Op::kNodeAdd:
      return !m.nodes.contains(s.node->name);
    case Op::kNodeUpdate:
      return HoldsNode(m, s.old_node);
    case Op::kNodeDelete:
      return HoldsNode(m, s.node);
    case Op::kPermitAllow:
    case Op::kPermitReject:
      return Lists(m.state.waiting, s.pod_key);
    case Op::kBind:
      return Lists(m.state.parked, s.pod_key);
    default:
      return true;
  }
}

constexpr Layer kScheduler = {.generate = &SchedulerStep,
                              .valid = &SchedulerValid,
                              .layer = schedtrace::Layer::kScheduler,
                              .defaults = {.pods = 5, .nodes = 3}};

TEST(RcSchedulerTest, ModelAndImplAgreeAndKeepEveryProperty) {
  TraceHeader h = SchedulerHeader("rc/scheduler");
  // impl takes the header: a refusal would make the check below vacuous.
  absl::Status s = impl::NewSystem()->Configure(h);
  ASSERT_TRUE(s.ok()) << s;
  rc::detail::TestResult r =
      Check<&kScheduler>(h, &model::NewSystem, &impl::NewSystem, RcParams());
  EXPECT_TRUE(r.is<rc::detail::SuccessResult>()) << Describe(r);
}

// With every perturbation at 0.2, a fixed seed runs each kind the layer
// has; model and impl still agree (known upstream violations aside).
TEST(RcSchedulerTest, EachPerturbationOccurs) {
  TraceHeader h = SchedulerHeader("rc/scheduler-perturb");
  PerturbCounts().clear();
  KnownCounts().clear();
  rc::detail::TestParams params = RcParams(60);
  params.seed = 7;
  rc::detail::TestResult r =
      Check<&kScheduler>(h, &model::NewSystem, &impl::NewSystem, params,
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
