#include "cli/run_tally.h"

#include <algorithm>
#include <cmath>

#include "core/upstream_versions.h"
#include "properties/known_violations.h"

namespace schedtrace::cli {

void Tally::Add(const TraceRun& tr) {
  switch (tr.result.verdict) {
    case Verdict::kPassed:
      ++passed;
      break;
    case Verdict::kFailed:
      ++failed;
      break;
    case Verdict::kSkipped:
      ++skipped;
      break;
    case Verdict::kError:
      ++errors;
      break;
  }
}

void Tally::Add(const Tally& t) {
  passed += t.passed;
  failed += t.failed;
  errors += t.errors;
  skipped += t.skipped;
}

Tally TallyOf(const SystemRun& run) {
  Tally t;
  for (const TraceRun& tr : run.traces) t.Add(tr);
  return t;
}

Tally TallyOf(const std::vector<SystemRun>& runs) {
  Tally t;
  for (const SystemRun& run : runs) t.Add(TallyOf(run));
  return t;
}

std::string LayerOf(const TraceRun& tr, std::string_view bad_input) {
  return tr.bad_input ? std::string(bad_input)
                      : std::string(LayerName(tr.result.layer));
}

std::string VersionOf(const TraceRun& tr, std::string_view unknown) {
  return tr.upstream.empty() ? std::string(unknown) : tr.upstream;
}

std::vector<TallyRow> Tallies(const std::vector<SystemRun>& runs) {
  // Versions sort by their place in KnownUpstreams(), unknown ones after.
  using VersionKey = std::pair<size_t, std::string>;
  const std::vector<std::string>& known = KnownUpstreams();
  auto key = [&known](const std::string& v) {
    auto it = std::find(known.begin(), known.end(), v);
    return VersionKey(static_cast<size_t>(it - known.begin()), v);
  };
  std::map<std::string, std::map<VersionKey, std::map<std::string, Tally>>> t;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) {
      t[run.sut][key(VersionOf(tr))][LayerOf(tr)].Add(tr);
    }
  }
  std::vector<TallyRow> rows;
  for (const auto& [sut, versions] : t) {
    for (const auto& [version, layers] : versions) {
      for (const auto& [layer, tally] : layers) {
        rows.push_back({sut, version.second, layer, tally});
      }
    }
  }
  return rows;
}

bool IsFailure(const TraceRun& tr) {
  return tr.result.verdict == Verdict::kFailed ||
         tr.result.verdict == Verdict::kError;
}

const std::string& DisplayOf(const TraceRun& tr) {
  return tr.display.empty() ? tr.result.path : tr.display;
}

double CleanSeconds(double seconds) {
  return std::isfinite(seconds) && seconds > 0 ? seconds : 0;
}

double SecondsOf(const SystemRun& run) {
  if (CleanSeconds(run.seconds) > 0) return CleanSeconds(run.seconds);
  double s = 0;
  for (const TraceRun& tr : run.traces) s += CleanSeconds(tr.seconds);
  return s;
}

double SecondsOf(const std::vector<SystemRun>& runs) {
  double s = 0;
  for (const SystemRun& run : runs) s += SecondsOf(run);
  return s;
}

std::string_view UpstreamOf(const std::string& id) {
  for (const auto& k : properties::KnownViolations()) {
    if (k.id == id) return k.upstream;
  }
  return "";
}

}  // namespace schedtrace::cli
