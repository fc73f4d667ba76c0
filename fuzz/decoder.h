// Turns fuzzer bytes into a schedtrace, one step at a time, for the
// libFuzzer targets of fuzz/targets/ and for the tools that replay or
// convert their inputs. The bytes are the step source's choices
// (run/step_source.h, read through ByteChoices): the fuzz targets make
// their steps with the same source as `schedtrace gen`, `diff --count` and
// the RapidCheck tests, so every step is one an apiserver and informer
// could deliver (hostile mode adds the source's hostile steps) and a
// mutated byte is a changed choice. fuzz/byte_format.h has the format: a
// config byte (pools, hostile share), an optional perturbation header, then
// the choices.
//
// The source reads no system's state: after applying each step to a
// reference system, the caller passes its out to Observe(). DecodeTrace()
// does that with the model, so a crashing input becomes the very trace the
// target ran.
//
//   Decoder dec(Layer::kScheduler, Mode::kValid, bytes);
//   model->Configure(dec.header());
//   while (std::optional<Step> step = dec.Next()) {
//     StepOut out = *model->Apply(*step);
//     dec.Observe(*step, out);
//   }
#ifndef SCHEDTRACE_FUZZ_DECODER_H_
#define SCHEDTRACE_FUZZ_DECODER_H_

#include <memory>
#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/system.h"
#include "core/trace.h"
#include "fuzz/byte_format.h"
#include "run/choice_stream.h"
#include "run/gen_options.h"
#include "run/step_source.h"

namespace schedtrace::fuzz {

struct DecoderOptions {
  // When set, these probabilities replace the input's perturbation header
  // (whose bytes are still skipped, so the choices keep their places): a
  // tool can say "all at 0.05" and run any corpus with perturbations.
  // Unset: the input decides.
  std::optional<Perturbations> perturb;
};

class Decoder {
 public:
  // The layer is fixed by the target (the hostile target reads it from its
  // first byte and passes the rest). `data` must outlive the decoder.
  Decoder(Layer layer, Mode mode, std::string_view data,
          const DecoderOptions& options = {});

  // The source's header, named after the layer, its description saying
  // how the input was decoded (pools, hostile share, perturbations).
  const TraceHeader& header() const { return header_; }
  // The options the input gave the step source.
  const GenOptions& options() const { return options_; }

  // The next step, or nullopt when the input is used up (or kMaxSteps).
  std::optional<Step> Next();

  // Feedback: `step` was applied to the reference system and gave `out`.
  void Observe(const Step& step, const StepOut& out) {
    source_->Observe(step, out);
  }

 private:
  ByteChoices choices_;
  GenOptions options_;
  std::unique_ptr<StepSource> source_;
  TraceHeader header_;
  int steps_ = 0;
};

// Decodes the whole input. With `reference` (normally the model) the steps
// are applied to it for feedback and, with `record`, each step's expect is
// filled from it, so the trace replays as a regression. Without `reference`
// no step is observed (the source then sees no pod popped, waiting or
// assumed).
absl::StatusOr<Trace> DecodeTrace(Layer layer, Mode mode, std::string_view data,
                                  System* reference, bool record,
                                  const DecoderOptions& options = {});

}  // namespace schedtrace::fuzz

#endif  // SCHEDTRACE_FUZZ_DECODER_H_
