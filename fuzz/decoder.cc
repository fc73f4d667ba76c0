// The Decoder: the config byte and perturbation header (fuzz/byte_format.h),
// then the step source on ByteChoices, and DecodeTrace.
#include "fuzz/decoder.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "run/driver.h"
#include "run/record.h"

namespace schedtrace::fuzz {
namespace {

// The input's config byte and perturbation header, read off `data`.
std::string_view ReadPrefix(std::string_view data, uint8_t& config,
                            PerturbLevels& levels) {
  auto byte = [&data](size_t i) {
    return i < data.size() ? static_cast<uint8_t>(data[i]) : uint8_t{0};
  };
  config = byte(0);
  levels = {};
  size_t used = 1;
  if (config & kPerturbHeaderBit) {
    for (int i = 0; i < kPerturbHeaderBytes; ++i) {
      const uint8_t b = byte(1 + i);
      if (2 * i < kPerturbKinds) levels[2 * i] = b & 15;
      if (2 * i + 1 < kPerturbKinds) levels[2 * i + 1] = b >> 4;
    }
    used += kPerturbHeaderBytes;
  }
  return data.substr(std::min(used, data.size()));
}

std::string Spec(const Perturbations& p) {
  std::string spec;
  for (int k = 0; k < kPerturbKinds; ++k) {
    if (p.*kPerturbFields[k] <= 0) continue;
    absl::StrAppend(&spec, spec.empty() ? "" : ",",
                    std::string(PerturbKindName(static_cast<PerturbKind>(k))),
                    ":", p.*kPerturbFields[k]);
  }
  return spec;
}

}  // namespace

Decoder::Decoder(Layer layer, Mode mode, std::string_view data,
                 const DecoderOptions& options)
    : choices_("") {
  uint8_t config = 0;
  PerturbLevels levels;
  choices_ = ByteChoices(ReadPrefix(data, config, levels));
  options_ = OptionsFor(layer, mode, config, levels, options.perturb);
  source_ = StepSource::New(layer, options_);
  header_ = source_->Header(choices_);
  header_.name = absl::StrCat("fuzz/", std::string(LayerName(layer)));
  header_.source = "generated";
  header_.seed.reset();
  absl::StrAppend(&header_.description,
                  "; decoded from fuzz bytes: ", options_.pods, " pods, ",
                  options_.nodes, " nodes");
  if (options_.hostile) {
    absl::StrAppend(&header_.description, ", hostile ",
                    options_.variety.hostile_rate);
  }
  if (const std::string spec = Spec(options_.perturb); !spec.empty()) {
    absl::StrAppend(&header_.description, "; perturb ", spec);
  }
}

std::optional<Step> Decoder::Next() {
  if (steps_ >= kMaxSteps || choices_.exhausted()) return std::nullopt;
  ++steps_;
  return source_->Next(choices_);
}

absl::StatusOr<Trace> DecodeTrace(Layer layer, Mode mode, std::string_view data,
                                  System* reference, bool record,
                                  const DecoderOptions& options) {
  Decoder dec(layer, mode, data, options);
  Trace trace;
  trace.header = dec.header();
  if (reference == nullptr) {  // no outs: nothing to observe
    while (std::optional<Step> step = dec.Next()) {
      trace.steps.push_back(*std::move(step));
    }
    return trace;
  }
  Driver driver(*reference, nullptr, {.record = record});
  if (std::optional<DriveEnd> end = driver.Configure(trace.header)) {
    return end->status;
  }
  while (!driver.ended()) {
    std::optional<Step> step = dec.Next();
    if (!step) break;
    if (driver.Apply(*step)) {
      // The reference refused the step: the trace ends before it (hostile
      // input the model rejects); keep the step so the trace shows it.
      trace.steps.push_back(*std::move(step));
      break;
    }
    if (record) step->expect = RecordedExpect(driver.a());
    dec.Observe(*step, *driver.last_out());
    trace.steps.push_back(*std::move(step));
  }
  return trace;
}

}  // namespace schedtrace::fuzz
