// schedtrace replay and schedtrace conformance: traces against systems,
// one line per trace, the conformance table, reports.
#include <iostream>

#include "harness/cli/command.h"
#include "harness/cli/flags.h"
#include "harness/cli/report.h"
#include "harness/cli/run.h"
#include "harness/cli/suts.h"
#include "harness/trace_files.h"

namespace schedtrace::cli {
namespace {

int ReplayOrConformance(const CommandLine& cl) {
  std::string report = cl.Last("report", "");
  if (cl.Has("report") && !KnownReportExtension(report)) {
    return UsageError("--report takes FILE.md, FILE.xml or FILE.json");
  }
  std::vector<std::string> suts = cl.All("sut");
  std::vector<std::string> paths = cl.paths;
  if (cl.command == "replay") {
    if (suts.size() != 1) return UsageError("replay takes one --sut");
    if (paths.empty()) return UsageError("replay needs at least one PATH");
  } else {  // conformance
    if (suts.empty()) suts = {"model", "impl"};
    if (paths.empty()) {
#ifdef SCHEDTRACE_GOLDEN_DIR
      paths = {cl.Last("golden", SCHEDTRACE_GOLDEN_DIR)};
#else
      paths = {cl.Last("golden", "golden")};
#endif
    }
  }
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  for (const std::string& sut : suts) {
    if (absl::StatusOr<std::unique_ptr<System>> s = MakeSystem(sut); !s.ok()) {
      return UsageError(std::string(s.status().message()));
    }
  }
  absl::StatusOr<std::vector<std::string>> files = FindTraceFiles(paths);
  if (!files.ok()) return UsageError(std::string(files.status().message()));
  if (files->empty()) {
    // A corpus that moved or emptied must not pass as "nothing failed".
    return UsageError("no *.jsonl trace under the given PATH");
  }

  RunOptions options;
  options.properties = !cl.Has("no-properties");
  std::vector<SystemRun> runs;
  for (const std::string& sut : suts) {
    if (suts.size() > 1) std::cout << "== " << sut << "\n";
    runs.push_back(RunSystem(sut, *files, options, std::cout));
  }
  if (cl.command == "conformance") std::cout << "\n" << ConformanceTable(runs);
  absl::Status written =
      report.empty() ? absl::OkStatus() : WriteReport(report, runs);
  if (!written.ok()) std::cerr << "schedtrace: " << written.message() << "\n";
  std::cout << SummaryLine(runs) << std::endl;
  return written.ok() ? ExitStatus(runs) : 2;
}

const FlagSpec kReportFlag = {
    "report",
    "also write a report: FILE.md (Markdown), FILE.xml (JUnit XML) or "
    "FILE.json"};
const FlagSpec kNoPropertiesFlag = {
    .name = "no-properties",
    .help = "do not check the invariants after every step",
    .boolean = true};

const CommandRegistrar kConformance({
    .name = "conformance",
    .order = 10,
    .synopsis = "[--sut=S]... [--report=F] [--golden=DIR] [PATH...]",
    .summary = "the main job: replay PATH (default golden/) against each "
               "system, print the conformance table",
    .flags = {{"sut",
               "a system under test (repeatable; default model and "
               "impl)"},
              kReportFlag,
              kNoPropertiesFlag,
              kTimeoutFlag,
              {"golden",
               "the corpus to replay when no PATH is given "
               "(default: the source tree's golden/)"}},
    .run = &ReplayOrConformance,
});

const CommandRegistrar kReplay({
    .name = "replay",
    .order = 20,
    .synopsis = "--sut=S [--report=F] [--no-properties] PATH...",
    .summary = "replay traces against one system",
    .flags = {{"sut", "the system under test"},
              kReportFlag,
              kNoPropertiesFlag,
              kTimeoutFlag},
    .run = &ReplayOrConformance,
});

}  // namespace
}  // namespace schedtrace::cli
