// Validates the reports `--report` writes with real parsers (report_test.cc,
// exec_test.cc): JUnit XML with xmllint and Python's xml.etree, JSON with
// Python's json module and nlohmann, Markdown by its own rules. Each check
// returns "" when the report is well-formed, else what is wrong.
//
//   EXPECT_EQ(CheckXml(path), "");
//   nlohmann::json cases = XmlTestcases(path);  // what a CI system reads
//
// xmllint (Debian: libxml2-utils) and python3 come with ci/bootstrap; a
// check that cannot run its parser fails, it does not pass silently.
#ifndef SCHEDTRACE_CLI_REPORT_TEST_UTIL_H_
#define SCHEDTRACE_CLI_REPORT_TEST_UTIL_H_

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli_test_util.h"
#include "nlohmann/json.hpp"
#include "run/text_sanitize.h"

namespace schedtrace::cli {

// Every byte value once, 0 to 255: a trace name or message a report must
// make safe.
inline std::string AllBytes() {
  std::string s;
  for (int b = 0; b < 256; ++b) s += static_cast<char>(b);
  return s;
}

// The whole file is UTF-8 with no control character but newline and tab
// (what a terminal or a browser could act on).
inline std::string CheckPrintable(const std::string& text) {
  if (IsSanitizedText(text)) return "";
  return "not valid printable UTF-8";
}

// A Python program run on `path` (sys.argv[1]); its stdout.
inline CliResult RunPython(const std::string& program,
                           const std::string& path) {
  return RunCommand("python3 -c " + ShellQuote(program) + " " +
                    ShellQuote(path) + " 2>&1");
}

// xmllint --noout, then xml.etree.
inline std::string CheckXml(const std::string& path) {
  if (std::string p = CheckPrintable(ReadFileBytes(path)); !p.empty()) {
    return "xml: " + p;
  }
  CliResult lint = RunCommand("xmllint --noout " + ShellQuote(path) + " 2>&1");
  if (lint.status != 0) {
    return "xmllint (libxml2-utils, ci/bootstrap) exit " +
           std::to_string(lint.status) + ": " + lint.output.substr(0, 2000);
  }
  CliResult etree = RunPython(
      "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])", path);
  if (etree.status != 0) {
    return "xml.etree: " + etree.output.substr(0, 2000);
  }
  return "";
}

// What a CI system reads from a JUnit report, through xml.etree: the root's
// attributes, and per testsuite its attributes, properties and testcases
// (attributes, their own properties, and the failure, error or skipped
// element: tag, attributes, text).
inline nlohmann::json XmlTestcases(const std::string& path) {
  static constexpr char kProgram[] = R"(
import json, sys, xml.etree.ElementTree as E
root = E.parse(sys.argv[1]).getroot()
suites = []
for s in root.findall("testsuite"):
    props = {p.get("name"): p.get("value")
             for p in s.findall("properties/property")}
    cases = []
    for c in s.findall("testcase"):
        case = dict(c.attrib)
        case["properties"] = {p.get("name"): p.get("value")
                              for p in c.findall("properties/property")}
        for k in ("failure", "error", "skipped"):
            e = c.find(k)
            if e is not None:
                case["outcome"] = {"tag": k, "attrib": dict(e.attrib),
                                   "text": e.text or ""}
        cases.append(case)
    suites.append({"attrib": dict(s.attrib), "properties": props,
                   "testcases": cases})
print(json.dumps({"tag": root.tag, "attrib": dict(root.attrib),
                  "testsuites": suites}))
)";
  CliResult r = RunPython(kProgram, path);
  if (r.status != 0) return nlohmann::json{{"error", r.output}};
  return nlohmann::json::parse(r.output, nullptr, false);
}

// Python's json.load and nlohmann's parse, which must agree.
inline std::string CheckJson(const std::string& path) {
  const std::string text = ReadFileBytes(path);
  if (std::string p = CheckPrintable(text); !p.empty()) return "json: " + p;
  nlohmann::json ours = nlohmann::json::parse(text, nullptr, false);
  if (ours.is_discarded()) return "nlohmann::json::parse failed";
  CliResult py = RunPython(
      "import json, sys; print(json.dumps(json.load(open(sys.argv[1], "
      "encoding='utf-8'))))",
      path);
  if (py.status != 0) return "python3 json.load: " + py.output.substr(0, 2000);
  nlohmann::json theirs = nlohmann::json::parse(py.output, nullptr, false);
  if (theirs != ours) return "python3 and nlohmann read different values";
  return "";
}

// The fenced code blocks of a Markdown text (CommonMark: a fence is three
// or more backticks or tildes, closed by a line of the same character at
// least as long), and whether every block was closed.
struct MarkdownBlocks {
  std::vector<std::string> blocks;
  bool balanced = true;
};

inline MarkdownBlocks FencedBlocks(const std::string& text) {
  MarkdownBlocks out;
  std::istringstream in(text);
  std::string line, fence, body;
  bool open = false;
  auto fence_of = [](const std::string& l) {
    size_t indent = l.find_first_not_of(' ');
    if (indent == std::string::npos || indent > 3) return std::string();
    char c = l[indent];
    if (c != '`' && c != '~') return std::string();
    size_t n = l.find_first_not_of(c, indent);
    n = (n == std::string::npos ? l.size() : n) - indent;
    return n >= 3 ? std::string(n, c) : std::string();
  };
  while (std::getline(in, line)) {
    std::string f = fence_of(line);
    if (!open) {
      if (!f.empty()) {
        open = true;
        fence = f;
        body.clear();
      }
      continue;
    }
    const bool closes =
        !f.empty() && f[0] == fence[0] && f.size() >= fence.size() &&
        line.find_first_not_of(" " + std::string(1, f[0])) == std::string::npos;
    if (closes) {
      open = false;
      out.blocks.push_back(body);
    } else {
      body += line + "\n";
    }
  }
  out.balanced = !open;
  return out;
}

// Printable UTF-8 (newlines and tabs allowed), every code fence closed.
inline std::string CheckMarkdown(const std::string& path) {
  const std::string text = ReadFileBytes(path);
  if (std::string p = CheckPrintable(text); !p.empty()) return "md: " + p;
  if (!FencedBlocks(text).balanced) return "md: a code fence is not closed";
  return "";
}

// The check for `path`'s extension.
inline std::string CheckReport(const std::string& path) {
  if (path.ends_with(".xml")) return CheckXml(path);
  if (path.ends_with(".json")) return CheckJson(path);
  return CheckMarkdown(path);
}

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_REPORT_TEST_UTIL_H_
