#include "fuzz/lockstep.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/codec.h"
#include "harness/json_codec.h"
#include "harness/replay.h"
#include "impl/system.h"
#include "model/system.h"
#include "properties/checker.h"

namespace schedtrace::fuzz {
namespace {

// "state.queue.active[1].attempts" -> "state.queue.active.attempts".
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

// One system applied the step, the other refused it.
LockstepResult StatusDiffers(LockstepResult r, const Step& step,
                             const absl::Status& model,
                             const absl::Status& impl,
                             const std::string& where) {
  return Fail(
      r, absl::StrCat("status:", std::string(OpName(step.op))),
      absl::StrCat(where, ": model ",
                   model.ok() ? "applied it" : std::string(model.message()),
                   ", impl ",
                   impl.ok() ? "applied it" : std::string(impl.message()),
                   "\nstep: ", EncodeStep(step, false)));
}

// The states differ (the cheap comparison failed): now find where, as the
// replayer would against the model's recording.
LockstepResult StateDiffers(LockstepResult r, const Step& step,
                            const StepOut& out, const State& model,
                            const State& impl, const std::string& where) {
  Step expected = step;
  auto expect = std::make_shared<Expect>();
  expect->state = StateToJson(model);
  expected.expect = expect;
  std::optional<Divergence> d = CompareStep(expected, r.steps, out, impl);
  const std::string path = d ? d->path : "state";
  return Fail(r, absl::StrCat("state:", StripIndices(path)),
              absl::StrCat(where, ": state differs at ", path,
                           "\nmodel: ", d ? d->expected : "",
                           "\nimpl:  ", d ? d->actual : "",
                           "\nstep: ", EncodeStep(step, false)));
}

}  // namespace

LockstepResult RunLockstepOn(System& model, System* impl, Layer layer,
                             Mode mode, std::string_view data) {
  LockstepResult r;
  Decoder dec(layer, mode, data);
  const TraceHeader& header = dec.header();
  if (absl::Status s = model.Configure(header); !s.ok()) {
    return Fail(r, "configure", absl::StrCat("model: ", s.message()));
  }
  if (impl != nullptr) {
    absl::Status s = impl->Configure(header);
    if (s.code() == absl::StatusCode::kUnimplemented) {
      impl = nullptr;
      r.impl_skipped = true;
    } else if (!s.ok()) {
      return Fail(r, "configure", absl::StrCat("impl: ", s.message()));
    }
  }
  std::optional<properties::Checker> checker;
  if (mode == Mode::kValid) checker.emplace(&header);  // dec outlives it
  // Three States reused across steps (SnapshotInto keeps their storage):
  // once a trace's state has its shape, a step's snapshots allocate nothing.
  State before, after, impl_after;
  model.SnapshotInto(before);
  while (std::optional<Step> step = dec.Next()) {
    ++r.steps;
    // Built only on a failure: the common path allocates nothing here.
    auto op = [&] { return std::string(OpName(step->op)); };
    auto where = [&] {
      return absl::StrCat("step ", r.steps, " (", op(), ", t=", step->t, ")");
    };
    absl::StatusOr<StepOut> mo = model.Apply(*step);
    std::optional<absl::StatusOr<StepOut>> io;
    if (impl != nullptr) io = impl->Apply(*step);
    if (io && mo.ok() != io->ok()) {
      return StatusDiffers(r, *step, mo.status(), io->status(), where());
    }
    if (!mo.ok()) break;  // both refused it: the trace ends here
    if (io && **io != *mo) {
      return Fail(r, absl::StrCat("out:", op()),
                  absl::StrCat(where(), ": out differs\nmodel: ",
                               EncodeOut(*mo), "\nimpl:  ", EncodeOut(**io),
                               "\nstep: ", EncodeStep(*step, false)));
    }
    if (mo->fatal) break;  // upstream exits: the trace ends here
    model.SnapshotInto(after);
    if (impl != nullptr) {
      impl->SnapshotInto(impl_after);
      if (impl_after != after) {
        return StateDiffers(r, *step, *mo, after, impl_after, where());
      }
    }
    if (checker) {
      for (const properties::Finding& f :
           checker->Observe(before, *step, *mo, after)) {
        if (f.known != nullptr) continue;
        return Fail(r, absl::StrCat("property:", f.violation.property),
                    absl::StrCat(where(), ": ", f.violation.Format(),
                                 "\nstep: ", EncodeStep(*step, false)));
      }
    }
    dec.Observe(*step, *mo);
    std::swap(before, after);
  }
  if (checker) r.known_counts = checker->known_counts();
  return r;
}

LockstepResult RunLockstep(Layer layer, Mode mode, std::string_view data) {
  std::unique_ptr<System> model = model::NewSystem();
  std::unique_ptr<System> impl = impl::NewSystem();
  return RunLockstepOn(*model, impl.get(), layer, mode, data);
}

void DieOnFailure(const LockstepResult& result) {
  if (!result.failed) return;
  std::fprintf(stderr, "SCHEDTRACE-FAILURE %s\n%s\n", result.signature.c_str(),
               result.message.c_str());
  std::abort();
}

}  // namespace schedtrace::fuzz
