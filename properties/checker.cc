#include "properties/checker.h"

#include <utility>

namespace schedtrace::properties {

Checker::Checker(const TraceHeader& header) : history_(header) {}

std::vector<Finding> Checker::Observe(const State& before, const Step& step,
                                      const StepOut& out, const State& after) {
  history_.Observe(before, step, out, &after);
  Observation o{before, step, out, after, history_};
  std::vector<Finding> findings;
  for (Violation& v : CheckAll(o)) {
    const KnownViolation* known = Classify(o, v);
    if (known != nullptr) ++known_counts_[std::string(known->id)];
    findings.push_back(Finding{std::move(v), known});
  }
  return findings;
}

StepCheck AsStepCheck(const TraceHeader& header,
                      std::map<std::string, int>* known_counts) {
  auto checker = std::make_shared<Checker>(header);
  return [checker, known_counts](const State& before, const Step& step,
                                 const StepOut& out,
                                 const State& after) -> std::string {
    for (const Finding& f : checker->Observe(before, step, out, after)) {
      if (f.known != nullptr) {
        if (known_counts != nullptr)
          ++(*known_counts)[std::string(f.known->id)];
        continue;
      }
      return f.violation.Format();
    }
    return "";
  };
}

}  // namespace schedtrace::properties
