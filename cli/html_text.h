// The HTML report's text (cli/html_report.h): text from a run made safe for
// the page -- sanitized (run/text_sanitize.h), cut when very long, then
// HTML-escaped. Tested through the page (html_report_test.cc).
//
//   absl::StrAppend(&out, "<td>", html::Line(value), "</td>");
#ifndef SCHEDTRACE_CLI_HTML_TEXT_H_
#define SCHEDTRACE_CLI_HTML_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace schedtrace::cli::html {

// How much of a run's text one page shows: a value in a table cell, and a
// message or a description. What is cut says how much; the JSON report
// keeps everything whole.
constexpr size_t kMaxValueBytes = 2000;
constexpr size_t kMaxTextBytes = 20000;

// Sanitized text escaped for HTML element content and quoted attribute
// values.
std::string Escape(std::string_view sanitized);

// Sanitized `s` cut to at most `max` bytes at a character boundary, saying
// how much was left out.
std::string Cut(std::string s, size_t max);

// Sanitized `s` cut to at most `max` bytes at a character boundary, an
// ellipsis in place of the rest: for a one-line summary.
std::string Clip(std::string s, size_t max);

// Text from a run, as HTML: sanitized, cut, escaped. Text keeps its
// newlines (shown by `white-space: pre-wrap`); Line is one line.
std::string Text(std::string_view s, size_t max = kMaxTextBytes);
std::string Line(std::string_view s, size_t max = kMaxValueBytes);

std::string AsciiLower(std::string s);

}  // namespace schedtrace::cli::html

#endif  // SCHEDTRACE_CLI_HTML_TEXT_H_
