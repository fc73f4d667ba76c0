// Opens a file in a real headless browser, for tests that look at a page as
// a person would (html_report_test.cc): Debian's `chromium`, which
// ci/bootstrap installs.
//
//   HeadlessBrowser browser(dir);
//   SCHEDTRACE_REQUIRE_BROWSER(browser);  // fails in CI, skips elsewhere
//   BrowserRun dom = browser.DumpDom(page);  // the DOM after scripts ran
//   BrowserRun shot = browser.Screenshot(page, png, 1280, 1600);
//   PngStats stats = ReadPngStats(png);
//   std::vector<std::string> urls = browser.PageRequests(page);
//
// Every run is bounded (`timeout`), offline (every host name resolves to
// nothing, background networking off), in a profile and HOME of its own
// under `dir`, without the sandbox (a container has no user namespaces) and
// without /dev/shm (often tiny in one).
#ifndef SCHEDTRACE_CLI_HEADLESS_BROWSER_TEST_UTIL_H_
#define SCHEDTRACE_CLI_HEADLESS_BROWSER_TEST_UTIL_H_

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli/report_test_util.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {

// Whether the tests run in CI (CI=true, as CI services set it): there a
// missing browser fails the test instead of skipping it.
inline bool InCi() {
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  const std::string v = ci;
  return !v.empty() && v != "false" && v != "0";
}

struct BrowserRun {
  int status = -1;     // the exit status (124: the timeout ended it)
  std::string output;  // stdout: the DOM for DumpDom
  std::string log;     // the browser's stderr, for a failure message
};

// What a PNG file holds, read by Python's zlib (no image library needed).
struct PngStats {
  std::string error;  // "" when the file is a PNG
  int width = 0, height = 0;
  // Distinct scanlines: 1 or 2 for a blank page, hundreds for a page with
  // text, tables and colours.
  int distinct_rows = 0;
};

inline PngStats ReadPngStats(const std::string& path) {
  static constexpr char kProgram[] = R"(
import json, struct, sys, zlib
b = open(sys.argv[1], "rb").read()
if b[:8] != b"\x89PNG\r\n\x1a\n":
    print(json.dumps({"error": "not a PNG"})); sys.exit(0)
i, idat, w, h, depth, kind = 8, b"", 0, 0, 8, 6
while i + 8 <= len(b):
    n, = struct.unpack(">I", b[i:i + 4]); t = b[i + 4:i + 8]
    d = b[i + 8:i + 8 + n]; i += 12 + n
    if t == b"IHDR": w, h, depth, kind = struct.unpack(">IIBB", d[:10])
    elif t == b"IDAT": idat += d
raw = zlib.decompress(idat)
channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[kind]
stride = 1 + (w * channels * depth + 7) // 8
rows = {raw[k * stride:(k + 1) * stride] for k in range(h)}
print(json.dumps({"width": w, "height": h, "distinct_rows": len(rows)}))
)";
  PngStats s;
  CliResult r = RunPython(kProgram, path);
  nlohmann::json j = nlohmann::json::parse(r.output, nullptr, false);
  if (r.status != 0 || j.is_discarded() || !j.is_object()) {
    s.error = "cannot read the PNG: " + r.output.substr(0, 2000);
    return s;
  }
  if (j.contains("error")) {
    s.error = j["error"].get<std::string>();
    return s;
  }
  s.width = j.value("width", 0);
  s.height = j.value("height", 0);
  s.distinct_rows = j.value("distinct_rows", 0);
  return s;
}

class HeadlessBrowser {
 public:
  // Seconds one run of the browser may take before it is killed.
  static constexpr int kTimeoutSeconds = 90;

  explicit HeadlessBrowser(std::filesystem::path dir) : dir_(std::move(dir)) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      CliResult r = RunCommand(std::string("command -v ") + name);
      if (r.status == 0 && !r.output.empty()) {
        binary_ = r.output.substr(0, r.output.find('\n'));
        break;
      }
    }
  }

  bool found() const { return !binary_.empty(); }
  const std::string& binary() const { return binary_; }

  // The DOM once the page has loaded and its scripts ran.
  BrowserRun DumpDom(const std::string& page) const {
    return Run("--dump-dom", page);
  }

  // A screenshot of the top `width` x `height` pixels of the page.
  BrowserRun Screenshot(const std::string& page, const std::string& png,
                        int width, int height) const {
    return Run("--hide-scrollbars --window-size=" + std::to_string(width) +
                   "," + std::to_string(height) +
                   " --screenshot=" + ShellQuote(png),
               page);
  }

  // Loads the page with a network log and returns the URLs of the requests
  // the page made (not the browser's own background requests: those have
  // no initiator); `*error` says why the log could not be read.
  std::vector<std::string> PageRequests(const std::string& page,
                                        std::string* error) const {
    const std::string log = (dir_ / ("netlog-" + Next() + ".json")).string();
    BrowserRun r =
        Run("--log-net-log=" + ShellQuote(log) + " --dump-dom", page);
    std::vector<std::string> urls;
    nlohmann::json j =
        nlohmann::json::parse(ReadFileBytes(log), nullptr, false);
    if (r.status != 0 || j.is_discarded() || !j.contains("constants") ||
        !j.contains("events")) {
      *error = "no network log (exit " + std::to_string(r.status) +
               "): " + r.log.substr(0, 2000);
      return urls;
    }
    const nlohmann::json& types = j["constants"]["logEventTypes"];
    if (!types.contains("URL_REQUEST_START_JOB")) {
      *error = "the network log names no URL_REQUEST_START_JOB";
      return urls;
    }
    const int start = types["URL_REQUEST_START_JOB"].get<int>();
    for (const nlohmann::json& e : j["events"]) {
      if (!e.contains("type") || e["type"] != start) continue;
      const nlohmann::json p = e.value("params", nlohmann::json::object());
      if (!p.contains("url")) continue;
      if (p.value("initiator", "") == "not an origin") continue;  // browser's
      urls.push_back(p["url"].get<std::string>());
    }
    return urls;
  }

 private:
  std::string Next() const { return std::to_string(++runs_); }

  BrowserRun Run(const std::string& flags, const std::string& page) const {
    const std::string n = Next();
    const std::filesystem::path home = dir_ / ("browser-home-" + n);
    std::filesystem::create_directories(home);
    const std::string log = (dir_ / ("browser-" + n + ".log")).string();
    const std::string url =
        "file://" + std::filesystem::absolute(page).string();
    const std::string cmd =
        "HOME=" + ShellQuote(home.string()) + " timeout -k 5 " +
        std::to_string(kTimeoutSeconds) + " " + ShellQuote(binary_) +
        " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage"
        " --no-first-run --no-default-browser-check --disable-extensions"
        " --disable-background-networking --disable-component-update"
        " --disable-sync --disable-default-apps"
        " --host-resolver-rules='MAP * ~NOTFOUND'"
        " --user-data-dir=" +
        ShellQuote((home / "profile").string()) + " " + flags + " " +
        ShellQuote(url) + " 2>" + ShellQuote(log);
    CliResult r = RunCommand(cmd);
    BrowserRun out;
    out.status = r.status;
    out.output = std::move(r.output);
    out.log = ReadFileBytes(log);
    if (out.log.size() > 4000) out.log = out.log.substr(out.log.size() - 4000);
    return out;
  }

  std::filesystem::path dir_;
  std::string binary_;
  mutable int runs_ = 0;
};

// In a TEST body: a missing browser fails the test in CI and skips it
// elsewhere.
#define SCHEDTRACE_REQUIRE_BROWSER(browser)                               \
  do {                                                                    \
    if (!(browser).found()) {                                             \
      if (::schedtrace::cli::InCi()) {                                    \
        FAIL() << "chromium is not installed (ci/bootstrap installs it)"; \
      }                                                                   \
      GTEST_SKIP() << "chromium is not installed (ci/bootstrap installs " \
                      "it); in CI (CI=true) this fails";                  \
    }                                                                     \
  } while (0)

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_HEADLESS_BROWSER_TEST_UTIL_H_
