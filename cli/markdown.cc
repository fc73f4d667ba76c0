#include "cli/markdown.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

size_t LongestRun(std::string_view s, char c) {
  size_t best = 0, run = 0;
  for (char x : s) {
    run = x == c ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

}  // namespace

std::string MdText(std::string_view s) {
  std::string out;
  for (char c : SanitizeLine(s)) {
    if (c == '\\' || c == '|' || c == '<' || c == '>' || c == '&' || c == '`' ||
        c == '[' || c == ']') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string MdCode(std::string_view s) {
  std::string text = SanitizeLine(s);
  if (text.empty()) return "(none)";
  std::string delim(LongestRun(text, '`') + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' ||
                                     text.back() == '`' || text.front() == ' ');
  return pad ? absl::StrCat(delim, " ", text, " ", delim)
             : absl::StrCat(delim, text, delim);
}

std::string MdFence(std::string_view s) {
  std::string text = SanitizeText(s);
  if (text.empty() || text.back() != '\n') text += '\n';
  std::string fence(std::max<size_t>(3, LongestRun(text, '`') + 1), '`');
  return absl::StrCat(fence, "\n", text, fence, "\n");
}

}  // namespace schedtrace::cli
