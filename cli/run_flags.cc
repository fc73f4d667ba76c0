#include "cli/run_flags.h"

#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cli/upstream_flag.h"

namespace schedtrace::cli {

absl::StatusOr<TraceChoice> ChooseTraces(
    const CommandLine& cl, const std::vector<std::string>& paths) {
  absl::StatusOr<std::vector<TraceFile>> all = FindTraces(paths);
  if (!all.ok()) return all.status();
  if (all->empty()) {
    // A corpus that moved or emptied must not pass as "nothing failed".
    return absl::InvalidArgumentError("no *.jsonl trace under the given PATH");
  }
  TraceChoice choice;
  choice.found = all->size();
  Selection selection;
  selection.globs = cl.All("filter");
  if (cl.Has("layer")) {
    selection.layer = LayerFromName(cl.Last("layer", ""));
    if (!selection.layer) {
      return absl::InvalidArgumentError(
          absl::StrCat("--layer takes queue, cache or scheduler, not \"",
                       cl.Last("layer", ""), "\""));
    }
  }
  if (cl.Has("last-failed")) {
    LastFailed last;
    if (absl::Status s = last.Load(); !s.ok()) return s;
    if (last.failed().empty()) {
      choice.note =
          "--last-failed: no failures recorded, so every selected trace is "
          "chosen";
    } else {
      selection.only = last.failed();
    }
  }
  choice.chosen = Select(*all, selection);
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok()) return upstream.status();
  if (*upstream) {
    for (TraceFile& t : choice.chosen) t.upstream = **upstream;
  }
  return choice;
}

int ListTraces(const TraceChoice& choice, std::ostream& out) {
  // "--last-failed: no failures recorded, ...": the list is then everything.
  if (!choice.note.empty()) out << choice.note << "\n";
  for (const TraceFile& t : choice.chosen) {
    out << t.path << "  " << (t.layer ? std::string(LayerName(*t.layer)) : "?")
        << "  " << (t.upstream.empty() ? "?" : t.upstream) << "  "
        << (t.name.empty() ? "(header does not decode)" : t.name) << "\n";
  }
  out << choice.chosen.size() << " of " << choice.found << " traces selected\n";
  return choice.chosen.empty() ? 5 : 0;
}

absl::StatusOr<int> JobsFlag(const CommandLine& cl, bool exec) {
  if (!cl.Has("jobs")) {
    return exec ? std::max(1u, std::thread::hardware_concurrency()) : 1;
  }
  int jobs = 0;
  if (!absl::SimpleAtoi(cl.Last("jobs", ""), &jobs) || jobs < 1 || jobs > 128) {
    return absl::InvalidArgumentError(
        "-j/--jobs takes a whole number from 1 to 128");
  }
  return jobs;
}

absl::Status RecordLastFailed(
    const std::vector<std::pair<std::string, bool>>& path_failed) {
  LastFailed last;
  // A malformed file is replaced by what this run knows.
  (void)last.Load();
  for (const auto& [path, failed] : path_failed) last.Record(path, failed);
  return last.Save();
}

}  // namespace schedtrace::cli
