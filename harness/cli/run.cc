#include "harness/cli/run.h"

#include <unistd.h>

#include <iostream>

#include "absl/strings/str_cat.h"
#include "harness/cli/suts.h"
#include "harness/codec.h"
#include "properties/checker.h"

namespace schedtrace::cli {

int SystemRun::Count(Verdict v) const {
  int n = 0;
  for (const TraceRun& t : traces) n += t.result.verdict == v;
  return n;
}

int SystemRun::BadInputs() const {
  int n = 0;
  for (const TraceRun& t : traces) n += t.bad_input;
  return n;
}

int SystemRun::ComparisonsSkipped() const {
  int n = 0;
  for (const TraceRun& t : traces) n += t.result.comparisons_skipped;
  return n;
}

SystemRun RunSystem(const std::string& sut,
                    const std::vector<std::string>& files,
                    const RunOptions& options, std::ostream& out) {
  SystemRun run;
  run.sut = sut;
  const bool progress = isatty(STDERR_FILENO);
  int done = 0;
  for (const std::string& path : files) {
    if (progress) {
      std::cerr << "\r" << sut << ": " << ++done << "/" << files.size()
                << std::flush;
    }
    TraceRun tr;
    tr.result.path = path;
    absl::StatusOr<Trace> trace = ReadTraceFile(path);
    if (!trace.ok()) {
      tr.bad_input = true;
      tr.result.verdict = Verdict::kError;
      tr.result.message = std::string(trace.status().message());
      out << "ERROR " << path << ": " << tr.result.message << "\n";
      run.traces.push_back(std::move(tr));
      continue;
    }
    absl::StatusOr<std::unique_ptr<System>> system = MakeSystem(sut);
    if (!system.ok()) {
      tr.result.verdict = Verdict::kError;
      tr.result.message = std::string(system.status().message());
    } else {
      ReplayOptions replay_options;
      replay_options.reports = ReportsOf(**system);
      if (options.properties) {
        StepCheck check =
            properties::AsStepCheck(trace->header, &run.known_violations);
        System* s = system->get();
        replay_options.check = [check, s](const State& before, const Step& step,
                                          const StepOut& o,
                                          const State& after) {
          return ReportsAllState(*s) ? check(before, step, o, after) : "";
        };
      }
      tr.result = Replay(**system, *trace, replay_options);
    }
    switch (tr.result.verdict) {
      case Verdict::kPassed:
        out << "PASS " << path << "\n";
        break;
      case Verdict::kSkipped:
        out << "SKIP " << path << ": " << tr.result.message << "\n";
        break;
      case Verdict::kFailed:
        out << "FAIL " << path << "\n  "
            << (tr.result.divergence ? tr.result.divergence->Format(path)
                                     : tr.result.message)
            << "\n";
        break;
      case Verdict::kError:
        out << "ERROR " << path << ": " << tr.result.message << "\n";
        break;
    }
    run.traces.push_back(std::move(tr));
  }
  if (progress) std::cerr << "\r\033[K" << std::flush;
  if (int n = run.ComparisonsSkipped(); n > 0) {
    out << sut << ": " << n
        << " state comparisons skipped (parts the system does not report)\n";
  }
  return run;
}

std::string SummaryLine(const std::vector<SystemRun>& runs) {
  int passed = 0, failed = 0, skipped = 0;
  for (const SystemRun& r : runs) {
    passed += r.Count(Verdict::kPassed);
    failed += r.Count(Verdict::kFailed) + r.Count(Verdict::kError);
    skipped += r.Count(Verdict::kSkipped);
  }
  std::string line = absl::StrCat(passed, " passed, ", failed, " failed");
  if (skipped > 0) absl::StrAppend(&line, ", ", skipped, " skipped");
  return line;
}

int ExitStatus(const std::vector<SystemRun>& runs) {
  int status = 0;
  for (const SystemRun& r : runs) {
    if (r.BadInputs() > 0) return 2;
    if (r.Count(Verdict::kFailed) + r.Count(Verdict::kError) > 0) status = 1;
  }
  return status;
}

}  // namespace schedtrace::cli
