#include "cli/work_dir.h"

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace schedtrace::cli {

namespace fs = std::filesystem;

absl::StatusOr<std::string> EnsureWorkDir(std::string_view sub) {
  const fs::path root{std::string(kWorkDir)};
  const fs::path dir = sub.empty() ? root : root / std::string(sub);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return absl::InternalError(
        absl::StrCat("cannot make ", dir.string(), ": ",
                     ec ? ec.message() : "not a directory"));
  }
  const fs::path ignore = root / ".gitignore";
  if (!fs::exists(ignore, ec)) {
    std::ofstream out(ignore);
    out << "# Written by schedtrace: its own files (last failures, diff's\n"
           "# disagreeing traces), never to be committed.\n*\n";
  }
  return dir.string();
}

}  // namespace schedtrace::cli
