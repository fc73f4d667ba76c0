#include "cli/select.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "cli/work_dir.h"
#include "core/upstream_versions.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {
namespace {

namespace fs = std::filesystem;

// The header's name and layer, read from the first line that is neither
// blank nor a comment; left empty when it does not decode.
void ReadHeaderFields(TraceFile& trace) {
  std::ifstream in(trace.path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    nlohmann::json h = nlohmann::json::parse(line, nullptr, false);
    if (!h.is_object()) return;
    if (auto it = h.find("name"); it != h.end() && it->is_string()) {
      trace.name = it->get<std::string>();
    }
    if (auto it = h.find("layer"); it != h.end() && it->is_string()) {
      trace.layer = LayerFromName(it->get<std::string>());
    }
    if (auto it = h.find("upstream"); it == h.end() || it->is_null()) {
      trace.upstream = std::string(EffectiveUpstream(""));
    } else if (it->is_string() && IsKnownUpstream(it->get<std::string>())) {
      trace.upstream = std::string(EffectiveUpstream(it->get<std::string>()));
    }
    return;
  }
}

bool Matches(const std::string& glob, const TraceFile& t) {
  const bool wildcard = glob.find_first_of("*?[") != std::string::npos;
  const std::string pattern = wildcard ? glob : absl::StrCat("*", glob, "*");
  for (const std::string* s : {&t.name, &t.display, &t.path}) {
    if (!s->empty() && fnmatch(pattern.c_str(), s->c_str(), 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<std::vector<TraceFile>> FindTraces(
    const std::vector<std::string>& paths) {
  std::vector<TraceFile> traces;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
      traces.push_back(
          {.path = path, .display = fs::path(path).filename().string()});
      continue;
    }
    if (!fs::is_directory(path, ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": no such file or directory"));
    }
    std::vector<TraceFile> found;
    for (auto it = fs::recursive_directory_iterator(path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".jsonl") {
        found.push_back(
            {.path = it->path().string(),
             .display = it->path().lexically_relative(path).string()});
      }
    }
    if (ec) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": ", ec.message()));
    }
    std::sort(
        found.begin(), found.end(),
        [](const TraceFile& a, const TraceFile& b) { return a.path < b.path; });
    traces.insert(traces.end(), found.begin(), found.end());
  }
  for (TraceFile& t : traces) ReadHeaderFields(t);
  return traces;
}

std::vector<TraceFile> Select(const std::vector<TraceFile>& traces,
                              const Selection& selection) {
  std::vector<TraceFile> selected;
  for (const TraceFile& t : traces) {
    if (selection.layer && t.layer && *t.layer != *selection.layer) continue;
    if (!selection.globs.empty() &&
        std::none_of(selection.globs.begin(), selection.globs.end(),
                     [&](const std::string& g) { return Matches(g, t); })) {
      continue;
    }
    if (selection.only &&
        !selection.only->contains(CanonicalTracePath(t.path))) {
      continue;
    }
    selected.push_back(t);
  }
  return selected;
}

std::string CanonicalTracePath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

LastFailed::LastFailed(std::string file) : file_(std::move(file)) {}

absl::Status LastFailed::Load() {
  failed_.clear();
  std::error_code ec;
  if (!fs::exists(file_, ec)) return absl::OkStatus();
  std::ifstream in(file_);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("failed") || !j["failed"].is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(
        file_,
        ": not a schedtrace last-failed list (delete it to start over)"));
  }
  for (const nlohmann::json& p : j["failed"]) {
    if (p.is_string()) failed_.insert(p.get<std::string>());
  }
  return absl::OkStatus();
}

void LastFailed::Record(const std::string& path, bool failed) {
  const std::string key = CanonicalTracePath(path);
  if (failed) {
    failed_.insert(key);
  } else {
    failed_.erase(key);
  }
}

absl::Status LastFailed::Save() const {
  std::error_code ec;
  if (file_ == kDefaultPath) {
    // .schedtrace/, ignoring itself (cli/work_dir.h).
    if (absl::StatusOr<std::string> dir = EnsureWorkDir(); !dir.ok()) {
      return dir.status();
    }
  } else if (fs::path dir = fs::path(file_).parent_path(); !dir.empty()) {
    fs::create_directories(dir, ec);
  }
  nlohmann::json j = {
      {"schema", 1},
      {"failed", std::vector<std::string>(failed_.begin(), failed_.end())}};
  // Written aside and renamed, so a reader never sees half a file.
  const std::string tmp = absl::StrCat(file_, ".", getpid(), ".tmp");
  {
    std::ofstream out(tmp);
    out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", tmp));
  }
  fs::rename(tmp, file_, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot write ", file_, ": ", ec.message()));
  }
  return absl::OkStatus();
}

}  // namespace schedtrace::cli
