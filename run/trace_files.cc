#include "run/trace_files.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace schedtrace {

absl::StatusOr<std::vector<std::string>> FindTraceFiles(
    const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
      files.push_back(path);
      continue;
    }
    if (!fs::is_directory(path, ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": no such file or directory"));
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".jsonl") {
        found.push_back(it->path().string());
      }
    }
    if (ec) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": ", ec.message()));
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

}  // namespace schedtrace
