// `.schedtrace/`: the directory in the working directory where schedtrace
// keeps what a run leaves for the next one (`--last-failed`'s list,
// `diff`'s disagreeing traces), the way pytest keeps `.pytest_cache/`.
// It ignores itself: the first run that writes into it puts a `.gitignore`
// holding `*` inside, so git never offers its files for a commit, whatever
// the repository's own .gitignore says.
//
//   absl::StatusOr<std::string> dir = EnsureWorkDir("diff-failures");
//   // ".schedtrace/diff-failures", created, ignored by git
#ifndef SCHEDTRACE_CLI_WORK_DIR_H_
#define SCHEDTRACE_CLI_WORK_DIR_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace schedtrace::cli {

inline constexpr std::string_view kWorkDir = ".schedtrace";

// Creates `.schedtrace/` (with its `.gitignore`) and, below it, `sub` when
// not empty; returns the path of the latter (".schedtrace" for an empty
// `sub`). An error names the directory it could not make.
absl::StatusOr<std::string> EnsureWorkDir(std::string_view sub = "");

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_WORK_DIR_H_
