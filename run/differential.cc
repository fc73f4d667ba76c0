#include "run/differential.h"

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "core/system.h"
#include "core/upstream_versions.h"
#include "run/step_summary.h"

namespace schedtrace {

std::string StepLocation(const std::string& path, const std::string& name,
                         std::optional<int64_t> seed, int line, int step_no,
                         const std::string& op) {
  std::string where;
  if (!path.empty()) {
    where = line > 0 ? absl::StrCat(path, ":", line) : path;
  } else {
    where = name.empty() ? "generated trace" : name;
    if (seed) absl::StrAppend(&where, " (seed ", *seed, ")");
  }
  return absl::StrCat(where, ": step ", step_no, " (", op, ")");
}

std::string DiffResult::Format(const std::string& a_name,
                               const std::string& b_name) const {
  if (divergence) {
    const Divergence& d = *divergence;
    return absl::StrCat(StepLocation(path, name, seed, d.line, d.step, d.op),
                        " t=", d.t, ": ", d.path, d.FormatBody(a_name, b_name));
  }
  if (!side.empty()) {
    return absl::StrCat(side == "a" ? a_name : b_name, ": ", message);
  }
  return message.empty() ? (path.empty() ? name : path) : message;
}

namespace {

DriveOptions DriveOptionsOf(const DiffOptions& options) {
  DriveOptions drive;
  drive.make_check = options.make_check;
  drive.check_b = options.check_b;
  drive.reports = options.reports;
  return drive;
}

}  // namespace

Differential::Differential(System& a, System& b, const DiffOptions& options)
    : driver_(a, &b, DriveOptionsOf(options)) {}

DiffResult Differential::Result(std::optional<DriveEnd> end) const {
  DiffResult result;
  result.path = path_;
  result.name = header_.name;
  result.seed = header_.seed;
  result.layer = header_.layer;
  result.steps_run = driver_.steps_run();
  if (!end) return result;
  result.verdict = end->verdict;
  result.side = end->side;
  result.divergence = std::move(end->divergence);
  if (end->step_no > 0 && !end->message.empty()) {
    // A violation: where, then what fired.
    result.message =
        absl::StrCat(StepLocation(path_, header_.name, header_.seed, end->line,
                                  end->step_no, end->op),
                     ": ", end->message);
  } else {
    result.message = std::move(end->message);
  }
  return result;
}

std::optional<DiffResult> Differential::Configure(const TraceHeader& header,
                                                  std::string path) {
  header_ = header;
  path_ = std::move(path);
  if (std::optional<DriveEnd> end = driver_.Configure(header, path_)) {
    return Result(std::move(end));
  }
  return std::nullopt;
}

std::optional<DiffResult> Differential::Apply(const Step& step) {
  if (std::optional<DriveEnd> end = driver_.Apply(step)) {
    return Result(std::move(end));
  }
  return std::nullopt;
}

DiffResult RunDifferential(System& a, System& b, const Trace& trace,
                           const DiffOptions& options) {
  Differential d(a, b, options);
  if (std::optional<DiffResult> r = d.Configure(trace.header, trace.path)) {
    return *r;
  }
  for (size_t i = 0; i < trace.steps.size() && !d.ended(); ++i) {
    if (std::optional<DiffResult> r = d.Apply(trace.steps[i])) return *r;
  }
  return d.Result(std::nullopt);
}

}  // namespace schedtrace
