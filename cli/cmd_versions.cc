// schedtrace versions: what changes between upstream versions, trace by
// trace, and which upstream change is responsible (cli/version_diff.h);
// what will change for a workload on an upgrade from one version to the
// next:
//
//   schedtrace versions --versions=v1.26.7,v1.30.12 my-traces/
//
// Each trace runs on the model under every version's profile, its own
// expectations ignored; the run prints a line per trace that is the same on
// all versions, the first difference of the others with what each version
// did there and why (cli/versions_report.h), then a summary per upgrade.
// Differences are the answer, not failures: the exit status is 0 when it
// ran, 2 when a trace did not decode (as conformance), 5 when no trace was
// selected, 128 + the signal when interrupted.
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command.h"
#include "cli/default_paths.h"
#include "cli/flags.h"
#include "cli/ordered_pool.h"
#include "cli/progress.h"
#include "cli/run.h"
#include "cli/run_flags.h"
#include "cli/version_diff.h"
#include "cli/versions_report.h"
#include "core/codec.h"
#include "core/upstream_versions.h"
#include "run/interrupt.h"

namespace schedtrace::cli {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

struct OneTrace {
  TraceVersions trace;
  bool cut_short = false;  // an interrupt stopped it: no answer
};

OneTrace CompareOne(const TraceFile& file,
                    const std::vector<std::string>& versions, bool out_only) {
  const auto start = std::chrono::steady_clock::now();
  OneTrace one;
  TraceVersions& t = one.trace;
  t.path = file.path;
  t.display = file.display;
  t.name = file.name;
  absl::StatusOr<Trace> trace = ReadTraceFile(file.path);
  if (!trace.ok()) {
    t.bad_input = true;
    t.message = std::string(trace.status().message());
  } else {
    t.layer = std::string(LayerName(trace->header.layer));
    VersionDiffOptions options;
    options.versions = versions;
    options.keep_going = [] { return !Interrupted(); };
    options.compare_state = !out_only;
    t.diff = CompareVersions(*trace, options);
    one.cut_short = t.diff.interrupted;
  }
  t.seconds = SecondsSince(start);
  return one;
}

int Versions(const CommandLine& cl) {
  const std::vector<std::string> reports = cl.All("report");
  for (const std::string& report : reports) {
    if (!KnownVersionsReportExtension(report)) {
      return UsageError("versions: --report takes FILE.md or FILE.json");
    }
  }
  std::vector<std::string> versions = KnownUpstreams();
  if (cl.Has("versions")) {
    absl::StatusOr<std::vector<std::string>> v =
        ParseVersionList(cl.Last("versions", ""));
    if (!v.ok()) return UsageError(std::string(v.status().message()));
    versions = *std::move(v);
  }
  std::vector<std::string> paths = cl.paths;
  if (paths.empty()) paths = {cl.Last("golden", DefaultGoldenDir())};
  absl::StatusOr<TraceChoice> choice = ChooseTraces(cl, paths);
  if (!choice.ok()) return UsageError(std::string(choice.status().message()));
  if (cl.Has("list")) return ListTraces(*choice, std::cout);
  absl::StatusOr<int> jobs = JobsFlag(cl, /*exec=*/false);
  if (!jobs.ok()) return UsageError(std::string(jobs.status().message()));
  const bool quiet = cl.Has("quiet");

  const auto start = std::chrono::steady_clock::now();
  const std::vector<TraceFile>& files = choice->chosen;
  VersionsRun run;
  run.versions = versions;
  run.out_only = cl.Has("out-only");
  Progress progress(isatty(STDERR_FILENO) != 0, "versions", files.size());
  RunOrdered<OneTrace>(
      files.size(), *jobs,
      [&](size_t i) {
        return CompareOne(files[i], versions, cl.Has("out-only"));
      },
      [&](size_t, OneTrace& one) {
        if (one.cut_short) return false;
        progress.Clear();
        std::cout << FormatTraceVersions(one.trace, quiet) << std::flush;
        progress.Done(one.trace.bad_input);
        run.traces.push_back(std::move(one.trace));
        return !Interrupted();
      },
      [] { return !Interrupted(); });
  progress.Clear();
  run.interrupted = Interrupted();
  run.seconds = SecondsSince(start);

  if (files.empty()) {
    std::cout << "no trace selected: " << choice->found
              << " found, every one filtered out\n";
  }
  std::cout << "\n" << VersionsSummary(run);
  absl::Status written = absl::OkStatus();
  for (const std::string& report : reports) {
    absl::Status s = WriteVersionsReport(report, run);
    if (!s.ok()) std::cerr << "schedtrace: " << s.message() << "\n";
    if (written.ok()) written = s;
  }
  if (run.interrupted) {
    std::cout << "interrupted by "
              << (InterruptSignal() == SIGINT ? "SIGINT" : "SIGTERM") << ": "
              << run.traces.size() << " of " << files.size()
              << " traces compared\n";
    return 128 + InterruptSignal();
  }
  bool bad_input = false;
  for (const TraceVersions& t : run.traces)
    bad_input = bad_input || t.bad_input;
  if (bad_input || !written.ok()) return kExitBadInput;
  return files.empty() ? kExitNothingRan : kExitOk;
}

const CommandRegistrar kVersions({
    .name = "versions",
    .order = 15,
    .synopsis = "[--versions=A,B,...] [--out-only] [--report=F]... "
                "[--filter=GLOB]... "
                "[--layer=L] [--list] [-j N] [-q] [PATH...]",
    .summary = "what changes between upstream versions: run each trace "
               "(default golden/) on the model under every version, print "
               "the first step where they disagree, what each did there and "
               "the upstream change responsible",
    .flags = {{"versions",
               "the versions to compare, comma-separated, at least two "
               "(default every known one: " +
                   absl::StrJoin(KnownUpstreams(), ", ") +
                   "); a trace runs on those whose layer the model judges"},
              {.name = "out-only",
               .help = "compare only what the versions emit (bindings, "
                       "results, events, status updates), not their states: "
                       "the first step where a workload would see a change",
               .boolean = true},
              {"report",
               "also write a report: FILE.md (Markdown) or FILE.json "
               "(schema schedtrace-versions/1); repeatable"},
              {"golden",
               "the corpus to compare when no PATH is given (default: the "
               "golden/ installed with schedtrace)"},
              kFilterFlag,
              kLayerFilterFlag,
              kListFlag,
              {kJobsFlag.name, "traces compared at once (default 1)", false,
               kJobsFlag.short_name},
              {kQuietFlag.name,
               "print only the traces that differ, and the summary", true,
               kQuietFlag.short_name}},
    .run = &Versions,
});

}  // namespace
}  // namespace schedtrace::cli
