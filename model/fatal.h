// Fatal outcomes of the reference model: where upstream panics or calls
// klog.FlushAndExit, the model returns an absl::Status whose code is
// kAborted, made with FatalError(). Every other non-OK status is an error that
// upstream returns to its caller.
//
// The System adapters turn a fatal status into `{"fatal": true}` and stop:
// upstream's process is gone and the trace ends at that step.
//
//   absl::Status s = cache.UpdatePod(old_pod, new_pod);
//   if (IsFatal(s)) return FatalOut();
//   if (!s.ok()) out.error = true;
//
// kAborted is reserved for this meaning in model code: do not use it for
// returned errors.
#ifndef SCHEDTRACE_MODEL_FATAL_H_
#define SCHEDTRACE_MODEL_FATAL_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace schedtrace::model {

// A status saying upstream would panic or exit here; `message` says why
// (e.g. the panic upstream would print).
inline absl::Status FatalError(absl::string_view message) {
  return absl::AbortedError(message);
}

// Whether `status` came from FatalError.
inline bool IsFatal(const absl::Status& status) {
  return status.code() == absl::StatusCode::kAborted;
}

}  // namespace schedtrace::model

#endif  // SCHEDTRACE_MODEL_FATAL_H_
