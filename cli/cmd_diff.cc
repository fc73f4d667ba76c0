// schedtrace diff: two systems side by side (run/differential.h), on
// given traces or on generated ones; every property checked on both.
//
//   schedtrace diff --a=model --b=impl golden/
//   schedtrace diff --a=model --b=impl --layer=queue --count=300 --seed=1
//
// One line per trace, then `N passed, M failed[, K skipped]`. A disagreement
// prints the first divergent step with both sides and writes the trace to
// --out-dir (default .schedtrace/diff-failures/, which git ignores); with
// --minimize, MinimizeDisagreement shrinks it too and explains the small trace
// beside it. Known upstream violations are counted on stderr.
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/command.h"
#include "cli/explanation.h"
#include "cli/flags.h"
#include "cli/gen_flags.h"
#include "cli/ordered_pool.h"
#include "cli/progress.h"
#include "cli/run.h"
#include "cli/run_flags.h"
#include "cli/run_tally.h"
#include "cli/summary.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "cli/work_dir.h"
#include "core/codec.h"
#include "properties/checker.h"
#include "run/differential.h"
#include "run/generator.h"
#include "run/interrupt.h"
#include "run/minimize.h"
#include "run/text_sanitize.h"
#include "run/timeline.h"

namespace schedtrace::cli {
namespace {

// How a differential run fails, coarse enough to survive shrinking
// (run/minimize.h FailureSignature), with the side whose check fired.
std::optional<std::string> DiffSignature(const DiffResult& r) {
  std::optional<std::string> sig =
      FailureSignature(r.verdict, r.divergence, r.message);
  if (sig && !r.side.empty()) *sig = absl::StrCat(r.side, " ", *sig);
  return sig;
}

// The hook for delta debugging (`--minimize`): shrinks a trace on which
// systems `a` and `b` disagree (run/minimize.h) to a small one that
// disagrees the same way, writes it next to `path` as *.min.jsonl with a's
// expectations and, beside it, *.min.explain.txt (cli/explanation.h: the
// small trace explained on b, or on a when a broke a property), and returns
// its path ("" when nothing was written).
std::string MinimizeDisagreement(const std::string& a, const std::string& b,
                                 const DiffOptions& options, const Trace& trace,
                                 const std::string& path) {
  FailureOf failure = [&](const Trace& t) -> std::optional<std::string> {
    absl::StatusOr<std::unique_ptr<System>> sa = MakeSystem(a);
    absl::StatusOr<std::unique_ptr<System>> sb = MakeSystem(b);
    if (!sa.ok() || !sb.ok()) return std::nullopt;
    DiffOptions o = options;
    o.reports = ReportsOf(**sb);
    if (options.make_check) {
      // Called for a, then for b: each checked on what it shows.
      System* sides[] = {sa->get(), sb->get()};
      o.make_check = [sides, n = 0](const TraceHeader& h) mutable {
        return properties::AsStepCheck(h, nullptr,
                                       properties::CheckMode::kIncremental,
                                       ReportsOf(*sides[n++ % 2]));
      };
    }
    return DiffSignature(RunDifferential(**sa, **sb, t, o));
  };
  absl::StatusOr<MinimizeResult> m = Minimize(trace, failure);
  if (!m.ok()) return "";
  absl::StatusOr<std::unique_ptr<System>> recorder = MakeSystem(a);
  if (!recorder.ok()) return "";
  Trace small = WithExpectationsFrom(**recorder, m->trace);
  small.header.source = "regression";
  std::string out = path;
  if (out.size() > 6 && out.ends_with(".jsonl")) out.resize(out.size() - 6);
  out += ".min.jsonl";
  std::ofstream file(out);
  file << EncodeTrace(small);
  file.close();
  if (!file) return "";
  // Beside it, its timeline (run/timeline.h): a's expectations against
  // what b does, readable without running anything; on a itself when the
  // failure is a's (a property a violates).
  const bool a_failed = m->signature.rfind("a ", 0) == 0;
  std::string explained;
  const std::string path_explained =
      WriteExplanation(a_failed ? a : b, out, options.make_check != nullptr);
  if (!path_explained.empty()) {
    explained = absl::StrCat(", explained in ", path_explained);
  }
  return absl::StrCat(out, " (", small.steps.size(), " steps, ", m->signature,
                      ")", explained);
}

std::string FileNameFor(const Trace& trace) {
  std::string name = trace.header.name.empty() ? "trace" : trace.header.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
      c = '_';
  }
  return name + ".jsonl";
}

// One trace through both systems: what it printed, and what it counted.
struct DiffRun {
  Verdict verdict = Verdict::kPassed;
  bool bad_input = false;
  bool cut_short = false;         // an interrupt killed a child: not a result
  bool kept_in_work_dir = false;  // its trace written to .schedtrace/
  std::optional<TraceMode> mode;  // its mode, in a mixed run
  std::string path;               // the trace file ("" for a generated trace)
  std::string text;               // its lines, printed in trace order
  std::map<std::string, int> known_a, known_b;
};

// Runs `trace` on fresh systems a and b (each task has its own, so traces
// can run in parallel) and writes what a serial run prints into r.text.
void RunOne(const CommandLine& cl, const Trace& trace, DiffRun& r) {
  const std::string a_name = cl.Last("a", ""), b_name = cl.Last("b", "");
  absl::StatusOr<std::unique_ptr<System>> a = MakeSystem(a_name);
  absl::StatusOr<std::unique_ptr<System>> b = MakeSystem(b_name);
  const std::string label = trace.path.empty() ? trace.header.name : trace.path;
  if (!a.ok() || !b.ok()) {  // the names were checked before the run
    r.verdict = Verdict::kError;
    r.text = absl::StrCat("ERROR ", label, ": cannot make the systems\n");
    return;
  }
  DiffOptions options;
  int side = 0;  // make_check is called for a, then for b
  // Hostile input too: what upstream itself violates on it is registered
  // (properties/known_violations.h) and counted, anything else fails.
  // Each side is checked on what it shows (properties/inputs.h).
  if (!cl.Has("no-properties")) {
    options.make_check = [&](const TraceHeader& h) {
      const bool is_a = side++ % 2 == 0;
      return properties::AsStepCheck(h, is_a ? &r.known_a : &r.known_b,
                                     properties::CheckMode::kIncremental,
                                     ReportsOf(is_a ? **a : **b));
    };
  }
  options.reports = ReportsOf(**b);
  DiffResult d = RunDifferential(**a, **b, trace, options);
  r.verdict = d.verdict;
  r.cut_short = Interrupted() &&
                (d.verdict == Verdict::kFailed || d.verdict == Verdict::kError);
  switch (d.verdict) {
    case Verdict::kPassed:
      if (!cl.Has("quiet")) r.text = absl::StrCat("PASS ", label, "\n");
      return;
    case Verdict::kSkipped:
      if (!cl.Has("quiet")) {
        r.text =
            absl::StrCat("SKIP ", label, ": ", d.side == "a" ? a_name : b_name,
                         ": ", d.message, "\n");
      }
      return;
    case Verdict::kError:
    case Verdict::kFailed:
      break;
  }
  if (r.cut_short) return;
  r.text +=
      absl::StrCat(std::string(VerdictName(d.verdict)), " ", label, "\n  ");
  r.text += d.Format(a_name, b_name) + "\n";
  std::string path = trace.path;  // a trace read from a file stays there
  if (path.empty() || cl.Has("out-dir")) {
    // Only where asked (--out-dir), else in .schedtrace/, which git ignores
    // (cli/work_dir.h); the run's end says where on stderr.
    std::string dir = cl.Last("out-dir", "");
    if (dir.empty()) {
      absl::StatusOr<std::string> work = EnsureWorkDir("diff-failures");
      if (!work.ok()) {
        absl::StrAppend(&r.text, "  (", work.status().message(), ")\n");
        return;
      }
      dir = *work;
      r.kept_in_work_dir = true;
    } else {
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
    }
    path = std::filesystem::path(dir) / FileNameFor(trace);
    std::ofstream out(path);
    out << EncodeTrace(trace);
    if (!out) {
      absl::StrAppend(&r.text, "  (could not write ", path, ")\n");
      return;
    }
    absl::StrAppend(&r.text, "  trace written to ", path, "\n");
  }
  if (!cl.Has("minimize")) return;
  DiffOptions quiet;  // the same checks, counting nothing
  if (options.make_check) {
    quiet.make_check = [](const TraceHeader& h) {
      return properties::AsStepCheck(h, nullptr);
    };
  }
  std::string smaller =
      MinimizeDisagreement(a_name, b_name, quiet, trace, path);
  if (!smaller.empty())
    absl::StrAppend(&r.text, "  minimized: ", smaller, "\n");
}

bool IsExec(const std::string& sut) { return sut.rfind("exec:", 0) == 0; }

// What a diff run goes through: trace files, or seeds to generate from.
struct DiffPlan {
  bool generate = false;
  std::vector<TraceFile> files;  // !generate
  std::optional<Layer> layer;    // generate
  int count = 0;
  GenOptions gen;
  // No --plain, --perturb or --hostile: the traces mix the three modes
  // (MixedTraceMode, run/gen_options.h).
  bool mixed = false;
  std::string gen_sut;
  // --upstream: the version every trace file runs as, or the one each
  // generated trace names.
  std::optional<std::string> upstream;
  size_t size() const {
    return generate ? static_cast<size_t>(count) : files.size();
  }
};

// Fills `plan` from the flags and paths; returns an exit code when the
// command ends here (a usage error, or --list).
std::optional<int> PlanDiff(const CommandLine& cl, DiffPlan& plan) {
  plan.generate = cl.paths.empty();
  plan.gen_sut = cl.Last("gen-sut", "model");
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  plan.upstream = *upstream;
  if (!plan.generate) {
    std::string flag = cl.Has("count")   ? "count"
                       : cl.Has("plain") ? "plain"
                                         : FirstGenFlag(cl);
    if (!flag.empty()) {
      return UsageError(
          absl::StrCat("--", flag, " is for generated traces: give no PATH"));
    }
    absl::StatusOr<TraceChoice> choice = ChooseTraces(cl, cl.paths);
    if (!choice.ok()) {
      return UsageError(std::string(choice.status().message()));
    }
    if (cl.Has("list")) return ListTraces(*choice, std::cout);
    if (!choice->note.empty()) std::cout << choice->note << "\n";
    plan.files = std::move(choice->chosen);
    return std::nullopt;
  }
  if (!cl.Has("layer")) {
    return UsageError("diff takes PATH... or --layer=L [--count=N]");
  }
  for (const char* flag : {"filter", "last-failed", "list"}) {
    if (cl.Has(flag)) {
      return UsageError(
          absl::StrCat("--", flag, " chooses among trace files: give PATH"));
    }
  }
  plan.layer = LayerFromName(cl.Last("layer", ""));
  if (!plan.layer) return UsageError("diff: --layer=queue, cache or scheduler");
  if (!absl::SimpleAtoi(cl.Last("count", "100"), &plan.count) ||
      plan.count < 0) {
    return UsageError(absl::StrCat("--count takes a whole number >= 0, not \"",
                                   cl.Last("count", ""), "\""));
  }
  absl::StatusOr<GenOptions> options = GenOptionsFromFlags(cl);
  if (!options.ok()) {
    return UsageError(std::string(options.status().message()));
  }
  plan.gen = *options;
  if (plan.upstream) plan.gen.upstream = *plan.upstream;
  if (cl.Has("plain") && (cl.Has("perturb") || cl.Has("hostile"))) {
    return UsageError("--plain takes neither --perturb nor --hostile");
  }
  plan.mixed = !cl.Has("plain") && !cl.Has("perturb") && !cl.Has("hostile");
  if (absl::StatusOr<std::unique_ptr<System>> s = MakeSystem(plan.gen_sut);
      !s.ok()) {
    return UsageError(std::string(s.status().message()));
  }
  return std::nullopt;
}

// The k-th trace of the plan: generated from seed gen.seed + k, or read.
DiffRun RunDiffTask(const CommandLine& cl, const DiffPlan& plan, size_t k) {
  DiffRun r;
  if (plan.generate) {
    GenOptions g = plan.gen;
    g.seed = plan.gen.seed + static_cast<uint64_t>(k);
    // One trace in four with 40 to 64 pods, unless --pods says
    // (CountRunOptions, run/gen_options.h).
    g = CountRunOptions(g, {.pods = cl.Has("pods"),
                            .queue_pool = cl.Has("queue-pool"),
                            .steps = cl.Has("steps")});
    if (plan.mixed) {
      r.mode = MixedTraceMode(g.seed);
      g = WithTraceMode(g, *r.mode);
    }
    absl::StatusOr<std::unique_ptr<System>> recorder = MakeSystem(plan.gen_sut);
    absl::StatusOr<Trace> trace =
        recorder.ok() ? GenerateTrace(*plan.layer, **recorder, g)
                      : absl::StatusOr<Trace>(recorder.status());
    // The recorder does not judge this layer of the version yet
    // (properties/judged_upstreams.h): nothing to generate, a skip.
    if (absl::IsUnimplemented(trace.status())) {
      r.verdict = Verdict::kSkipped;
      if (!cl.Has("quiet")) {
        r.text = absl::StrCat("SKIP seed ", g.seed, ": ",
                              trace.status().message(), "\n");
      }
      return r;
    }
    if (!trace.ok()) {
      r.verdict = Verdict::kError;
      r.cut_short = Interrupted();
      r.text = absl::StrCat("ERROR seed ", g.seed, ": ",
                            trace.status().message(), "\n");
      return r;
    }
    // A mixed run names each trace's mode, so that a failure says how to
    // generate it again (gen --seed=N, with --perturb=all:0.2 or --hostile).
    if (r.mode) {
      absl::StrAppend(&trace->header.name, " (",
                      std::string(TraceModeName(*r.mode)), ")");
    }
    RunOne(cl, *trace, r);
    return r;
  }
  r.path = plan.files[k].path;
  absl::StatusOr<Trace> trace = ReadTraceFile(plan.files[k].path);
  if (!trace.ok()) {
    r.verdict = Verdict::kError;
    r.bad_input = true;
    r.text = absl::StrCat("ERROR ", plan.files[k].path, ": ",
                          trace.status().message(), "\n");
    return r;
  }
  OverrideUpstream(plan.upstream, trace->header);
  RunOne(cl, *trace, r);
  return r;
}

// What the finished traces add up to, in input order.
struct DiffTotals {
  int passed = 0, failed = 0, skipped = 0;
  bool bad_input = false;
  bool kept_in_work_dir = false;
  std::map<TraceMode, int> modes;  // a mixed run's traces, by mode
  std::map<std::string, int> known_a, known_b;
  std::vector<std::pair<std::string, bool>> outcomes;  // for --last-failed

  // Counts one finished trace; returns whether the run goes on.
  bool Add(const CommandLine& cl, const DiffRun& r) {
    const bool bad =
        r.verdict == Verdict::kFailed || r.verdict == Verdict::kError;
    passed += r.verdict == Verdict::kPassed;
    skipped += r.verdict == Verdict::kSkipped;
    failed += bad;
    bad_input = bad_input || r.bad_input;
    kept_in_work_dir = kept_in_work_dir || r.kept_in_work_dir;
    if (r.mode) ++modes[*r.mode];
    for (const auto& [id, k] : r.known_a) known_a[id] += k;
    for (const auto& [id, k] : r.known_b) known_b[id] += k;
    if (!r.path.empty()) outcomes.emplace_back(r.path, bad);
    return !(bad && cl.Has("fail-fast")) && !Interrupted();
  }
};

// "generated: 34 plain, 33 perturbed (all:0.2), 33 hostile".
std::string MixText(const std::map<TraceMode, int>& modes) {
  std::vector<std::string> parts;
  for (const auto& [mode, n] : modes) {
    parts.push_back(absl::StrCat(n, " ", std::string(TraceModeName(mode))));
    if (mode == TraceMode::kPerturbed) {
      absl::StrAppend(&parts.back(), " (all:", kMixedPerturbation, ")");
    }
  }
  return absl::StrCat("generated: ", absl::StrJoin(parts, ", "));
}

// The run's closing lines and its exit status.
int FinishDiff(const DiffPlan& plan, const DiffTotals& t,
               const std::string& a_name, const std::string& b_name) {
  const size_t n = plan.size();
  if (!plan.generate) {
    if (n == 0) std::cout << "no trace selected: every one filtered out\n";
    if (absl::Status s = RecordLastFailed(t.outcomes); !s.ok()) {
      std::cerr << "schedtrace: " << s.message() << "\n";
    }
  }
  for (const auto& [label, known] :
       {std::pair{a_name, &t.known_a}, std::pair{b_name, &t.known_b}}) {
    if (known->empty()) continue;
    std::cerr << KnownViolationsLead(label) << ":\n";
    for (const auto& [id, k] : *known) {
      std::cerr << "  known upstream violation " << id << " (" << UpstreamOf(id)
                << "): " << k << " steps\n";
    }
  }
  for (const std::string& sut : {a_name, b_name})
    std::cout << RefusalsSaved(sut);
  if (t.kept_in_work_dir) {
    std::cerr << "schedtrace: disagreeing traces are kept in " << kWorkDir
              << "/diff-failures/ (git ignores " << kWorkDir
              << "/; --out-dir=DIR keeps them elsewhere)\n";
  }
  if (Interrupted()) {
    std::cout << "interrupted by "
              << (InterruptSignal() == SIGINT ? "SIGINT" : "SIGTERM") << ": "
              << t.passed + t.failed + t.skipped << " of " << n
              << " traces completed\n";
  }
  std::cout << t.passed << " passed, " << t.failed << " failed";
  if (t.skipped > 0) std::cout << ", " << t.skipped << " skipped";
  if (plan.mixed && !t.modes.empty())
    std::cout << " (" << MixText(t.modes) << ")";
  std::cout << "\n";
  if (Interrupted()) return 128 + InterruptSignal();
  if (t.bad_input) return kExitBadInput;
  if (t.failed > 0) return kExitFailed;
  return t.passed > 0 ? kExitOk : kExitNothingRan;
}

int Diff(const CommandLine& cl) {
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  const std::string a_name = cl.Last("a", ""), b_name = cl.Last("b", "");
  for (const std::string& name : {a_name, b_name}) {
    if (absl::StatusOr<std::unique_ptr<System>> s = MakeSystem(name); !s.ok()) {
      return UsageError(std::string(s.status().message()));
    }
  }
  absl::StatusOr<int> jobs = JobsFlag(cl, IsExec(a_name) || IsExec(b_name));
  if (!jobs.ok()) return UsageError(std::string(jobs.status().message()));
  DiffPlan plan;
  if (std::optional<int> exit = PlanDiff(cl, plan)) return *exit;

  const size_t n = plan.size();
  DiffTotals totals;
  Progress progress(isatty(STDERR_FILENO) != 0,
                    absl::StrCat(a_name, " vs ", b_name), n);
  RunOrdered<DiffRun>(
      n, *jobs, [&](size_t k) { return RunDiffTask(cl, plan, k); },
      [&](size_t, DiffRun& r) {
        if (r.cut_short) return false;
        progress.Clear();
        std::cout << SanitizeText(r.text) << std::flush;
        progress.Done(r.verdict == Verdict::kFailed ||
                      r.verdict == Verdict::kError);
        return totals.Add(cl, r);
      },
      [] { return !Interrupted(); });
  progress.Clear();
  return FinishDiff(plan, totals, a_name, b_name);
}

const CommandRegistrar kDiff({
    .name = "diff",
    .order = 35,
    .synopsis =
        "--a=S --b=S (PATH... [--filter=GLOB]... [--layer=L] "
        "[--last-failed] [--list] | --layer=L [--count=N] [--seed=N] "
        "[--steps=K] [--pods=N] [--queue-pool=N] [--plain | "
        "--perturb=... | --hostile] [...]) [--upstream=V] [-x] [-j N] [-q] "
        "[--out-dir=DIR] [--minimize]",
    .summary = "run two systems side by side and report where they first "
               "disagree (every property checked on both, on hostile traces "
               "too: upstream's own violations under hostile input are known "
               "ones, counted on stderr); generated traces take gen's "
               "generator flags",
    .flags = JoinFlags(
        {{{.name = "a",
           .help = "the first system (model, impl, exec:CMD, upstream:VERSION)",
           .required = true},
          {.name = "b", .help = "the second system", .required = true},
          {"layer",
           "with PATH: run only traces of this layer; without: generate "
           "traces of this layer (queue, cache or scheduler)"},
          {"count",
           "how many traces to generate (default 100); those whose seed is a "
           "multiple of 4 take 40 to 64 pods, all in the queue layer's pool, "
           "and at least 12 steps per pod, unless --pods is given "
           "(--queue-pool and --steps, given, keep their values)"}},
         GenFlagSpecs("the first generated trace's seed; trace k uses "
                      "seed+k"),
         {{.name = "plain",
           .help = "generate plain traces only; without --plain, --perturb or "
                   "--hostile, --count mixes plain, perturbed (every "
                   "perturbation at 0.2) and hostile traces, one in three "
                   "each (seed % 3: 1, 2, 0), and the closing line counts them",
           .boolean = true},
          {.name = "no-properties",
           .help = "compare only, check no property",
           .boolean = true},
          {.name = "minimize",
           .help =
               "shrink each disagreeing trace (run/minimize.h) and write "
               "it next to the trace as *.min.jsonl, with a's expectations, "
               "and beside it *.min.explain.txt, its explanation on b (what "
               "explain --all prints)",
           .boolean = true},
          {"upstream",
           "with PATH: run every trace as this upstream version (" +
               KnownUpstreamsText() +
               ") instead of its header's; without: the version each "
               "generated trace names (default " +
               std::string(kDefaultUpstream) + ")"},
          {"gen-sut", "the system that drives generation (default model)"},
          {"out-dir",
           "where disagreeing generated traces are written (default "
           ".schedtrace/diff-failures, which ignores itself in git)"},
          kTimeoutFlag,
          kFilterFlag,
          kFailFastFlag,
          kLastFailedFlag,
          kListFlag,
          kJobsFlag,
          kQuietFlag}}),
    .run = &Diff,
});

}  // namespace
}  // namespace schedtrace::cli
