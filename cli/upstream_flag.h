// `--upstream=V`, on every command that reads or makes traces: the upstream
// version (core/upstream_versions.h) a run uses instead of each trace
// header's `upstream`. Reading commands (conformance, replay, explain,
// minimize, record, bench, diff with PATHs, versions' --versions aside) run
// every trace as V, its expectations unchanged, so a v1.26.7 trace replayed
// as v1.30.12 shows what would change; `serve` runs every header it is sent
// as V and declares V in its header reply; generating commands (gen, diff
// without PATH) write V in the generated header.
//
//   absl::StatusOr<std::optional<std::string>> v = UpstreamFlag(cl);
//   if (!v.ok()) return UsageError(std::string(v.status().message()));
//   OverrideUpstream(*v, trace.header);
#ifndef SCHEDTRACE_CLI_UPSTREAM_FLAG_H_
#define SCHEDTRACE_CLI_UPSTREAM_FLAG_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "core/trace.h"
#include "core/upstream_versions.h"

namespace schedtrace::cli {

// Inline, so they are initialized before any registrar copies them (in the
// same file, after this header). For commands that read traces:
inline const FlagSpec kUpstreamFlag = {
    .name = "upstream",
    .help = "run every trace as this upstream version (" +
            KnownUpstreamsText() +
            ") instead of its header's `upstream`; the expectations stay "
            "the trace's"};
// For commands that write the traces they generate:
inline const FlagSpec kGenUpstreamFlag = {
    .name = "upstream",
    .help = "the upstream version the generated trace names in its header (" +
            KnownUpstreamsText() + "; default " +
            std::string(kDefaultUpstream) + ")"};

// --upstream's value (the last one given), nullopt when not given; an
// InvalidArgument error, for UsageError, naming the known versions when the
// value is not one of them ("" included).
absl::StatusOr<std::optional<std::string>> UpstreamFlag(const CommandLine& cl);

// Sets `header.upstream` to `upstream` when it is given.
void OverrideUpstream(const std::optional<std::string>& upstream,
                      TraceHeader& header);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_UPSTREAM_FLAG_H_
