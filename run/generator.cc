#include "run/generator.h"

#include <memory>
#include <utility>

#include "run/choice_stream.h"
#include "run/driver.h"
#include "run/record.h"

namespace schedtrace {

absl::StatusOr<Trace> GenerateTrace(Layer layer, System& sut,
                                    const GenOptions& options) {
  std::unique_ptr<StepSource> source = StepSource::New(layer, options);
  RandomChoices choices(options.seed);
  Trace trace;
  trace.header = source->Header(choices);
  // Recording what `sut` emits and shows; a hostile step it refuses
  // outright is left out, any other refusal is an error.
  Driver driver(sut, nullptr,
                {.record = true, .drop_refused = options.hostile});
  if (std::optional<DriveEnd> end = driver.Configure(trace.header)) {
    return end->status;
  }
  for (int i = 0; i < options.steps && !driver.ended(); ++i) {
    Step step = source->Next(choices);
    if (std::optional<DriveEnd> end = driver.Apply(step)) {
      if (options.hostile) continue;
      return end->status;
    }
    step.expect = RecordedExpect(driver.a());
    source->Observe(step, *driver.last_out());
    trace.steps.push_back(std::move(step));
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
