// The flags that choose and pace what a run replays, shared by
// `conformance`, `replay` and `diff` (with PATHs): --filter, --layer,
// --last-failed, --list, -x/--fail-fast, -j/--jobs, -q/--quiet; and what
// they do with the traces the PATHs name (select.h).
//
//   absl::StatusOr<TraceChoice> choice = ChooseTraces(cl, paths);
//   if (cl.Has("list")) return ListTraces(*choice, std::cout);
//   absl::StatusOr<int> jobs = JobsFlag(cl, /*exec=*/true);
#ifndef SCHEDTRACE_CLI_RUN_FLAGS_H_
#define SCHEDTRACE_CLI_RUN_FLAGS_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/select.h"

namespace schedtrace::cli {

// Inline, so they are initialized before any registrar copies them.
inline const FlagSpec kFilterFlag = {
    .name = "filter",
    .help =
        "run only traces whose name or path matches GLOB (repeatable; "
        "a GLOB without *?[ matches anywhere)"};
inline const FlagSpec kLayerFilterFlag = {
    .name = "layer", .help = "run only traces of this layer"};
inline const FlagSpec kLastFailedFlag = {
    .name = "last-failed",
    .help =
        "run only the traces that failed in the previous run (kept in "
        ".schedtrace/lastfailed.json; all of them if none failed)",
    .boolean = true};
inline const FlagSpec kListFlag = {
    .name = "list",
    .help = "print the traces that would run, and run nothing",
    .boolean = true};
inline const FlagSpec kFailFastFlag = {
    .name = "fail-fast",
    .help = "stop after the first failing trace",
    .boolean = true,
    .short_name = 'x'};
inline const FlagSpec kJobsFlag = {
    .name = "jobs",
    .help =
        "traces in flight at once, each with its own system (default: "
        "the number of cores for exec: systems, 1 for model and impl)",
    .short_name = 'j'};
inline const FlagSpec kVerboseFlag = {
    .name = "verbose",
    .help = "also print a PASS line for each trace that passed",
    .boolean = true,
    .short_name = 'v'};
inline const FlagSpec kQuietFlag = {
    .name = "quiet",
    .help = "print only failures and the summary",
    .boolean = true,
    .short_name = 'q'};

struct TraceChoice {
  size_t found = 0;               // traces under the PATHs
  std::vector<TraceFile> chosen;  // after --filter, --layer, --last-failed
  std::string note;               // e.g. "--last-failed: no failures..."
};

// The traces under `paths`, narrowed by the flags, each with the upstream
// version it runs as (--upstream, when given, else its header's). An error
// (for UsageError) for a PATH that does not exist, no trace under the PATHs,
// a bad --layer or --upstream, or a malformed last-failed file.
absl::StatusOr<TraceChoice> ChooseTraces(const CommandLine& cl,
                                         const std::vector<std::string>& paths);

// --list: one line per chosen trace (path, layer, upstream version, name)
// and a count.
// Returns the exit status: 0, or 5 when none is chosen.
int ListTraces(const TraceChoice& choice, std::ostream& out);

// -j/--jobs, or the default: the number of cores when `exec`, else 1.
absl::StatusOr<int> JobsFlag(const CommandLine& cl, bool exec);

// Updates .schedtrace/lastfailed.json with the outcome of each trace run
// (failures added, passes and skips removed); an error says why it could
// not be written.
absl::Status RecordLastFailed(
    const std::vector<std::pair<std::string, bool>>& path_failed);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_RUN_FLAGS_H_
