#include "harness/generator.h"

#include <memory>
#include <utility>

#include "harness/choice_stream.h"
#include "harness/json_codec.h"

namespace schedtrace {
namespace {

// Applies `step` to `sut` and records what it emitted and showed as the
// step's expectations.
absl::StatusOr<StepOut> Record(System& sut, Step& step) {
  absl::StatusOr<StepOut> out = sut.Apply(step);
  if (!out.ok()) return out.status();
  auto expect = std::make_shared<Expect>();
  expect->out = OutToJson(*out);
  if (!out->fatal) expect->state = StateToJson(sut.Snapshot());
  step.expect = expect;
  return out;
}

}  // namespace

absl::StatusOr<Trace> GenerateTrace(Layer layer, System& sut,
                                    const GenOptions& options) {
  std::unique_ptr<StepSource> source = StepSource::New(layer, options);
  RandomChoices choices(options.seed);
  Trace trace;
  trace.header = source->Header(choices);
  if (absl::Status s = sut.Configure(trace.header); !s.ok()) return s;
  for (int i = 0; i < options.steps; ++i) {
    Step step = source->Next(choices);
    absl::StatusOr<StepOut> out = Record(sut, step);
    if (!out.ok()) {
      if (options.hostile) continue;  // refused outright: leave it out
      return out.status();
    }
    source->Observe(step, *out);
    trace.steps.push_back(std::move(step));
    if (out->fatal) break;
  }
  return trace;
}

absl::StatusOr<Trace> GenerateSchedulerTrace(System& sut,
                                             const GenOptions& options) {
  return GenerateTrace(Layer::kScheduler, sut, options);
}

absl::StatusOr<Trace> GenerateCacheTrace(System& sut,
                                         const GenOptions& options) {
  return GenerateTrace(Layer::kCache, sut, options);
}

absl::StatusOr<Trace> GenerateQueueTrace(System& sut,
                                         const GenOptions& options) {
  return GenerateTrace(Layer::kQueue, sut, options);
}

}  // namespace schedtrace
