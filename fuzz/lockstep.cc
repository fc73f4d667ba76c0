#include "fuzz/lockstep.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/codec.h"
#include "core/json_codec.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/checker.h"
#include "run/driver.h"

namespace schedtrace::fuzz {
namespace {

// "state.queue.active[d/p].attempts" -> "state.queue.active.attempts" (a
// key or an index alike).
std::string StripIndices(std::string_view path) {
  std::string s;
  bool in_index = false;
  for (char c : path) {
    if (c == '[') in_index = true;
    if (!in_index) s.push_back(c);
    if (c == ']') in_index = false;
  }
  return s;
}

LockstepResult Fail(LockstepResult r, std::string signature,
                    std::string message) {
  r.failed = true;
  r.signature = std::move(signature);
  r.message = std::move(message);
  return r;
}

std::string Where(const Step& step, int step_no) {
  return absl::StrCat("step ", step_no, " (", std::string(OpName(step.op)),
                      ", t=", step.t, ")");
}

std::string Status(const absl::StatusOr<StepOut>& out) {
  return out.ok() ? "applied it" : std::string(out.status().message());
}

// What the driver's end of a run means for a fuzz target: a signature to
// de-duplicate crashes by and a readable message.
LockstepResult Failed(LockstepResult r, const Driver& driver, const Step& step,
                      const DriveEnd& end, int property) {
  const std::string where = Where(step, end.step_no);
  const std::string step_json = EncodeStep(step, false);
  if (!end.divergence) {
    return Fail(r, absl::StrCat("property:", property),
                absl::StrCat(where, ": ", end.message, "\nstep: ", step_json));
  }
  const Divergence& d = *end.divergence;
  if (d.path == "out (refused)") {  // one applied the step, one refused it
    return Fail(
        r, absl::StrCat("status:", end.op),
        absl::StrCat(where, ": model ", Status(driver.a().out()), ", impl ",
                     Status(driver.b().out()), "\nstep: ", step_json));
  }
  if (d.path.starts_with("out")) {
    return Fail(
        r, absl::StrCat("out:", end.op),
        absl::StrCat(
            where, ": out differs\nmodel: ", EncodeOut(*driver.a().out()),
            "\nimpl:  ", EncodeOut(*driver.b().out()), "\nstep: ", step_json));
  }
  return Fail(r, absl::StrCat("state:", StripIndices(d.path)),
              absl::StrCat(where, ": state differs at ", d.path,
                           "\nmodel: ", d.expected, "\nimpl:  ", d.actual,
                           "\nstep: ", step_json));
}

}  // namespace

LockstepResult RunLockstepOn(System& model, System* impl, Layer layer,
                             Mode mode, std::string_view data) {
  LockstepResult r;
  Decoder dec(layer, mode, data);
  // Properties on the model's transitions (equal to impl's, or the
  // comparison has failed first); a violation upstream itself commits is
  // counted, not failed.
  std::optional<properties::Checker> checker;
  int property = 0;
  DriveOptions options;
  options.drop_unconfigurable_b = true;
  options.check_b = false;
  if (mode == Mode::kValid) {
    options.make_check = [&](const TraceHeader& header) -> StepCheck {
      checker.emplace(&header);  // the driver's copy outlives the run
      return [&](const State& before, const Step& step, const StepOut& out,
                 const State& after, const StateTouch& touch) -> std::string {
        for (const properties::Finding& f :
             checker->Observe(before, step, out, after, &touch)) {
          if (f.known != nullptr) continue;
          property = f.violation.property;
          return f.violation.Format();
        }
        return "";
      };
    };
  }
  Driver driver(model, impl, std::move(options));
  if (std::optional<DriveEnd> end = driver.Configure(dec.header())) {
    // The first system does not judge this layer of the input's version
    // yet (properties/judged_upstreams.h): nothing to run.
    if (end->verdict == Verdict::kSkipped && end->side != "b") {
      r.skipped = true;
      return r;
    }
    return Fail(
        r, "configure",
        absl::StrCat(end->side == "b" ? "impl: " : "model: ", end->message));
  }
  r.impl_skipped = driver.b_dropped();
  while (std::optional<Step> step = dec.Next()) {
    ++r.steps;
    if (std::optional<DriveEnd> end = driver.Apply(*step)) {
      // The model alone refused the step: the trace ends here.
      if (end->verdict != Verdict::kFailed) break;
      return Failed(r, driver, *step, *end, property);
    }
    if (driver.ended()) break;  // upstream exits: the trace ends here
    if (const StepOut* out = driver.last_out()) dec.Observe(*step, *out);
  }
  if (checker) r.known_counts = checker->known_counts();
  return r;
}

LockstepResult RunLockstep(Layer layer, Mode mode, std::string_view data) {
  std::unique_ptr<System> model = model::NewSystem();
  std::unique_ptr<System> impl = impl::NewSystem();
  return RunLockstepOn(*model, impl.get(), layer, mode, data);
}

LockstepResult RunImplAlone(Layer layer, Mode mode, std::string_view data) {
  std::unique_ptr<System> impl = impl::NewSystem();
  return RunLockstepOn(*impl, nullptr, layer, mode, data);
}

void DieOnFailure(const LockstepResult& result) {
  if (!result.failed) return;
  std::fprintf(stderr, "SCHEDTRACE-FAILURE %s\n%s\n", result.signature.c_str(),
               result.message.c_str());
  std::abort();
}

}  // namespace schedtrace::fuzz
