// schedtrace gen: a random valid (or, with --hostile, deliberately invalid)
// trace, expectations recorded from a system. On stderr: how often each
// known upstream violation (properties/known_violations.h) fired on it.
#include <fstream>
#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/gen_flags.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "core/codec.h"
#include "properties/checker.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::cli {
namespace {

// Replays `trace` on a fresh `sut` with every property checked and adds the
// known upstream violations that fired to `known`.
void CountKnownViolations(const std::string& sut, const Trace& trace,
                          std::map<std::string, int>& known) {
  absl::StatusOr<std::unique_ptr<System>> system = MakeSystem(sut);
  if (!system.ok()) return;
  ReplayOptions options;
  options.check = properties::AsStepCheck(trace.header, &known);
  (void)Replay(**system, trace, options);
}

int Gen(const CommandLine& cl) {
  const std::string layer_name = cl.Last("layer", "");  // required
  const std::optional<Layer> layer = LayerFromName(layer_name);
  if (!layer) {
    return UsageError(
        absl::StrCat("--layer takes queue, cache or scheduler, "
                     "not \"",
                     layer_name, "\""));
  }
  absl::StatusOr<GenOptions> options = GenOptionsFromFlags(cl);
  if (!options.ok()) return UsageError(std::string(options.status().message()));
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  if (*upstream) options->upstream = **upstream;
  const std::string sut_name = cl.Last("sut", "model");
  absl::StatusOr<std::unique_ptr<System>> sut = MakeSystem(sut_name);
  if (!sut.ok()) return UsageError(std::string(sut.status().message()));
  absl::StatusOr<Trace> trace = GenerateTrace(*layer, **sut, *options);
  if (!trace.ok()) {
    std::cerr << "schedtrace gen: " << trace.status().message() << "\n";
    return 1;
  }
  std::map<std::string, int> known;
  CountKnownViolations(sut_name, *trace, known);
  for (const auto& [id, n] : known) {
    std::cerr << "known upstream violation " << id << ": " << n << "\n";
  }
  std::string text = EncodeTrace(*trace);
  if (!cl.Has("out")) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(cl.Last("out", ""));
  out << text;
  return out ? 0 : 2;
}

const CommandRegistrar kGen({
    .name = "gen",
    .order = 40,
    .synopsis = "--layer=L [--seed=N] [--steps=K] [--pods=N] [--nodes=N] "
                "[--queue-pool=N] [--perturb=NAME:P,...] [--hostile] "
                "[--step-ms=MIN:MAX] [...] [--upstream=V] [--sut=S] "
                "[--out=FILE]",
    .summary = "write a random valid trace, expectations recorded from S "
               "(default model); the generator's flags (run/gen_options.h "
               "GenOptions) are diff's too",
    .flags = JoinFlags({{{.name = "layer",
                          .help = "queue, cache or scheduler",
                          .required = true}},
                        GenFlagSpecs(),
                        {kGenUpstreamFlag,
                         {"sut",
                          "the system the expectations are recorded from "
                          "(default model)"},
                         {"out", "write the trace there instead of stdout"}}}),
    .run = &Gen,
});

}  // namespace
}  // namespace schedtrace::cli
