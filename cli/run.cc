#include "cli/run.h"

#include <chrono>
#include <iostream>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/explanation.h"
#include "cli/ordered_pool.h"
#include "cli/progress.h"
#include "cli/summary.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "core/codec.h"
#include "core/upstream_versions.h"
#include "properties/checker.h"
#include "run/interrupt.h"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

// One trace against a fresh system, with the known upstream violations it
// hit counted in its own map (traces may run on several threads).
struct OneRun {
  TraceRun trace;
  std::map<std::string, int> known_violations;
  std::vector<properties::Unchecked> not_checked;  // this trace's
  bool cut_short = false;  // an interrupt ended it: not a result
};

OneRun ReplayOne(const std::string& sut, const TraceFile& file,
                 const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  OneRun one;
  TraceRun& tr = one.trace;
  tr.result.path = file.path;
  tr.display = file.display;
  absl::StatusOr<Trace> trace = ReadTraceFile(file.path);
  if (!trace.ok()) {
    tr.upstream = file.upstream;
    tr.bad_input = true;
    tr.result.verdict = Verdict::kError;
    tr.result.name = file.name;
    tr.result.message = std::string(trace.status().message());
    tr.seconds = SecondsSince(start);
    return one;
  }
  OverrideUpstream(options.upstream, trace->header);
  tr.upstream = std::string(EffectiveUpstream(trace->header.upstream));
  absl::StatusOr<std::unique_ptr<System>> system = MakeSystem(sut);
  if (!system.ok()) {
    tr.result.verdict = Verdict::kError;
    tr.result.name = trace->header.name;
    tr.result.layer = trace->header.layer;
    tr.result.message = std::string(system.status().message());
  } else {
    ReplayOptions replay_options;
    replay_options.reports = ReportsOf(**system);
    if (options.properties) {
      // Each property whose inputs the system shows (properties/inputs.h).
      replay_options.check =
          properties::AsStepCheck(trace->header, &one.known_violations,
                                  properties::CheckMode::kIncremental,
                                  ReportsOf(**system), &one.not_checked);
    }
    // The failure's timeline (the HTML report), recorded by the run that
    // fails: it goes on to the trace's end for the journey after the
    // failure.
    std::optional<TimelineRecorder> timeline;
    if (options.explain_failures) {
      timeline.emplace(*trace,
                       ExplainOptionsFor(**system, sut, options.properties));
      replay_options.observer = &*timeline;
      replay_options.keep_going = true;
    }
    tr.result = Replay(**system, *trace, replay_options);
    tr.declared_upstream = DeclaredUpstream(**system).value_or("");
    if (timeline && Failed(tr) && !Interrupted()) {
      tr.timeline = timeline->Finish();
    }
  }
  tr.seconds = SecondsSince(start);
  // A child killed by the interrupt fails its trace; that is no verdict.
  one.cut_short = Interrupted() && tr.result.verdict != Verdict::kPassed &&
                  tr.result.verdict != Verdict::kSkipped;
  return one;
}

// What a child wrote may be any bytes (its stderr tail, a bad reply): the
// terminal gets them as visible, valid UTF-8 (run/text_sanitize.h), so
// no escape sequence or BEL acts on it.
void PrintTrace(const TraceRun& tr, bool quiet, std::ostream& out) {
  const std::string path = SanitizeLine(tr.result.path);
  switch (tr.result.verdict) {
    case Verdict::kPassed:
      if (!quiet) out << "PASS " << path << "\n";
      break;
    case Verdict::kSkipped:  // summarised per reason after the run
      break;
    case Verdict::kFailed:
      out << "FAIL " << path << "\n  "
          << SanitizeText(tr.result.divergence
                              ? tr.result.divergence->Format(tr.result.path)
                              : tr.result.message)
          << "\n";
      break;
    case Verdict::kError:
      out << "ERROR " << path << ": " << SanitizeText(tr.result.message)
          << "\n";
      break;
  }
}

}  // namespace

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

std::string NotCheckedText(const std::vector<properties::Unchecked>& list) {
  std::vector<std::string> items;
  for (const properties::Unchecked& u : list) {
    items.push_back(absl::StrCat(u.property, " (needs ",
                                 absl::StrJoin(u.needs, ", "), ")"));
  }
  return absl::StrJoin(items, ", ");
}

std::string DeclaredUpstreamLine(const SystemRun& run) {
  if (run.declared_upstreams.empty()) return "";
  return absl::StrCat(
      SanitizeLine(run.sut), " implements ",
      SanitizeLine(absl::StrJoin(run.declared_upstreams, " and ")),
      run.declared_upstreams.size() > 1
          ? " (its header replies differ between traces)\n"
          : " (its header reply)\n");
}

bool Failed(const TraceRun& trace) {
  return trace.result.verdict == Verdict::kFailed ||
         trace.result.verdict == Verdict::kError;
}

SystemRun RunSystem(const std::string& sut, const std::vector<TraceFile>& files,
                    const RunOptions& options, std::ostream& out) {
  const auto start = std::chrono::steady_clock::now();
  SystemRun run;
  run.sut = sut;
  run.upstream_override = options.upstream;
  Progress progress(options.progress, sut, files.size());
  std::map<int, std::set<std::string>> not_checked;  // over all traces
  std::set<std::string> declared;
  RunOrdered<OneRun>(
      files.size(), options.jobs,
      [&](size_t i) { return ReplayOne(sut, files[i], options); },
      [&](size_t, OneRun& one) {
        if (one.cut_short) return false;
        progress.Clear();
        PrintTrace(one.trace, options.quiet || !options.pass_lines, out);
        out.flush();
        const bool failed = Failed(one.trace);
        progress.Done(failed);
        for (const auto& [id, n] : one.known_violations) {
          run.known_violations[id] += n;
        }
        for (properties::Unchecked& u : one.not_checked) {
          not_checked[u.property].insert(u.needs.begin(), u.needs.end());
        }
        if (!one.trace.declared_upstream.empty()) {
          declared.insert(one.trace.declared_upstream);
        }
        run.traces.push_back(std::move(one.trace));
        return !(failed && options.fail_fast) && !Interrupted();
      },
      [] { return !Interrupted(); });
  progress.Clear();
  run.interrupted = Interrupted();
  run.seconds = SecondsSince(start);
  for (const auto& [id, needs] : not_checked) {
    run.properties_not_checked.push_back(
        {id, std::vector<std::string>(needs.begin(), needs.end())});
  }
  run.declared_upstreams.assign(declared.begin(), declared.end());
  out << DeclaredUpstreamLine(run);
  out << SkipSummary(run);
  out << VersionSplitHint(run);
  out << RefusalsSaved(sut);
  if (int n = run.ComparisonsSkipped(); n > 0) {
    out << sut << ": " << n
        << " state comparisons skipped (parts the system does not report)\n";
  }
  if (!run.properties_not_checked.empty()) {
    out << "properties not checked on " << SanitizeLine(sut) << ": "
        << NotCheckedText(run.properties_not_checked) << "\n";
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
  if (Interrupted()) return 128 + InterruptSignal();
  int status = kExitNothingRan;
  for (const SystemRun& r : runs) {
    if (r.BadInputs() > 0) return kExitBadInput;
    if (r.Count(Verdict::kFailed) + r.Count(Verdict::kError) > 0) {
      status = kExitFailed;
    } else if (status == kExitNothingRan && r.Count(Verdict::kPassed) > 0) {
      status = kExitOk;
    }
  }
  return status;
}

}  // namespace schedtrace::cli
