// Systems under test by name: `model`, `impl`, `exec:CMD` — any program
// speaking the child-process protocol (run/child_process.h), started as
// `/bin/sh -c CMD` afresh for every trace — and `upstream:vX.Y.Z`, the real
// kube-scheduler of that version (schedtrace-upstream, built by
// upstream/build), an exec: system found by its version; and
// `model:SWITCH=on|off[,...]`, the model with switches of model/upstream.h
// set against each trace's version (upstream/revert-check).
//
//   RETURN_IF_ERROR(ApplySutFlags(cl));           // --timeout-ms
//   absl::StatusOr<std::unique_ptr<System>> s = MakeSystem("exec:./sched");
//   ReplayOptions o;
//   o.reports = ReportsOf(**s);                   // what a child reports
#ifndef SCHEDTRACE_CLI_SUTS_H_
#define SCHEDTRACE_CLI_SUTS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "core/system.h"
#include "run/replay.h"

namespace schedtrace::cli {

// A fresh system for `name`; an InvalidArgument error for an unknown name,
// and a NotFound error for an upstream: version that is not built. An exec:
// system starts its child only when it is configured.
absl::StatusOr<std::unique_ptr<System>> MakeSystem(const std::string& name);

// Where `upstream:VERSION` looks for schedtrace-upstream-VERSION: the
// directory $SCHEDTRACE_UPSTREAM_DIR when it is set and not empty, else
// upstream/ beside the schedtrace executable (upstream/build writes
// build/upstream/ beside build/schedtrace). `env` is the variable's value
// (nullptr when unset), `exe_dir` the executable's directory.
std::string UpstreamBinary(const char* env, std::string_view exe_dir,
                           std::string_view version);

// `--timeout-ms=N`: how long an exec: child may take to answer one line.
// Commands that take --sut list it and call ApplySutFlags. Inline, so it is
// initialized before any command registrar that names it (a plain extern
// could still be empty when another file's registrar copies it).
inline const FlagSpec kTimeoutFlag = {
    "timeout-ms",
    "how long an exec:CMD system may take to answer one line before the "
    "trace fails (default 10000)"};
inline constexpr int kDefaultTimeoutMs = 10000;
// Reads the flags above into what MakeSystem uses from then on; an error
// (for UsageError) when a value is malformed.
absl::Status ApplySutFlags(const CommandLine& cl);

// For an exec: or upstream: system: one line per layer or version its
// header replies refused, counting the traces skipped since the last call
// without starting the child again (run/header_refusals.h): `exec:./x: not
// started for 275 more traces, skipped as its earlier header reply
// answered: does not support the cache layer ...`. "" for the others and
// when nothing was saved.
std::string RefusalsSaved(const std::string& sut);

// The state `system` reports, once configured: what an exec: child declared
// in its header reply; null (everything) for the others.
ReportsState ReportsOf(System& system);

// The upstream version `system` declared at its last Configure: what an
// exec: child said in its header reply (docs/FORMAT.md "Capabilities");
// nullopt when it said nothing, and for the others (they run each trace's).
std::optional<std::string> DeclaredUpstream(System& system);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_SUTS_H_
