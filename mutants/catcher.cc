#include "mutants/catcher.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/codec.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/checker.h"
#include "run/generator.h"
#include "run/trace_files.h"

namespace schedtrace::mutants {
namespace {

// Regression traces first (each pins one old bug), then handwritten, then
// the upstream recordings: a mutant is usually caught by the first group.
int Rank(const std::string& path) {
  if (path.find("/regression/") != std::string::npos) return 0;
  if (path.find("/handwritten/") != std::string::npos) return 1;
  return 2;
}

bool ImplHasLayer(Layer layer) {
  TraceHeader header;
  header.layer = layer;
  if (layer == Layer::kScheduler) header = SchedulerHeader("probe");
  if (layer == Layer::kQueue) header = QueueHeader("probe");
  std::unique_ptr<System> sut = impl::NewSystem();
  return !absl::IsUnimplemented(sut->Configure(header));
}

}  // namespace

std::unique_ptr<System> NewSystemOf(impl::PlantedIn system) {
  if (system == impl::PlantedIn::kModel) return model::NewSystem();
  return impl::NewSystem();
}

impl::PlantedIn ActiveMutantSystem() {
  return impl::Info(impl::ActiveMutant()).planted_in;
}

MutantCatcher::MutantCatcher(CatcherOptions options)
    : options_(std::move(options)) {}

absl::Status MutantCatcher::Load() {
  absl::StatusOr<std::vector<std::string>> files =
      FindTraceFiles({options_.golden_dir});
  if (!files.ok()) return files.status();
  std::vector<std::string> paths = *files;
  std::stable_sort(paths.begin(), paths.end(),
                   [](const std::string& a, const std::string& b) {
                     return Rank(a) < Rank(b);
                   });
  for (const std::string& path : paths) {
    absl::StatusOr<Trace> trace = ReadTraceFile(path);
    if (!trace.ok()) return trace.status();
    golden_.push_back({*std::move(trace), false});
  }
  return absl::OkStatus();
}

absl::Status MutantCatcher::LoadGenerated() {
  if (generated_loaded_) return absl::OkStatus();
  generated_loaded_ = true;
  // No mutant while recording: the generated net comes from the model as it
  // is, whichever mutant (maybe one planted in the model) is being judged
  // when it is first needed.
  ScopedMutant recording(impl::Mutant::kNone);
  // Valid traces of every layer impl implements, every other one with the
  // informer perturbations (resyncs, races, tombstones, re-creations), then
  // hostile ones (duplicate adds, unknown deletes, ...), which are compared
  // with the model but not held to the properties; last, a few valid ones
  // with large pools.
  const std::pair<Layer, const char*> kLayers[] = {
      {Layer::kQueue, "queue"},
      {Layer::kCache, "cache"},
      {Layer::kScheduler, "scheduler"}};
  for (bool hostile : {false, true}) {
    const int seeds = hostile ? options_.hostile_seeds : options_.valid_seeds;
    for (const auto& [layer, layer_name] : kLayers) {
      if (!ImplHasLayer(layer)) continue;
      for (int seed = 1; seed <= seeds; ++seed) {
        GenOptions gen{.seed = static_cast<uint64_t>(seed),
                       .steps = options_.steps};
        gen.hostile = hostile;
        if (!hostile && seed % 2 == 0) {
          gen.perturb = *ParsePerturbations("all:0.15");
        }
        std::unique_ptr<System> model = model::NewSystem();
        absl::StatusOr<Trace> trace = GenerateTrace(layer, *model, gen);
        if (!trace.ok()) return trace.status();
        trace->header.name =
            absl::StrCat("generated/", hostile ? "hostile/" : "", layer_name,
                         "/seed-", seed);
        generated_.push_back({*std::move(trace), hostile});
      }
    }
  }
  for (const auto& [layer, layer_name] : kLayers) {
    if (!ImplHasLayer(layer)) continue;
    for (int seed = 1; seed <= options_.large_seeds; ++seed) {
      std::unique_ptr<System> model = model::NewSystem();
      absl::StatusOr<Trace> trace = GenerateTrace(
          layer, *model, LargePoolOptions(static_cast<uint64_t>(seed)));
      if (!trace.ok()) return trace.status();
      trace->header.name =
          absl::StrCat("generated/large/", layer_name, "/seed-", seed);
      generated_.push_back({*std::move(trace), false});
    }
  }
  return absl::OkStatus();
}

std::string MutantCatcher::RunOne(impl::PlantedIn system, const Trace& trace,
                                  bool properties, bool& skipped) {
  skipped = false;
  std::unique_ptr<System> sut = NewSystemOf(system);
  ReplayOptions options;
  if (properties) {
    options.check = properties::AsStepCheck(trace.header, nullptr);
  }
  TraceResult r = Replay(*sut, trace, options);
  const std::string where = trace.path.empty() ? trace.header.name : trace.path;
  switch (r.verdict) {
    case Verdict::kPassed:
      return "";
    case Verdict::kSkipped:
      skipped = true;
      return "";
    case Verdict::kFailed:
    case Verdict::kError:
      break;
  }
  const std::string verdict(VerdictName(r.verdict));
  if (r.divergence) {
    return absl::StrCat(verdict, " ", r.divergence->Format(where));
  }
  return absl::StrCat(verdict, " ", where, ": ", r.message);
}

void MutantCatcher::RunAll(impl::PlantedIn system,
                           const std::vector<Loaded>& traces, const char* net,
                           bool stop_at_first, CatchResult& result) {
  for (const auto& [trace, hostile] : traces) {
    bool skipped = false;
    std::string failure = RunOne(system, trace, !hostile, skipped);
    ++result.traces_run;
    result.traces_skipped += skipped;
    if (failure.empty()) continue;
    if (!result.caught) {
      result.caught = true;
      result.net = hostile ? absl::StrCat(net, " (hostile)") : net;
      result.by = failure;
    }
    result.failures.push_back(std::move(failure));
    if (stop_at_first) return;
  }
}

CatchResult MutantCatcher::Catch(bool stop_at_first) {
  return CatchOn(ActiveMutantSystem(), stop_at_first);
}

CatchResult MutantCatcher::CatchOn(impl::PlantedIn system, bool stop_at_first) {
  CatchResult result;
  RunAll(system, golden_, "golden", stop_at_first, result);
  if (result.caught && stop_at_first) return result;
  if (absl::Status s = LoadGenerated(); !s.ok()) {
    result.failures.push_back("generating traces: " + s.ToString());
    return result;
  }
  RunAll(system, generated_, "generated", stop_at_first, result);
  return result;
}

CatchResult MutantCatcher::CatchWithRegression(
    const std::string& prefixes) const {
  std::vector<Loaded> chosen;
  for (const auto& [trace, hostile] : golden_) {
    if (trace.path.find("/regression/") == std::string::npos) continue;
    const std::string file =
        trace.path.substr(trace.path.find_last_of('/') + 1);
    for (absl::string_view prefix : absl::StrSplit(prefixes, ',')) {
      if (absl::StartsWith(file, prefix)) {
        chosen.push_back({trace, false});
        break;
      }
    }
  }
  CatchResult result;
  RunAll(ActiveMutantSystem(), chosen, "regression", /*stop_at_first=*/true,
         result);
  return result;
}

}  // namespace schedtrace::mutants
