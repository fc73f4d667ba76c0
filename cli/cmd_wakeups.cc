// schedtrace wakeups: property 11 as measures, per version (properties/
// wake_stats.h): how often a step makes a pod in unschedulablePods
// schedulable, how often that step moves it, which lost wake-ups upstream
// commits, and how often a move out of unschedulablePods is wasted.
//
//   schedtrace wakeups --versions=v1.26.7,v1.37.2 golden/
//   schedtrace wakeups --count=200 --seed=7 --steps=300
//
// With PATH, each scheduler-layer trace runs on the model under every
// version (its header's `upstream` replaced; a version that refuses the
// header skips it); without, `--count` traces are generated per version
// (the generator's flags, as gen and diff take them). Measures, not
// verdicts: the exit status is 0 when it ran, 2 for a trace that does not
// decode or a bad flag, 5 when no trace was measured.
#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/gen_flags.h"
#include "cli/ordered_pool.h"
#include "cli/run.h"
#include "cli/run_flags.h"
#include "cli/version_diff.h"
#include "core/codec.h"
#include "core/upstream_versions.h"
#include "model/system.h"
#include "properties/wake_stats.h"
#include "run/generator.h"
#include "run/interrupt.h"

namespace schedtrace::cli {
namespace {

struct OneTrace {
  properties::WakeStats stats;
  std::string error;  // a trace that does not decode or generate
};

OneTrace MeasureOne(const absl::StatusOr<Trace>& trace,
                    const std::string& version) {
  OneTrace one;
  if (!trace.ok()) {
    one.error = std::string(trace.status().message());
    return one;
  }
  if (trace->header.layer != Layer::kScheduler) return one;
  Trace t = *trace;
  t.header.upstream = version;
  std::unique_ptr<System> model = model::NewSystem();
  // A header the version refuses measures nothing.
  (void)properties::MeasureWakeUps(t, *model, &one.stats);
  return one;
}

int WakeUps(const CommandLine& cl) {
  std::vector<std::string> versions = KnownUpstreams();
  if (cl.Has("versions")) {
    absl::StatusOr<std::vector<std::string>> v =
        ParseVersionList(cl.Last("versions", ""), /*at_least=*/1);
    if (!v.ok()) return UsageError(std::string(v.status().message()));
    versions = *std::move(v);
  }
  absl::StatusOr<int> jobs = JobsFlag(cl, /*exec=*/false);
  if (!jobs.ok()) return UsageError(std::string(jobs.status().message()));
  std::vector<TraceFile> files;
  if (!cl.paths.empty()) {
    if (!FirstGenFlag(cl).empty()) {
      return UsageError("wakeups: --" + FirstGenFlag(cl) +
                        " is for generated traces, not with PATH");
    }
    absl::StatusOr<TraceChoice> choice = ChooseTraces(cl, cl.paths);
    if (!choice.ok()) {
      return UsageError(std::string(choice.status().message()));
    }
    files = choice->chosen;
  }
  absl::StatusOr<GenOptions> gen = GenOptionsFromFlags(cl);
  if (!gen.ok()) return UsageError(std::string(gen.status().message()));
  int count = 100;
  if (cl.Has("count")) {
    if (!absl::SimpleAtoi(cl.Last("count", ""), &count) || count < 1) {
      return UsageError("wakeups: --count takes a positive integer");
    }
  }
  const size_t n = files.empty() ? static_cast<size_t>(count) : files.size();

  std::vector<std::pair<std::string, properties::WakeStats>> rows;
  bool bad_input = false;
  for (const std::string& version : versions) {
    properties::WakeStats total;
    RunOrdered<OneTrace>(
        n, *jobs,
        [&](size_t i) {
          if (!files.empty())
            return MeasureOne(ReadTraceFile(files[i].path), version);
          GenOptions options = *gen;
          options.seed = gen->seed + i;
          options.upstream = version;
          std::unique_ptr<System> recorder = model::NewSystem();
          return MeasureOne(
              GenerateTrace(Layer::kScheduler, *recorder, options), version);
        },
        [&](size_t i, OneTrace& one) {
          if (!one.error.empty()) {
            std::cerr << "schedtrace: "
                      << (files.empty() ? absl::StrCat("seed ", gen->seed + i)
                                        : files[i].path)
                      << ": " << one.error << "\n";
            bad_input = true;
          }
          total.Add(one.stats);
          return !Interrupted();
        },
        [] { return !Interrupted(); });
    rows.emplace_back(version, total);
    if (Interrupted()) break;
  }
  std::cout << (files.empty()
                    ? absl::StrCat(count,
                                   " generated scheduler-layer traces "
                                   "per version (seeds ",
                                   gen->seed, "..", gen->seed + count - 1, ", ",
                                   gen->steps, " steps)\n")
                    : absl::StrCat(files.size(),
                                   " traces, the scheduler layer's measured "
                                   "on each version\n"))
            << properties::FormatWakeStats(rows);
  if (bad_input) return kExitBadInput;
  int64_t measured = 0;
  for (const auto& [v, w] : rows) measured += w.traces;
  return measured == 0 ? kExitNothingRan : kExitOk;
}

const CommandRegistrar kWakeUps({
    .name = "wakeups",
    .order = 16,
    .synopsis = "[--versions=A,B,...] [-j N] (PATH... [--filter=GLOB]... | "
                "[--count=N] [--seed=N] [--steps=K] [...])",
    .summary = "property 11 as measures, per version: how often a step makes "
               "a pod in unschedulablePods schedulable, how often it moves "
               "it, the lost wake-ups upstream commits, and how often a move "
               "is wasted (the next attempt fails on the same plugins)",
    .flags = JoinFlags(
        {{{"versions",
           "the versions to measure, comma-separated (default every known "
           "one: " +
               absl::StrJoin(KnownUpstreams(), ", ") + ")"},
          {"count", "generated traces per version, without PATH (default 100)"},
          kFilterFlag,
          {kJobsFlag.name, "traces measured at once (default 1)", false,
           kJobsFlag.short_name}},
         GenFlagSpecs("the first generated trace's seed (default 1)")}),
    .run = &WakeUps,
});

}  // namespace
}  // namespace schedtrace::cli
