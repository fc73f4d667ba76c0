// A System played by another program: `ChildProcess` runs a shell
// command and speaks the child-process protocol with it over stdin and
// stdout (docs/FORMAT.md, "Child-process protocol", with the capabilities a
// child may declare; docs/ADAPTERS.md for implementers).
//
//   ChildProcess child("./my-scheduler --schedtrace", {.timeout_ms = 2000});
//   TraceResult r = Replay(child, trace);   // one fresh child per Configure
//
// Each Configure starts a fresh child (`/bin/sh -c CMD`, in its own process
// group), writes the header line and reads the one-line reply, which may
// declare capabilities; each Apply writes the step line without `expect` and
// reads one line `{"out": {...}, "state": {...}}`; Snapshot returns the last
// state read. Nothing a child does can crash or hang the harness: a child
// that exits, crashes, stops answering for `timeout_ms`, writes a line longer
// than `max_line_bytes`, writes something that is not a reply, or writes more
// than one line for one request makes that call fail with a message that
// says what happened and ends with the child's last stderr lines; the child
// is then killed (its whole process group) and reaped. Stderr is drained
// while waiting for replies, so a chatty child cannot block on a full pipe.
// The destructor always kills and reaps.
//
// Thread-compatible; one instance drives one child at a time.
#ifndef SCHEDTRACE_RUN_CHILD_PROCESS_H_
#define SCHEDTRACE_RUN_CHILD_PROCESS_H_

#include <sys/types.h>

#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/system.h"
#include "core/trace.h"
#include "run/header_refusals.h"

namespace schedtrace {

// What a child declared in its header reply; an absent list means
// "everything" (docs/FORMAT.md, "Capabilities").
struct Capabilities {
  std::optional<std::set<std::string>> layers;  // "queue", "cache", ...
  std::optional<std::set<std::string>> ops;     // "q_add", "c_assume", ...
  // State parts ("queue", "waiting") or keys of the parts compared key by
  // key ("queue.active", "cache.nodes").
  std::optional<std::set<std::string>> state;
  // The upstream version the child implements ("v1.30.12"), one of
  // KnownUpstreams() (core/upstream_versions.h); absent: it does not say,
  // and is judged against every trace. A trace whose effective upstream
  // differs is skipped (Configure says Unimplemented).
  std::optional<std::string> upstream;

  bool SupportsLayer(Layer layer) const;
  bool SupportsOp(Op op) const;
  // Whether the child reports the state at `path`: a part ("waiting") or a
  // part's key ("queue.backoff"). A part is reported when it or any of its
  // keys is listed; a key when it or its part is listed.
  bool ReportsState(std::string_view path) const;
  bool ReportsAllState() const { return !state.has_value(); }
};

// Reads the capability keys of a header reply (a JSON object); an error names
// the key that is malformed.
absl::StatusOr<Capabilities> ParseCapabilities(std::string_view reply_json);

struct ChildOptions {
  int timeout_ms = 10000;            // per request (header or step)
  size_t max_line_bytes = 64 << 20;  // a longer reply line is an error
  int stderr_lines = 20;             // how many are kept and reported
  // Shared by the children of one command in a run: a layer or version a
  // header reply refused is not asked again (run/header_refusals.h).
  std::shared_ptr<HeaderRefusals> refusals;
};

class ChildProcess : public System {
 public:
  explicit ChildProcess(std::string command, ChildOptions options = {});
  ~ChildProcess() override;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts a fresh child and sends the header. Unimplemented (a skip) when
  // the child declares an upstream version other than the header's
  // effective one ("exec:CMD: the child implements v1.30.12, the trace is
  // v1.26.7"), or layers without the header's; the child's own refusal
  // (`{"ok": false, ...}`) is Unimplemented when it declares layers without
  // this one too, FailedPrecondition otherwise.
  absl::Status Configure(const TraceHeader& header) override;
  // Unimplemented (a skip) for an op the child did not declare; Unavailable
  // or DataLoss when the child failed (the message says how); Internal when
  // the child answered `{"ok": false, "error": ...}`.
  absl::StatusOr<StepOut> Apply(const Step& step) override;
  State Snapshot() const override { return state_; }
  // What the last reply changed: everything after a `state`, the parts and
  // NodeInfos a `stateChanged` gave (docs/FORMAT.md, E13).
  void Touched(StateTouch& out) const override { out = touch_; }
  void RefreshInto(State& out, const StateTouch& touch) const override;
  // The last step reply's `out` as the child wrote it (compact JSON; the
  // replayer compares it exactly with `expect.out`); empty after Configure
  // and after an Apply that failed.
  std::optional<std::string_view> OutAsSent() const override {
    if (!out_as_sent_) return std::nullopt;
    return *out_as_sent_;
  }
  // The last step reply's `state` as the child wrote it (compact JSON, read
  // from the reply on first use); empty when that reply had no state, after
  // Configure and after an Apply that failed.
  std::optional<std::string_view> StateAsSent() const override;

  // What the child declared at the last Configure.
  const Capabilities& capabilities() const { return capabilities_; }
  // The child's last stderr lines (oldest first), complete lines and the
  // unfinished one.
  std::string StderrTail() const;
  // Kills and reaps the child, if one runs. Idempotent.
  void Stop();

 private:
  absl::Status Start();
  // The skip of a header whose layer the child refused ("exec:CMD: " and
  // `reason`), remembered in options_.refusals.
  absl::Status RefuseLayer(const std::string& reason);
  // Writes `line` + '\n' and reads one reply line, within the timeout.
  absl::StatusOr<std::string> Exchange(const std::string& line,
                                       const std::string& what);
  // Exchange's steps: a failure when the child wrote a line nobody asked
  // for (before `what`); one poll of at most `timeout_ms` that writes what
  // is left of `pending` (from `*written` on) and reads what stdout holds.
  absl::Status RefuseUnaskedOutput(const std::string& what);
  absl::Status PollOnce(const std::string& pending, size_t* written,
                        int timeout_ms, const std::string& what);
  // Reads what stderr holds now without blocking.
  void DrainStderr();
  void AddStderr(std::string_view bytes);
  // A failure: stops the child and returns `code` with `message`, the exit
  // status and the stderr tail.
  absl::Status Fail(absl::StatusCode code, const std::string& message);

  std::string command_;
  ChildOptions options_;
  pid_t pid_ = -1;
  int stdin_fd_ = -1, stdout_fd_ = -1, stderr_fd_ = -1;
  std::string stdout_buf_;  // bytes read from stdout, not yet a reply
  std::string stderr_partial_;
  std::deque<std::string> stderr_lines_;
  std::string exit_description_;  // "exited with status 3", after a reap
  Capabilities capabilities_;
  Layer layer_ = Layer::kQueue;
  bool configured_ = false;
  State state_;
  StateTouch touch_;
  std::optional<std::string> out_as_sent_;
  // The last step reply line, when it carried a state; StateAsSent's JSON,
  // extracted from it when first asked for.
  std::optional<std::string> state_reply_;
  mutable std::optional<std::string> state_as_sent_;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_CHILD_PROCESS_H_
