// schedtrace diff: two systems side by side (harness/differential.h), on
// given traces or on generated ones; every property checked on both.
//
//   schedtrace diff --a=model --b=impl golden/
//   schedtrace diff --a=model --b=impl --layer=queue --count=300 --seed=1
//
// One line per trace, then `N passed, M failed[, K skipped]`. A disagreement
// prints the first divergent step with both sides and writes the trace to
// --out-dir (default diff-failures/); with --minimize, MinimizeDisagreement
// shrinks it too. Known upstream violations are counted on stderr.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/cli/command.h"
#include "harness/cli/flags.h"
#include "harness/cli/suts.h"
#include "harness/codec.h"
#include "harness/differential.h"
#include "harness/generator.h"
#include "harness/minimize.h"
#include "harness/trace_files.h"
#include "properties/checker.h"

namespace schedtrace::cli {
namespace {

// How a differential run fails, coarse enough to survive shrinking
// (harness/minimize.h FailureSignature), with the side whose check fired.
std::optional<std::string> DiffSignature(const DiffResult& r) {
  std::optional<std::string> sig =
      FailureSignature(r.verdict, r.divergence, r.message);
  if (sig && !r.side.empty()) *sig = absl::StrCat(r.side, " ", *sig);
  return sig;
}

// The hook for delta debugging (`--minimize`): shrinks a trace on which
// systems `a` and `b` disagree (harness/minimize.h) to a small one that
// disagrees the same way, writes it next to `path` as *.min.jsonl with a's
// expectations, and returns its path ("" when nothing was written).
std::string MinimizeDisagreement(const std::string& a, const std::string& b,
                                 const DiffOptions& options, const Trace& trace,
                                 const std::string& path) {
  FailureOf failure = [&](const Trace& t) -> std::optional<std::string> {
    absl::StatusOr<std::unique_ptr<System>> sa = MakeSystem(a);
    absl::StatusOr<std::unique_ptr<System>> sb = MakeSystem(b);
    if (!sa.ok() || !sb.ok()) return std::nullopt;
    DiffOptions o = options;
    o.reports = ReportsOf(**sb);
    o.check_b = ReportsAllState(**sb);
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
  return file ? absl::StrCat(out, " (", small.steps.size(), " steps, ",
                             m->signature, ")")
              : "";
}

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
  bool bad_input = false;
  std::map<std::string, int> known_a, known_b;
};

std::string FileNameFor(const Trace& trace) {
  std::string name = trace.header.name.empty() ? "trace" : trace.header.name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.')
      c = '_';
  }
  return name + ".jsonl";
}

void RunOne(const CommandLine& cl, System& a, System& b, const Trace& trace,
            Tally& tally) {
  const std::string a_name = cl.Last("a", ""), b_name = cl.Last("b", "");
  DiffOptions options;
  int side = 0;  // make_check is called for a, then for b
  // Hostile input may break invariants upstream keeps only on valid input:
  // there the systems must merely agree.
  if (!cl.Has("no-properties") && !cl.Has("hostile")) {
    options.make_check = [&](const TraceHeader& h) {
      return properties::AsStepCheck(
          h, side++ % 2 == 0 ? &tally.known_a : &tally.known_b);
    };
  }
  options.reports = ReportsOf(b);
  options.check_b = ReportsAllState(b);
  DiffResult r = RunDifferential(a, b, trace, options);
  const std::string label = trace.path.empty() ? trace.header.name : trace.path;
  switch (r.verdict) {
    case Verdict::kPassed:
      ++tally.passed;
      std::cout << "PASS " << label << "\n";
      return;
    case Verdict::kSkipped:
      ++tally.skipped;
      std::cout << "SKIP " << label << ": " << (r.side == "a" ? a_name : b_name)
                << ": " << r.message << "\n";
      return;
    case Verdict::kError:
    case Verdict::kFailed:
      break;
  }
  ++tally.failed;
  std::cout << VerdictName(r.verdict) << " " << label << "\n  "
            << r.Format(a_name, b_name) << "\n";
  std::string path = trace.path;  // a trace read from a file stays there
  if (path.empty() || cl.Has("out-dir")) {
    const std::string dir = cl.Last("out-dir", "diff-failures");
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    path = std::filesystem::path(dir) / FileNameFor(trace);
    std::ofstream out(path);
    out << EncodeTrace(trace);
    if (!out) {
      std::cout << "  (could not write " << path << ")\n";
      return;
    }
    std::cout << "  trace written to " << path << "\n";
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
  if (!smaller.empty()) std::cout << "  minimized: " << smaller << "\n";
}

int Diff(const CommandLine& cl) {
  if (!cl.Has("a") || !cl.Has("b")) return UsageError("diff needs --a and --b");
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  absl::StatusOr<std::unique_ptr<System>> a = MakeSystem(cl.Last("a", ""));
  if (!a.ok()) return UsageError(std::string(a.status().message()));
  absl::StatusOr<std::unique_ptr<System>> b = MakeSystem(cl.Last("b", ""));
  if (!b.ok()) return UsageError(std::string(b.status().message()));
  Tally tally;
  const bool generate = cl.Has("layer") || cl.Has("count");
  if (generate == !cl.paths.empty()) {
    return UsageError(
        "diff takes either PATH... or --layer=L --count=N (not both)");
  }
  if (generate) {
    const std::optional<Layer> layer = LayerFromName(cl.Last("layer", ""));
    if (!layer) return UsageError("diff: --layer=queue, cache or scheduler");
    int count = 0;
    GenOptions gen;
    if (!absl::SimpleAtoi(cl.Last("count", "100"), &count) || count < 0 ||
        !absl::SimpleAtoi(cl.Last("seed", "1"), &gen.seed) ||
        !absl::SimpleAtoi(cl.Last("steps", "60"), &gen.steps) ||
        gen.steps < 0) {
      return UsageError("diff: --count, --seed and --steps take whole numbers");
    }
    absl::StatusOr<Perturbations> perturb =
        ParsePerturbations(cl.Last("perturb", ""));
    if (!perturb.ok()) {
      return UsageError(std::string(perturb.status().message()));
    }
    gen.perturb = *perturb;
    gen.hostile = cl.Has("hostile");
    absl::StatusOr<std::unique_ptr<System>> recorder =
        MakeSystem(cl.Last("gen-sut", "model"));
    if (!recorder.ok()) {
      return UsageError(std::string(recorder.status().message()));
    }
    const uint64_t first = gen.seed;
    for (int k = 0; k < count; ++k) {
      gen.seed = first + static_cast<uint64_t>(k);
      absl::StatusOr<Trace> trace = GenerateTrace(*layer, **recorder, gen);
      if (!trace.ok()) {
        ++tally.failed;
        std::cout << "ERROR seed " << gen.seed << ": " << trace.status()
                  << "\n";
        continue;
      }
      RunOne(cl, **a, **b, *trace, tally);
    }
  } else {
    absl::StatusOr<std::vector<std::string>> files = FindTraceFiles(cl.paths);
    if (!files.ok()) return UsageError(std::string(files.status().message()));
    if (files->empty())
      return UsageError("no *.jsonl trace under the given PATH");
    for (const std::string& file : *files) {
      absl::StatusOr<Trace> trace = ReadTraceFile(file);
      if (!trace.ok()) {
        ++tally.failed;
        tally.bad_input = true;
        std::cout << "ERROR " << file << ": " << trace.status().message()
                  << "\n";
        continue;
      }
      RunOne(cl, **a, **b, *trace, tally);
    }
  }
  for (const auto& [label, known] :
       {std::pair{cl.Last("a", ""), &tally.known_a},
        std::pair{cl.Last("b", ""), &tally.known_b}}) {
    for (const auto& [id, n] : *known) {
      std::cerr << "known upstream violation " << id << " (" << label
                << "): " << n << "\n";
    }
  }
  std::cout << tally.passed << " passed, " << tally.failed << " failed";
  if (tally.skipped > 0) std::cout << ", " << tally.skipped << " skipped";
  std::cout << "\n";
  if (tally.bad_input) return 2;
  return tally.failed > 0 ? 1 : 0;
}

const CommandRegistrar kDiff({
    .name = "diff",
    .order = 35,
    .synopsis = "--a=S --b=S (PATH... | --layer=L --count=N [--seed=N] "
                "[--steps=K] [--perturb=...] [--hostile]) [--out-dir=DIR]",
    .summary = "run two systems side by side and report where they first "
               "disagree (every property checked on both)",
    .flags =
        {{"a", "the first system (model, impl, exec:CMD)"},
         {"b", "the second system"},
         {"layer",
          "generate traces of this layer: queue, cache or "
          "scheduler"},
         {"count", "how many traces to generate (default 100)"},
         {"seed",
          "the first generated trace's seed (default 1); trace "
          "k uses seed+k"},
         {"steps", "steps per generated trace (default 60)"},
         {"perturb", "informer perturbations, as for gen"},
         {.name = "hostile",
          .help = "generate hostile sequences, as for gen; properties are not "
                  "checked on them, the systems must only agree",
          .boolean = true},
         {.name = "no-properties",
          .help = "compare only, check no property",
          .boolean = true},
         {.name = "minimize",
          .help =
              "shrink each disagreeing trace (harness/minimize.h) and write "
              "it next to the trace as *.min.jsonl",
          .boolean = true},
         {"gen-sut", "the system that drives generation (default model)"},
         {"out-dir",
          "where disagreeing generated traces are written "
          "(default diff-failures)"},
         kTimeoutFlag},
    .run = &Diff,
});

}  // namespace
}  // namespace schedtrace::cli
