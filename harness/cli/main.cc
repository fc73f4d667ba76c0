// schedtrace: replays schedtrace-v1 traces against systems under test.
// See `schedtrace help` and the README.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "harness/cli/flags.h"
#include "harness/cli/report.h"
#include "harness/cli/run.h"
#include "harness/cli/suts.h"
#include "harness/codec.h"
#include "harness/generator.h"
#include "harness/trace_files.h"

namespace schedtrace::cli {
namespace {

int UsageError(const std::string& message) {
  std::cerr << "schedtrace: " << message << "\n\n" << Usage();
  return 2;
}

// schedtrace gen: a random valid trace recorded from a system.
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

int Main(int argc, char** argv) {
  absl::StatusOr<CommandLine> cl = ParseCommandLine(argc, argv);
  if (!cl.ok()) return UsageError(std::string(cl.status().message()));
  if (cl->command == "help") {
    std::cout << Usage();
    return 0;
  }
  std::string report = cl->Last("report", "");
  if (cl->Has("report") && !KnownReportExtension(report)) {
    return UsageError("--report takes FILE.md, FILE.xml or FILE.json");
  }
  if (cl->command == "gen") return Gen(*cl);
  std::vector<std::string> suts = cl->All("sut");
  std::vector<std::string> paths = cl->paths;
  if (cl->command == "replay") {
    if (suts.size() != 1) return UsageError("replay takes one --sut");
    if (paths.empty()) return UsageError("replay needs at least one PATH");
  } else {  // conformance
    if (suts.empty()) suts = {"model", "impl"};
    if (paths.empty()) {
#ifdef SCHEDTRACE_GOLDEN_DIR
      paths = {cl->Last("golden", SCHEDTRACE_GOLDEN_DIR)};
#else
      paths = {cl->Last("golden", "golden")};
#endif
    }
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
  options.properties = !cl->Has("no-properties");
  std::vector<SystemRun> runs;
  for (const std::string& sut : suts) {
    if (suts.size() > 1) std::cout << "== " << sut << "\n";
    runs.push_back(RunSystem(sut, *files, options, std::cout));
  }
  if (cl->command == "conformance") std::cout << "\n" << ConformanceTable(runs);
  absl::Status written =
      report.empty() ? absl::OkStatus() : WriteReport(report, runs);
  if (!written.ok()) std::cerr << "schedtrace: " << written.message() << "\n";
  std::cout << SummaryLine(runs) << std::endl;
  return written.ok() ? ExitStatus(runs) : 2;
}

}  // namespace
}  // namespace schedtrace::cli

int main(int argc, char** argv) { return schedtrace::cli::Main(argc, argv); }
