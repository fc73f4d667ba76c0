// Which traces a run replays (`conformance`, `replay`, `diff`): the PATH
// arguments expanded to *.jsonl files, each with the name reports show,
// narrowed by `--filter`, `--layer` and `--last-failed`; each knows its
// header's name, layer and upstream version.
//
//   absl::StatusOr<std::vector<TraceFile>> all = FindTraces(cl.paths);
//   Selection sel{.globs = cl.All("filter"), .layer = Layer::kQueue};
//   std::vector<TraceFile> run = Select(*all, sel);
//
// A glob (fnmatch(3), where `*` also matches `/`) selects a trace when it
// matches the trace's header name (`queue/backoff-doubles`), its path
// relative to the PATH that found it, or its path as found; a pattern with
// no `*`, `?` or `[` matches anywhere in them (`--filter=backoff`). Several
// globs select what any of them selects. A file whose header does not decode
// has no name or layer: only its paths are matched, and `--layer` keeps it
// (the run then reports it as bad input rather than hiding it).
//
// `--last-failed` reads the list the previous run left in
// `.schedtrace/lastfailed.json` in the working directory (LastFailed), the
// way pytest keeps `.pytest_cache`: every run updates it with what it ran
// (a failure or error adds the trace, a pass or a skip removes it; traces it
// did not run keep their entry).
#ifndef SCHEDTRACE_CLI_SELECT_H_
#define SCHEDTRACE_CLI_SELECT_H_

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/trace.h"

namespace schedtrace::cli {

struct TraceFile {
  std::string path;     // as found: the PATH argument joined with the rest
  std::string display;  // relative to that PATH (its file name for a file)
  std::string name;     // the header's name; "" when it does not decode
  std::optional<Layer> layer;  // the header's layer, when it decodes
  // The header's effective upstream version (no `upstream`: v1.26.7); ""
  // when the header does not decode or names no known version (the run then
  // reports the trace as bad input). ChooseTraces sets --upstream's here.
  std::string upstream;
};

// Every *.jsonl file under `paths` (a file is taken as it is, whatever its
// extension), in argument order, each directory's files sorted. An error
// names a PATH that does not exist.
absl::StatusOr<std::vector<TraceFile>> FindTraces(
    const std::vector<std::string>& paths);

struct Selection {
  std::vector<std::string> globs;  // none: every trace
  std::optional<Layer> layer;
  // Only traces whose canonical path is in here (--last-failed).
  std::optional<std::set<std::string>> only;
};

std::vector<TraceFile> Select(const std::vector<TraceFile>& traces,
                              const Selection& selection);

// The absolute, normalized form of a trace's path: the key LastFailed keeps.
std::string CanonicalTracePath(const std::string& path);

// The traces that failed in earlier runs, kept in a small JSON file.
class LastFailed {
 public:
  static constexpr const char* kDefaultPath = ".schedtrace/lastfailed.json";
  explicit LastFailed(std::string file = kDefaultPath);

  // Reads the file; a missing file is an empty list, an unreadable or
  // malformed one an error naming it.
  absl::Status Load();
  const std::set<std::string>& failed() const { return failed_; }
  // Records one trace's outcome in this run (by its path as found).
  void Record(const std::string& path, bool failed);
  // Writes the file (creating its directory).
  absl::Status Save() const;

 private:
  std::string file_;
  std::set<std::string> failed_;  // canonical paths
};

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_SELECT_H_
