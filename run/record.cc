#include "run/record.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "core/upstream_versions.h"
#include "run/differential.h"
#include "run/driver.h"

namespace schedtrace {

std::shared_ptr<Expect> ExpectOf(const StepOut& out, const State* state) {
  auto expect = std::make_shared<Expect>();
  expect->out = OutToJson(out);
  if (!out.fatal && state != nullptr) expect->state = StateToJson(*state);
  return expect;
}

Step StepWithExpect(const Step& step, const StepOut& out, const State* state) {
  Step copy = step;
  copy.expect = ExpectOf(out, state);
  return copy;
}

std::shared_ptr<Expect> RecordedExpect(const DrivenSystem& run) {
  if (run.refused()) return nullptr;
  return ExpectOf(*run.out(), run.has_after() ? &run.after() : nullptr);
}

absl::StatusOr<Trace> RecordTrace(System& sut, const Trace& trace) {
  Trace recorded;
  recorded.path = trace.path;
  recorded.header = trace.header;
  Driver driver(sut, nullptr, {.record = true});
  if (std::optional<DriveEnd> end = driver.Configure(trace.header)) {
    return end->status;
  }
  for (size_t i = 0; i < trace.steps.size() && !driver.ended(); ++i) {
    const Step& step = trace.steps[i];
    if (std::optional<DriveEnd> end = driver.Apply(step)) {
      if (std::optional<std::string> reason =
              NotApplicableReason(end->status)) {
        // The recording stops before a step this version cannot apply, and
        // says so in its header, as upstream's recorded corpora do.
        recorded.header.truncated =
            Truncated{.at_step = static_cast<int64_t>(i) + 1,
                      .reason = absl::StrCat(
                          *reason, " (not applicable in ",
                          std::string(EffectiveUpstream(trace.header.upstream)),
                          ": this step and the later ones dropped)")};
        break;
      }
      return absl::Status(
          end->status.code(),
          absl::StrCat(
              StepLocation(trace.path, trace.header.name, trace.header.seed,
                           step.line, end->step_no, end->op),
              ": ", end->status.message()));
    }
    Step& copy = recorded.steps.emplace_back(step);
    copy.expect = RecordedExpect(driver.a());
  }
  return recorded;
}

}  // namespace schedtrace
