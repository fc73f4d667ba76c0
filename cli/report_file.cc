#include "cli/report_file.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace schedtrace::cli {

absl::Status WriteReportFile(const std::string& path,
                             const std::function<std::string()>& build) {
  std::string text;
  try {
    text = build();
  } catch (const std::exception& e) {
    return absl::InternalError(
        absl::StrCat("cannot build the report ", path, ": ", e.what()));
  } catch (...) {
    return absl::InternalError(absl::StrCat("cannot build the report ", path));
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) {
    return absl::InternalError(
        absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  }
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.close();
  if (!f) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace schedtrace::cli
