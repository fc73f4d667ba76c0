#include "cli/explanation.h"

#include <fstream>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "cli/suts.h"
#include "core/codec.h"
#include "properties/checker.h"
#include "run/text_sanitize.h"
#include "run/timeline_format.h"

namespace schedtrace::cli {

ExplainOptions ExplainOptionsFor(System& system, const std::string& name,
                                 bool properties) {
  ExplainOptions options;
  options.sut = name;
  options.reports = ReportsOf(system);
  if (properties) {
    // Each property whose inputs the system shows (properties/inputs.h);
    // the known upstream violations shown at their step.
    System* s = &system;
    auto known = std::make_shared<std::vector<std::string>>();
    options.make_check = [s, known](const TraceHeader& header) -> StepCheck {
      return properties::AsStepCheck(
          header, nullptr, properties::CheckMode::kIncremental, ReportsOf(*s),
          nullptr, [known](const std::string& k) { known->push_back(k); });
    };
    options.take_known = [known] { return std::exchange(*known, {}); };
  }
  return options;
}

std::string WriteExplanation(const std::string& sut,
                             const std::string& trace_path, bool properties,
                             std::string* error) {
  auto fail = [error](std::string why) {
    if (error != nullptr) *error = std::move(why);
    return std::string();
  };
  absl::StatusOr<Trace> trace = ReadTraceFile(trace_path);
  if (!trace.ok()) return fail(std::string(trace.status().message()));
  absl::StatusOr<std::unique_ptr<System>> system = MakeSystem(sut);
  if (!system.ok()) return fail(std::string(system.status().message()));
  absl::StatusOr<Timeline> timeline = ExplainTrace(
      **system, *trace, ExplainOptionsFor(**system, sut, properties));
  const std::string path = ExplanationPathFor(trace_path);
  std::ofstream f(path);
  f << SanitizeText(
      timeline.ok() ? FormatTimeline(*timeline, {.all = true})
                    : absl::StrCat("cannot explain ", trace_path, " on ", sut,
                                   ": ", timeline.status().message(), "\n"));
  f.close();
  if (!f) return fail(absl::StrCat("cannot write ", path));
  return path;
}

}  // namespace schedtrace::cli
