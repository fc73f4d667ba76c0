// Text from a run made safe for Markdown (the `--report=FILE.md` reports of
// report.h and versions_report.h): whatever bytes it holds (a child's
// stderr, a trace's names), it stays text, sanitized first
// (run/text_sanitize.h), and cannot end a table cell, a code span or a
// fenced block early.
//
//   out << "| " << MdText(name) << " | " << MdCode(path) << " |\n";
//   out << MdFence(whole_message);
#ifndef SCHEDTRACE_CLI_MARKDOWN_H_
#define SCHEDTRACE_CLI_MARKDOWN_H_

#include <string>
#include <string_view>

namespace schedtrace::cli {

// Text for a table cell or a heading: one line, with what Markdown would
// read as structure, HTML or an entity escaped by a backslash.
std::string MdText(std::string_view s);

// Inline code: delimited by more backticks than any run inside; "(none)"
// for empty text.
std::string MdCode(std::string_view s);

// A fenced code block holding `s` verbatim (sanitized): the fence is longer
// than any backtick run inside, so no line of `s` can close it.
std::string MdFence(std::string_view s);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_MARKDOWN_H_
