// Inside the step source (harness/step_source.h): the three layers' sources
// (step_source_scheduler.cc, step_source_cache.cc, step_source_queue.cc)
// and the small draws they share.
#ifndef SCHEDTRACE_HARNESS_STEP_SOURCE_LAYERS_H_
#define SCHEDTRACE_HARNESS_STEP_SOURCE_LAYERS_H_

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/choice_stream.h"
#include "harness/informer_world.h"
#include "harness/quantity.h"
#include "harness/step_source.h"
#include "harness/step_source_perturb.h"

namespace schedtrace::step_source {

std::unique_ptr<StepSource> NewSchedulerSource(const GenOptions& options);
std::unique_ptr<StepSource> NewCacheSource(const GenOptions& options);
std::unique_ptr<StepSource> NewQueueSource(const GenOptions& options);

inline Quantity Q(const std::string& s) { return *ParseQuantity(s); }

// Whether a perturbation with probability `p` fires; draws nothing when it
// is off, so traces made without perturbations stay what they were.
inline bool Fire(ChoiceStream& c, double p) {
  return p > 0 && c.Chance(std::min(p, 1.0));
}

// Uniform in [lo, hi]; no draw when lo == hi.
inline int Span(ChoiceStream& c, int lo, int hi) {
  return lo == hi ? lo : c.Uniform(lo, hi);
}

// The clock's advance before a queue- or scheduler-layer step (ClockSteps):
// the flush jump, else the backoff jump, else an ordinary step.
inline int64_t ClockStep(ChoiceStream& c, const ClockSteps& clock) {
  if (c.Chance(clock.flush.p)) {
    return Span(c, clock.flush.min_ms, clock.flush.max_ms);
  }
  if (c.Chance(clock.backoff.p)) {
    return Span(c, clock.backoff.min_ms, clock.backoff.max_ms);
  }
  return Span(c, clock.min_ms, clock.max_ms);
}

// The next of the later steps a perturbation queued (a re-create's add, a
// burst's updates) into `step`, at the clock's `t`; false when none.
inline bool TakePending(std::vector<Step>& pending, int64_t t, Step& step) {
  if (pending.empty()) return false;
  step = std::move(pending.front());
  pending.erase(pending.begin());  // a few steps at most
  step.t = t;
  return true;
}

// Draws on ChoiceStream::Variety(): the variety a source gained after its
// first version (taint and toleration effects, out-of-range scores, pod
// affinity in the queue layer), so that a seed's steps stay what they were
// and only the objects in them change.
class Variety {
 public:
  void Use(ChoiceStream& c) { c_ = &c.Variety(); }
  const char* Pick(std::initializer_list<const char*> choices) {
    return choices
        .begin()[c_->Uniform(0, static_cast<int>(choices.size()) - 1)];
  }
  bool Chance(double p) { return c_->Chance(p); }
  int Uniform(int lo, int hi) { return c_->Uniform(lo, hi); }

 private:
  ChoiceStream* c_ = nullptr;
};

// Resource corners (issue 18.3), one pod in five, on the variety stream:
// a zero-valued extended resource as the only request (fitsRequest does not
// return early for it), quantities in other spellings ("1000m" for "1",
// "0.5", "01", "0"), several extended resources and hugepages, an init
// container above the containers' sum, and overhead. `p` has one container.
inline void PodResourceCorners(Variety& v, Pod& p) {
  if (!v.Chance(0.2)) return;
  ResourceList& r = p.containers.front().requests;
  switch (v.Uniform(0, 3)) {
    case 0:
      r.clear();
      r["example.com/gpu"] = Q("0");
      break;
    case 1:
      r["cpu"] = Q(v.Pick({"1000m", "1", "0.5", "01", "0", "2000m"}));
      break;
    case 2:
      r["example.com/gpu"] = Q(v.Pick({"0", "1", "2"}));
      r["example.com/fpga"] = Q("1");
      if (v.Chance(0.5)) r["hugepages-2Mi"] = Q("2Mi");
      break;
    default: {
      Container& init = p.init_containers.emplace_back();
      init.name = "init";
      init.image = "img";
      init.requests["cpu"] = Q(v.Pick({"2", "500m"}));
      init.requests["example.com/gpu"] = Q("1");
      p.overhead["cpu"] = Q("100m");
      break;
    }
  }
}

// A node's side of them, one node in three: extended resources and
// hugepages in its allocatable, some of them zero.
inline void NodeResourceCorners(Variety& v, Node& n) {
  if (!v.Chance(0.3)) return;
  n.allocatable["example.com/gpu"] = Q(v.Pick({"0", "1", "4"}));
  if (v.Chance(0.5)) n.allocatable["example.com/fpga"] = Q("2");
  if (v.Chance(0.3)) n.allocatable["hugepages-2Mi"] = Q("8Mi");
}

// What the three layer sources share: the stream of the current call and
// the draws on it, the informer world their outs build, and the pods the
// perturbations read (KeptPods).
class LayerSource : public StepSource, protected KeptPods {
 public:
  explicit LayerSource(Layer layer) : layer_(layer), world_(layer) {}
  Step Next(ChoiceStream& c) final {
    Use(c);
    return NextStep();
  }
  void Observe(const Step& step, const StepOut& out) override {
    world_.Observe(step, out);
  }
  Layer layer() const final { return layer_; }

 protected:
  // The layer's next step, drawn on c_.
  virtual Step NextStep() = 0;
  // Draws on `c` from now on (Header calls it first).
  void Use(ChoiceStream& c) {
    c_ = &c;
    variety_.Use(c);
  }
  int Uniform(int lo, int hi) { return c_->Uniform(lo, hi); }
  bool Chance(double p) { return c_->Chance(p); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(0, static_cast<int>(v.size()) - 1)];
  }

  const Layer layer_;
  ChoiceStream* c_ = nullptr;  // the stream of the current call
  Variety variety_;
  InformerWorld world_;
};

}  // namespace schedtrace::step_source

#endif  // SCHEDTRACE_HARNESS_STEP_SOURCE_LAYERS_H_
