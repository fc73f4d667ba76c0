// Steps built in code for the micro-benchmarks: a header per layer, pods and
// nodes in the shapes of the benchmark inputs, and a System by name.
//
//   std::unique_ptr<System> s = NewSut("impl");
//   s->Configure(BenchHeader(Layer::kQueue));
//   s->Apply(PodStep(Op::kQAdd, BenchPod(7)));
#ifndef SCHEDTRACE_BENCH_BENCH_STEPS_H_
#define SCHEDTRACE_BENCH_BENCH_STEPS_H_

#include <memory>
#include <string>

#include "core/system.h"
#include "core/trace.h"

namespace schedtrace::bench {

// "model" or "impl".
std::unique_ptr<System> NewSut(const std::string& name);

// The benchmark inputs' config (1 profile, PodSchedulingReadiness, every
// node scored) with the real clusterEventMap, for `layer`.
TraceHeader BenchHeader(Layer layer);

// Pod `i` ("ns<i%20>/pod-<i>"), resourceVersion `rv`, optionally bound.
PodPtr BenchPod(int i, int rv = 1, const std::string& node = "");
// Node `i` ("node-<i>"), 32 cpu, 128Gi, 110 pods, score label i % 100 (a
// score outside [0, 100] fails the cycle).
NodePtr BenchNode(int i);

Step PodStep(Op op, PodPtr pod);
Step PodUpdateStep(Op op, PodPtr old_pod, PodPtr new_pod);
Step NodeStep(Op op, NodePtr node);
Step KeyStep(Op op, const std::string& key);
Step BareStep(Op op);

}  // namespace schedtrace::bench

#endif  // SCHEDTRACE_BENCH_BENCH_STEPS_H_
