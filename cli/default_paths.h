// Where `schedtrace` finds the data it ships: the golden corpus and the
// docs, whether it runs from a build tree or from an installed prefix
// (`cmake --install`, the Debian package: bin/schedtrace beside
// share/schedtrace/golden and share/schedtrace/docs).
#ifndef SCHEDTRACE_CLI_DEFAULT_PATHS_H_
#define SCHEDTRACE_CLI_DEFAULT_PATHS_H_

#include <string>
#include <string_view>

namespace schedtrace::cli {

// The golden corpus `schedtrace conformance` replays when given no PATH, the
// first of:
//   1. $SCHEDTRACE_GOLDEN, when set and not empty;
//   2. <directory of /proc/self/exe>/../share/schedtrace/golden, when it is a
//      directory (the installed layout);
//   3. the source tree's golden/ the binary was compiled from
//      (SCHEDTRACE_GOLDEN_DIR), when it is a directory;
//   4. "golden", relative to the working directory.
// An installed binary thus uses its own corpus even while the source tree
// it was built from still exists.
std::string DefaultGoldenDir();

// The docs directory, found the same way: <exe dir>/../share/schedtrace/docs,
// else the source tree's docs/ (SCHEDTRACE_DOCS_DIR), else "docs". No
// environment variable overrides it.
std::string DefaultDocsDir();

// The directory holding the running executable (/proc/self/exe resolved),
// or "" when it cannot be read.
std::string ExecutableDir();

// The resolution order above with its inputs given, for tests: `env` is the
// environment variable's value (nullptr when unset), `exe_dir` the
// executable's directory ("" when unknown), `installed` the path under
// <prefix>/share/schedtrace ("golden", "docs"), `compiled` the source tree's
// directory ("" when none was compiled in), `fallback` the last resort.
std::string ResolveDataDir(const char* env, std::string_view exe_dir,
                           std::string_view installed,
                           std::string_view compiled,
                           std::string_view fallback);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_DEFAULT_PATHS_H_
