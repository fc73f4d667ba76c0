#include "bench/bench_steps.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/quantity.h"
#include "impl/system.h"
#include "model/system.h"
#include "run/generator.h"

namespace schedtrace::bench {

std::unique_ptr<System> NewSut(const std::string& name) {
  return name == "impl" ? impl::NewSystem() : model::NewSystem();
}

TraceHeader BenchHeader(Layer layer) {
  TraceHeader h = SchedulerHeader("bench/micro");
  h.layer = layer;
  return h;
}

PodPtr BenchPod(int i, int rv, const std::string& node) {
  auto p = std::make_shared<Pod>();
  p->namespace_ = absl::StrCat("ns", i % 20);
  p->name = absl::StrFormat("pod-%06d", i);
  p->uid = absl::StrCat("uid-", p->namespace_, "-", p->name);
  p->resource_version = absl::StrCat(rv);
  p->labels = {{"app", absl::StrCat("app-", i % 200)}};
  p->scheduler_name = "default-scheduler";
  p->priority = (i % 3) * 100;
  p->node_name = node;
  Container c;
  c.name = "c";
  c.image = "img";
  c.requests = {{"cpu", *ParseQuantity("500m")},
                {"memory", *ParseQuantity("512Mi")}};
  p->containers.push_back(std::move(c));
  return p;
}

NodePtr BenchNode(int i) {
  auto n = std::make_shared<Node>();
  n->name = absl::StrFormat("node-%05d", i);
  n->uid = "uid-" + n->name;
  n->resource_version = "1";
  n->labels = {{"schedtrace.io/score", absl::StrCat(i % 100)},
               {"zone", std::string(1, static_cast<char>('a' + i % 5))}};
  n->allocatable = {{"cpu", *ParseQuantity("32")},
                    {"memory", *ParseQuantity("128Gi")},
                    {"pods", *ParseQuantity("110")}};
  n->conditions = {{"Ready", "True"}};
  return n;
}

Step PodStep(Op op, PodPtr pod) {
  Step s;
  s.op = op;
  s.pod = std::move(pod);
  return s;
}

Step PodUpdateStep(Op op, PodPtr old_pod, PodPtr new_pod) {
  Step s;
  s.op = op;
  s.old_pod = std::move(old_pod);
  s.new_pod = std::move(new_pod);
  return s;
}

Step NodeStep(Op op, NodePtr node) {
  Step s;
  s.op = op;
  s.node = std::move(node);
  return s;
}

Step KeyStep(Op op, const std::string& key) {
  Step s;
  s.op = op;
  s.pod_key = key;
  return s;
}

Step BareStep(Op op) {
  Step s;
  s.op = op;
  return s;
}

}  // namespace schedtrace::bench
