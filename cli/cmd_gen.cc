// schedtrace gen: a random valid (or, with --hostile, deliberately invalid)
// trace, expectations recorded from a system. On stderr: how often each
// known upstream violation (properties/known_violations.h) fired on it.
#include <fstream>
#include <iostream>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/suts.h"
#include "harness/codec.h"
#include "harness/generator.h"
#include "harness/replay.h"
#include "properties/checker.h"

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
  GenOptions options;
  if (!absl::SimpleAtoi(cl.Last("seed", "1"), &options.seed) ||
      !absl::SimpleAtoi(cl.Last("steps", "60"), &options.steps) ||
      options.steps < 0) {
    return UsageError("gen: --seed and --steps take whole numbers");
  }
  absl::StatusOr<Perturbations> perturb =
      ParsePerturbations(cl.Last("perturb", ""));
  if (!perturb.ok()) return UsageError(std::string(perturb.status().message()));
  options.perturb = *perturb;
  options.hostile = cl.Has("hostile");
  const std::string sut_name = cl.Last("sut", "model");
  absl::StatusOr<std::unique_ptr<System>> sut = MakeSystem(sut_name);
  if (!sut.ok()) return UsageError(std::string(sut.status().message()));
  absl::StatusOr<Trace> trace = GenerateTrace(*layer, **sut, options);
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
    .synopsis = "--layer=L [--seed=N] [--steps=K] [--perturb=NAME:P,...] "
                "[--hostile] [--sut=S] [--out=FILE]",
    .summary = "write a random valid trace, expectations recorded from S "
               "(default model)",
    .flags =
        {{.name = "layer",
          .help = "the layer to generate: queue, cache or scheduler",
          .required = true},
         {"seed", "the random seed (default 1)"},
         {"steps", "how many steps (default 60)"},
         {"perturb",
          "informer perturbations with their probabilities, e.g. "
          "resync:0.1,race:0.2 (resync, race, tombstone, recreate, "
          "recreate_update, node_recreate, node_burst, all; "
          "harness/generator.h)"},
         {.name = "hostile",
          .help = "mix in sequences the apiserver never sends (duplicate adds, "
                  "unknown pods, node name changes, decreasing "
                  "resourceVersions)",
          .boolean = true},
         {"sut",
          "the system the expectations are recorded from "
          "(default model)"},
         {"out", "write the trace there instead of stdout"}},
    .run = &Gen,
});

}  // namespace
}  // namespace schedtrace::cli
