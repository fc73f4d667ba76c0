// Where `schedtrace` finds its golden corpus and docs (default_paths.h).
#include "cli/default_paths.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace schedtrace::cli {

namespace fs = std::filesystem;

#ifdef SCHEDTRACE_GOLDEN_DIR
constexpr std::string_view kCompiledGoldenDir = SCHEDTRACE_GOLDEN_DIR;
#else
constexpr std::string_view kCompiledGoldenDir = "";
#endif
#ifdef SCHEDTRACE_DOCS_DIR
constexpr std::string_view kCompiledDocsDir = SCHEDTRACE_DOCS_DIR;
#else
constexpr std::string_view kCompiledDocsDir = "";
#endif

namespace {

bool IsDirectory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

std::string ExecutableDir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return "";
  return exe.parent_path().string();
}

std::string ResolveDataDir(const char* env, std::string_view exe_dir,
                           std::string_view installed,
                           std::string_view compiled,
                           std::string_view fallback) {
  if (env != nullptr && *env != '\0') return env;
  if (!exe_dir.empty()) {
    fs::path p = fs::path(exe_dir).parent_path() / "share" / "schedtrace" /
                 fs::path(installed);
    // exe_dir "/usr/bin" gives "/usr/share/schedtrace/golden", not a path
    // with "bin/.." left in it (error messages show it).
    if (IsDirectory(p)) return p.lexically_normal().string();
  }
  if (!compiled.empty() && IsDirectory(fs::path(compiled))) {
    return std::string(compiled);
  }
  return std::string(fallback);
}

std::string DefaultGoldenDir() {
  return ResolveDataDir(std::getenv("SCHEDTRACE_GOLDEN"), ExecutableDir(),
                        "golden", kCompiledGoldenDir, "golden");
}

std::string DefaultDocsDir() {
  return ResolveDataDir(nullptr, ExecutableDir(), "docs", kCompiledDocsDir,
                        "docs");
}

}  // namespace schedtrace::cli
