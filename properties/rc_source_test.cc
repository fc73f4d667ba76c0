// RapidCheck on the step source (run/step_source.h) through RcChoices
// (properties/rc_choices.h): the source decides what is valid from its own
// informer world, RapidCheck draws its choices. Model and impl run in
// lockstep (run/differential.h) with every property checked on both
// (known upstream violations counted, never failures); a planted bug is
// found and shrunk on the choices to its two steps. The options come from
// the environment (properties/rc_params.h: RC_CASES, RC_SEED,
// SCHEDTRACE_GEN, RC_PERTURB).
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/codec.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/checker.h"
#include "properties/judged_upstreams.h"
#include "properties/rc_choices.h"
#include "properties/rc_params.h"
#include "properties/step_shapes_test_util.h"
#include "run/differential.h"
#include "run/step_source.h"

namespace schedtrace::properties {
namespace {

// Draws a sequence of choices and runs the steps the source makes from them
// on `a` and `b` in lockstep. The steps that ran go to `trace`; the result
// is the failure, or nullopt.
std::optional<DiffResult> RunDrawn(Layer layer, const GenOptions& options,
                                   System& a, System& b, Trace& trace,
                                   std::map<std::string, int>& known) {
  RcChoices choices = RcChoices::Draw();
  std::unique_ptr<StepSource> source = StepSource::New(layer, options);
  trace = Trace{};
  trace.header = source->Header(choices);
  DiffOptions o;
  o.make_check = [&known](const TraceHeader& h) {
    return AsStepCheck(h, &known);
  };
  Differential diff(a, b, o);
  if (std::optional<DiffResult> r = diff.Configure(trace.header, "rc")) {
    return r->verdict == Verdict::kSkipped ? std::nullopt : r;
  }
  for (int i = 1; choices.NextStep() && !diff.ended(); ++i) {
    Step step = source->Next(choices);
    trace.steps.push_back(step);
    if (std::optional<DiffResult> r = diff.Apply(step)) return r;
    if (diff.last_out()) source->Observe(step, *diff.last_out());
  }
  return std::nullopt;
}

// Every layer on every version's profile: the source writes the version in
// the header (and follows its rules: no gates before v1.26), model and
// impl each run that version.
class RcSourceTest
    : public testing::TestWithParam<std::tuple<Layer, std::string>> {
 protected:
  Layer layer() const { return std::get<0>(GetParam()); }
  GenOptions WithVersion(GenOptions options) const {
    options.upstream = std::get<1>(GetParam());
    return options;
  }
};

TEST_P(RcSourceTest, ModelAndImplAgreeAndKeepEveryProperty) {
  absl::StatusOr<GenOptions> options = RcGenOptions();
  ASSERT_TRUE(options.ok()) << options.status();
  *options = WithVersion(*options);
  if (!BothJudge(options->upstream, layer())) {
    GTEST_SKIP() << "model and impl do not both judge this layer of "
                 << options->upstream << " yet";
  }
  std::map<std::string, int> known;
  // The last failing run is the shrunk counterexample: its trace and
  // message are printed so it can be replayed or recorded with upstream.
  std::string counterexample;
  const rc::detail::TestResult r = rc::detail::checkTestable(
      [&] {
        std::unique_ptr<System> a = model::NewSystem();
        std::unique_ptr<System> b = impl::NewSystem();
        Trace trace;
        std::optional<DiffResult> d =
            RunDrawn(layer(), *options, *a, *b, trace, known);
        if (d.has_value()) {
          counterexample =
              d->side + ": " + d->message + "\n" + EncodeTrace(trace);
        }
        RC_ASSERT(!d.has_value());
      },
      rc::detail::TestMetadata{}, RcParams(300));
  EXPECT_TRUE(r.is<rc::detail::SuccessResult>())
      << Describe(r) << "counterexample:\n"
      << counterexample;
  std::cout << "known upstream violations:";
  for (const auto& [id, n] : known) std::cout << " " << id << "=" << n;
  std::cout << "\n";
}

// RapidCheck's draws reach the perturbation branches: a resync (an update
// carrying the object unchanged) and a re-create (a delete, then an add of
// the same key with a new uid) in every layer.
TEST_P(RcSourceTest, ReachesThePerturbations) {
  GenOptions options = WithVersion(GenOptions{});
  if (!ModelJudges(options.upstream, layer())) {
    GTEST_SKIP() << "the model does not judge this layer of "
                 << options.upstream << " yet";
  }
  options.perturb = Perturbations::All(0.2);
  int resyncs = 0, recreates = 0;
  const rc::detail::TestResult r = rc::detail::checkTestable(
      [&] {
        RcChoices choices = RcChoices::Draw();
        std::unique_ptr<StepSource> source = StepSource::New(layer(), options);
        std::unique_ptr<System> sut = model::NewSystem();
        RC_ASSERT(sut->Configure(source->Header(choices)).ok());
        std::vector<Step> steps;
        while (choices.NextStep()) {
          steps.push_back(source->Next(choices));
          absl::StatusOr<StepOut> out = sut->Apply(steps.back());
          if (!out.ok() || out->fatal) break;
          source->Observe(steps.back(), *out);
        }
        for (size_t i = 0; i < steps.size(); ++i) {
          resyncs += IsResync(steps[i]);
          recreates += IsRecreate(
              steps[i], i + 1 < steps.size() ? &steps[i + 1] : nullptr);
        }
      },
      rc::detail::TestMetadata{}, RcParams(100));
  EXPECT_TRUE(r.is<rc::detail::SuccessResult>()) << Describe(r);
  EXPECT_GT(resyncs, 0);
  EXPECT_GT(recreates, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Layers, RcSourceTest,
    testing::Combine(testing::Values(Layer::kQueue, Layer::kCache,
                                     Layer::kScheduler),
                     testing::ValuesIn(KnownUpstreams())),
    [](const auto& info) {
      std::string version = std::get<1>(info.param);
      for (char& c : version) {
        if (c == '.') c = '_';
      }
      return std::string(LayerName(std::get<0>(info.param))) + "_" + version;
    });

// A planted bug: impl, except that a pop of team/p3 says it popped nothing.
class LosesP3 : public System {
 public:
  absl::Status Configure(const TraceHeader& h) override {
    return inner_->Configure(h);
  }
  absl::StatusOr<StepOut> Apply(const Step& step) override {
    absl::StatusOr<StepOut> out = inner_->Apply(step);
    if (out.ok() && out->popped == "team/p3") out->popped.reset();
    return out;
  }
  State Snapshot() const override { return inner_->Snapshot(); }

 private:
  std::unique_ptr<System> inner_ = impl::NewSystem();
};

TEST(RcSourcePlantedTest, FoundAndShrunkOnTheChoices) {
  std::map<std::string, int> known;
  Trace last_failure;  // the last failing run RapidCheck tried: the shrunk one
  const rc::detail::TestResult r = rc::detail::checkTestable(
      [&] {
        std::unique_ptr<System> a = model::NewSystem();
        LosesP3 b;
        Trace trace;
        std::optional<DiffResult> d =
            RunDrawn(Layer::kQueue, GenOptions{}, *a, b, trace, known);
        if (d) last_failure = trace;
        RC_ASSERT(!d.has_value());
      },
      rc::detail::TestMetadata{}, RcParams(200));
  ASSERT_TRUE(r.is<rc::detail::FailureResult>()) << Describe(r);
  // Shrunk to the least that shows the bug: team/p3 added, then popped...
  ASSERT_EQ(last_failure.steps.size(), 2u) << EncodeTrace(last_failure);
  EXPECT_EQ(last_failure.steps[0].op, Op::kQAdd) << EncodeTrace(last_failure);
  EXPECT_EQ(last_failure.steps[0].pod->Key(), "team/p3");
  EXPECT_EQ(last_failure.steps[1].op, Op::kQPop);
  // ...a trace that replays the disagreement.
  std::unique_ptr<System> a = model::NewSystem();
  LosesP3 b;
  EXPECT_EQ(RunDifferential(*a, b, last_failure).verdict, Verdict::kFailed)
      << EncodeTrace(last_failure);
}

}  // namespace
}  // namespace schedtrace::properties
