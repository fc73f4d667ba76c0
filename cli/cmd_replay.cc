// schedtrace replay and schedtrace conformance: traces against systems,
// one line per trace, the conformance table, reports.
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <map>

#include "cli/command.h"
#include "cli/default_paths.h"
#include "cli/flags.h"
#include "cli/report.h"
#include "cli/run.h"
#include "cli/run_flags.h"
#include "cli/summary.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "run/interrupt.h"

namespace schedtrace::cli {
namespace {

bool IsExec(const std::string& sut) { return sut.rfind("exec:", 0) == 0; }

// After the runs: the conformance table, the failure groups, the last
// failed traces, the reports, the summary line; the exit status.
int Finish(const CommandLine& cl, const std::vector<std::string>& reports,
           const TraceChoice& choice, size_t sut_count,
           const std::vector<SystemRun>& runs) {
  if (choice.chosen.empty()) {
    std::cout << "no trace selected: " << choice.found
              << " found, every one filtered out\n";
  }
  if (cl.command == "conformance") std::cout << "\n" << ConformanceTable(runs);
  if (std::string groups = FailureGroups(runs); !groups.empty()) {
    std::cout << "\n" << groups;
  }
  std::map<std::string, bool> outcome;  // failed on any system
  for (const SystemRun& run : runs) {
    for (const TraceRun& t : run.traces) outcome[t.result.path] |= Failed(t);
  }
  if (absl::Status s = RecordLastFailed({outcome.begin(), outcome.end()});
      !s.ok()) {
    std::cerr << "schedtrace: " << s.message() << "\n";
  }
  absl::Status written = absl::OkStatus();
  for (const std::string& report : reports) {
    absl::Status s = WriteReport(report, runs);
    if (!s.ok()) std::cerr << "schedtrace: " << s.message() << "\n";
    if (written.ok()) written = s;
  }
  if (Interrupted()) {
    size_t done = 0;
    for (const SystemRun& run : runs) done += run.traces.size();
    std::cout << "interrupted by "
              << (InterruptSignal() == SIGINT ? "SIGINT" : "SIGTERM") << ": "
              << done << " of " << choice.chosen.size() * sut_count
              << " trace runs completed\n";
  }
  std::cout << SummaryLine(runs) << std::endl;
  const int status = ExitStatus(runs);
  return written.ok() || status > kExitBadInput ? status : kExitBadInput;
}

int ReplayOrConformance(const CommandLine& cl) {
  // --report is repeatable: one run, several reports (JUnit for the CI
  // system and HTML for a person, say).
  const std::vector<std::string> reports = cl.All("report");
  bool html = false;
  for (const std::string& report : reports) {
    if (!KnownReportExtension(report)) {
      return UsageError(
          "--report takes FILE.md, FILE.xml, FILE.json or FILE.html");
    }
    html = html || report.ends_with(".html");
  }
  std::vector<std::string> suts = cl.All("sut");
  std::vector<std::string> paths = cl.paths;
  if (cl.command == "replay") {
    if (suts.size() != 1) return UsageError("replay takes one --sut");
    if (paths.empty()) return UsageError("replay needs at least one PATH");
  } else {  // conformance
    if (suts.empty()) suts = {"model", "impl"};
    if (paths.empty()) {
      paths = {cl.Last("golden", DefaultGoldenDir())};
    }
  }
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  for (const std::string& sut : suts) {
    if (absl::StatusOr<std::unique_ptr<System>> s = MakeSystem(sut); !s.ok()) {
      return UsageError(std::string(s.status().message()));
    }
  }
  absl::StatusOr<TraceChoice> choice = ChooseTraces(cl, paths);
  if (!choice.ok()) return UsageError(std::string(choice.status().message()));
  if (cl.Has("list")) return ListTraces(*choice, std::cout);
  if (!choice->note.empty()) std::cout << choice->note << "\n";

  RunOptions options;
  options.properties = !cl.Has("no-properties");
  options.fail_fast = cl.Has("fail-fast");
  options.quiet = cl.Has("quiet");
  // The main job prints failures, not a line per pass (thousands of them
  // before the table), unless -v asks; replay keeps them.
  options.pass_lines = cl.command == "replay" || cl.Has("verbose");
  options.progress = isatty(STDERR_FILENO) != 0;
  options.explain_failures = html;
  options.upstream = *upstream;
  std::vector<SystemRun> runs;
  for (const std::string& sut : suts) {
    absl::StatusOr<int> jobs = JobsFlag(cl, IsExec(sut));
    if (!jobs.ok()) return UsageError(std::string(jobs.status().message()));
    options.jobs = *jobs;
    if (suts.size() > 1 && !options.quiet) std::cout << "== " << sut << "\n";
    runs.push_back(RunSystem(sut, choice->chosen, options, std::cout));
    if (Interrupted()) break;
    if (options.fail_fast && runs.back().Count(Verdict::kPassed) +
                                     runs.back().Count(Verdict::kSkipped) <
                                 static_cast<int>(runs.back().traces.size())) {
      break;
    }
  }
  return Finish(cl, reports, *choice, suts.size(), runs);
}

const FlagSpec kReportFlag = {
    "report",
    "also write a report: FILE.md (Markdown), FILE.xml (JUnit XML), "
    "FILE.json or FILE.html (one page for a browser, each failure's "
    "timeline); repeatable"};
const FlagSpec kNoPropertiesFlag = {
    .name = "no-properties",
    .help = "do not check the invariants after every step",
    .boolean = true};

const CommandRegistrar kConformance({
    .name = "conformance",
    .order = 10,
    .synopsis = "[--sut=S]... [--report=F]... [--upstream=V] "
                "[--filter=GLOB]... [--layer=L] [-x] [--last-failed] [--list] "
                "[-j N] [-v] [-q] [PATH...]",
    .summary = "the main job: replay PATH (default golden/) against each "
               "system, print the conformance table (system x version x "
               "layer)",
    .flags = {{"sut",
               "a system under test (repeatable; default model and "
               "impl)"},
              kReportFlag,
              kNoPropertiesFlag,
              kTimeoutFlag,
              kUpstreamFlag,
              {"golden",
               "the corpus to replay when no PATH is given "
               "(default: the golden/ installed with schedtrace)"},
              kFilterFlag,
              kLayerFilterFlag,
              kFailFastFlag,
              kLastFailedFlag,
              kListFlag,
              kJobsFlag,
              kVerboseFlag,
              kQuietFlag},
    .run = &ReplayOrConformance,
});

const CommandRegistrar kReplay({
    .name = "replay",
    .order = 20,
    .synopsis = "--sut=S [--report=F]... [--no-properties] [--upstream=V] "
                "[--filter=GLOB]... [--layer=L] [-x] [--last-failed] [--list] "
                "[-j N] [-q] PATH...",
    .summary = "replay traces against one system",
    .flags = {{.name = "sut",
               .help = "the system under test (model, impl, exec:CMD, "
                       "upstream:VERSION)",
               .required = true},
              kReportFlag,
              kNoPropertiesFlag,
              kTimeoutFlag,
              kUpstreamFlag,
              kFilterFlag,
              kLayerFilterFlag,
              kFailFastFlag,
              kLastFailedFlag,
              kListFlag,
              kJobsFlag,
              kQuietFlag},
    .run = &ReplayOrConformance,
});

}  // namespace
}  // namespace schedtrace::cli
