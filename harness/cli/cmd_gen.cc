// schedtrace gen: a random valid trace, expectations recorded from a system.
#include <fstream>
#include <iostream>

#include "absl/strings/numbers.h"
#include "harness/cli/command.h"
#include "harness/cli/flags.h"
#include "harness/cli/suts.h"
#include "harness/codec.h"
#include "harness/generator.h"

namespace schedtrace::cli {
namespace {

int Gen(const CommandLine& cl) {
  const std::string layer = cl.Last("layer", "scheduler");
  if (layer != "scheduler" && layer != "cache") {
    return UsageError(
        "gen: --layer=scheduler or --layer=cache (queue: not yet)");
  }
  GenOptions options;
  if (!absl::SimpleAtoi(cl.Last("seed", "1"), &options.seed) ||
      !absl::SimpleAtoi(cl.Last("steps", "60"), &options.steps) ||
      options.steps < 0) {
    return UsageError("gen: --seed and --steps take whole numbers");
  }
  absl::StatusOr<std::unique_ptr<System>> sut =
      MakeSystem(cl.Last("sut", "model"));
  if (!sut.ok()) return UsageError(std::string(sut.status().message()));
  absl::StatusOr<Trace> trace = layer == "cache"
                                    ? GenerateCacheTrace(**sut, options)
                                    : GenerateSchedulerTrace(**sut, options);
  if (!trace.ok()) {
    std::cerr << "schedtrace gen: " << trace.status() << "\n";
    return 1;
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
    .synopsis = "--layer=L [--seed=N] [--steps=K] [--sut=S] [--out=FILE]",
    .summary = "write a random valid trace, expectations recorded from S "
               "(default model)",
    .flags = {{"layer", "the layer to generate: scheduler or cache"},
              {"seed", "the random seed (default 1)"},
              {"steps", "how many steps (default 60)"},
              {"sut",
               "the system the expectations are recorded from "
               "(default model)"},
              {"out", "write the trace there instead of stdout"}},
    .run = &Gen,
});

}  // namespace
}  // namespace schedtrace::cli
