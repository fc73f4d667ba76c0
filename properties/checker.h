// Runs every property after every step of a trace and sorts what fires into
// failures and known upstream violations.
//
//   Checker checker(trace.header);
//   ... after each step:
//   for (const Finding& f : checker.Observe(before, step, out, after))
//     if (!f.known) fail(f.violation.Format());
//
// `AsStepCheck` adapts it to the replayer's ReplayOptions::check.
#ifndef SCHEDTRACE_PROPERTIES_CHECKER_H_
#define SCHEDTRACE_PROPERTIES_CHECKER_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/replay.h"
#include "properties/history.h"
#include "properties/known_violations.h"
#include "properties/properties.h"

namespace schedtrace::properties {

struct Finding {
  Violation violation;
  const KnownViolation* known = nullptr;  // null: a real failure
};

class Checker {
 public:
  explicit Checker(const TraceHeader& header);

  std::vector<Finding> Observe(const State& before, const Step& step,
                               const StepOut& out, const State& after);

  // How often each known violation fired so far (by id).
  const std::map<std::string, int>& known_counts() const {
    return known_counts_;
  }

 private:
  History history_;
  std::map<std::string, int> known_counts_;
};

// A StepCheck for `header`'s trace that fails the trace on the first
// unknown violation and adds known ones to `*known_counts` (may be null).
StepCheck AsStepCheck(const TraceHeader& header,
                      std::map<std::string, int>* known_counts);

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_CHECKER_H_
