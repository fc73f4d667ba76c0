// schedtrace minimize: delta-debugs a failing trace down to a small one that
// fails the same way (run/minimize.h), and writes it as a regression
// trace.
//
// With --against=R the candidate traces are replayed on S and R side by side
// and fail when S diverges from R (or breaks a property, or errs) the way
// the original did; the written trace carries R's expectations. Without it,
// a failure that needs no expectations (a property violation, a system
// error) is shrunk on S alone; a divergence from the trace's recorded
// expectations is shrunk against the model (expectations recorded for the
// whole trace no longer hold once steps are gone).
//
// With --out=FILE.jsonl it also writes FILE.explain.txt beside it: the
// minimized trace's timeline on S, every step (run/timeline.h, what
// `schedtrace explain --all` prints), so a CI artifact reads without
// running anything. On stdout (no --out) only the trace is written.
#include <fstream>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "cli/command.h"
#include "cli/explanation.h"
#include "cli/flags.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "core/codec.h"
#include "properties/checker.h"
#include "run/differential.h"
#include "run/minimize.h"
#include "run/timeline.h"

namespace schedtrace::cli {
namespace {

struct Setup {
  std::string sut;
  std::string against;  // "" = S alone
  bool properties = true;
};

// How `trace` fails under `setup`, or nullopt.
std::optional<std::string> FailureUnder(const Setup& setup,
                                        const Trace& trace) {
  absl::StatusOr<std::unique_ptr<System>> sut = MakeSystem(setup.sut);
  if (!sut.ok()) return std::nullopt;
  ReplayOptions options;
  options.reports = ReportsOf(**sut);
  if (setup.properties) {
    // Each property whose inputs the system shows (properties/inputs.h).
    options.check = properties::AsStepCheck(trace.header, nullptr,
                                            properties::CheckMode::kIncremental,
                                            ReportsOf(**sut));
  }
  if (setup.against.empty()) {
    return FailureSignature(Replay(**sut, trace, options));
  }
  absl::StatusOr<std::unique_ptr<System>> ref = MakeSystem(setup.against);
  if (!ref.ok()) return std::nullopt;
  // The reference's out and state are the expectations, step by step.
  DiffOptions diff;
  diff.reports = options.reports;
  if (setup.properties) {
    // Called for the reference, then for the system: each checked on what
    // it shows.
    System* sides[] = {ref->get(), sut->get()};
    diff.make_check = [sides, n = 0](const TraceHeader& h) mutable {
      return properties::AsStepCheck(h, nullptr,
                                     properties::CheckMode::kIncremental,
                                     ReportsOf(*sides[n++ % 2]));
    };
  }
  DiffResult r = RunDifferential(**ref, **sut, trace, diff);
  return FailureSignature(r.verdict, r.divergence, r.message);
}

// Whether the trace at `path` fails at all under `setup`, and against what
// to shrink it: a divergence from its recorded expectations only is shrunk
// against model (`setup->against` set). An exit status when there is
// nothing to do.
std::optional<int> ChooseReference(Setup* setup, const Trace& trace,
                                   const std::string& path) {
  // Does it fail at all, with its own expectations?
  std::optional<std::string> recorded_failure;
  {
    Setup alone = *setup;
    alone.against = "";
    recorded_failure = FailureUnder(alone, trace);
  }
  if (!setup->against.empty()) return std::nullopt;
  Trace bare = trace;
  for (Step& s : bare.steps) s.expect = nullptr;
  if (FailureUnder(*setup, bare)) return std::nullopt;
  if (!recorded_failure) {
    std::cerr << "schedtrace minimize: " << path << " passes on " << setup->sut
              << ": nothing to minimize\n";
    return 1;
  }
  if (setup->sut == "model") {
    std::cerr << "schedtrace minimize: " << path
              << " fails on model only against its recorded "
                 "expectations; give --against=S to shrink against\n";
    return 1;
  }
  setup->against = "model";
  std::cerr << "schedtrace minimize: shrinking against model (the "
               "trace's own expectations do not survive shrinking)\n";
  return std::nullopt;
}

// Writes the minimized trace `m` of `trace` (read from `path`) to --out
// (with its explanation beside it) or stdout, and says what it did.
int WriteMinimized(const CommandLine& cl, const Setup& setup,
                   const std::string& path, const Trace& trace,
                   const MinimizeResult& m) {
  // The regression trace carries the reference's expectations (or S's own
  // when there is none: its failure needs no expectations).
  absl::StatusOr<std::unique_ptr<System>> recorder =
      MakeSystem(setup.against.empty() ? setup.sut : setup.against);
  Trace out = WithExpectationsFrom(**recorder, m.trace);
  out.header.source = "regression";
  out.header.name = absl::StrCat(trace.header.name, "-min");
  out.header.description = absl::StrCat(
      "minimized by schedtrace minimize from ", path, " (", trace.steps.size(),
      " steps) on ", setup.sut,
      setup.against.empty() ? "" : absl::StrCat(" against ", setup.against),
      ": ", m.signature);
  std::string text = EncodeTrace(out);
  std::string explanation;  // the .explain.txt written beside --out
  if (cl.Has("out")) {
    const std::string out_path = cl.Last("out", "");
    std::ofstream f(out_path);
    f << text;
    f.close();
    if (!f) {
      std::cerr << "schedtrace minimize: cannot write " << out_path << "\n";
      return 2;
    }
    std::string why;
    explanation = WriteExplanation(setup.sut, out_path, setup.properties, &why);
    if (explanation.empty()) {
      std::cerr << "schedtrace minimize: no explanation written: " << why
                << "\n";
    }
  } else {
    std::cout << text;
  }
  std::cerr << "minimized " << path << " from " << trace.steps.size() << " to "
            << out.steps.size() << " steps in " << m.runs
            << " runs: " << m.signature << "\n";
  if (!explanation.empty()) {
    std::cerr << "explained in " << explanation << "\n";
  }
  return 0;
}

int MinimizeCommand(const CommandLine& cl) {
  if (cl.paths.size() != 1) return UsageError("minimize takes one TRACE");
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  Setup setup;
  setup.sut = cl.Last("sut", "");
  setup.against = cl.Last("against", "");
  setup.properties = !cl.Has("no-properties");
  for (const std::string& name : {setup.sut, setup.against}) {
    if (name.empty()) continue;
    if (auto s = MakeSystem(name); !s.ok()) {
      return UsageError(std::string(s.status().message()));
    }
  }
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  absl::StatusOr<Trace> trace = ReadTraceFile(cl.paths[0]);
  if (!trace.ok()) {
    std::cerr << "schedtrace minimize: " << trace.status().message() << "\n";
    return 2;
  }
  // The small trace names the version it was shrunk on.
  OverrideUpstream(*upstream, trace->header);
  if (std::optional<int> status =
          ChooseReference(&setup, *trace, cl.paths[0])) {
    return *status;
  }
  FailureOf failure = [&setup](const Trace& t) {
    return FailureUnder(setup, t);
  };
  absl::StatusOr<MinimizeResult> m = Minimize(*trace, failure);
  if (!m.ok()) {
    std::cerr << "schedtrace minimize: " << m.status().message()
              << (setup.against.empty()
                      ? ""
                      : absl::StrCat(" (", setup.sut, " agrees with ",
                                     setup.against, ")"))
              << "\n";
    return 1;
  }
  return WriteMinimized(cl, setup, cl.paths[0], *trace, *m);
}

const CommandRegistrar kMinimize({
    .name = "minimize",
    .order = 50,
    .synopsis = "--sut=S [--against=R] [--out=FILE] [--no-properties] "
                "[--upstream=V] TRACE",
    .summary = "delta-debug a failing trace to a small one that fails the "
               "same way; writes it as a regression trace",
    .flags = {{.name = "sut",
               .help = "the system the trace fails on",
               .required = true},
              {"against",
               "the reference to compare with while shrinking (default: S "
               "alone, or model for a divergence from recorded "
               "expectations); its expectations are written"},
              {"out",
               "write the small trace there instead of stdout, and beside it "
               "its explanation (FILE.jsonl -> FILE.explain.txt, what "
               "explain --all prints)"},
              {.name = "no-properties",
               .help = "do not check the invariants",
               .boolean = true},
              {kUpstreamFlag.name,
               kUpstreamFlag.help + "; the small trace names it"},
              kTimeoutFlag},
    .run = &MinimizeCommand,
});

}  // namespace
}  // namespace schedtrace::cli
