#include "cli/html_text.h"

#include "absl/strings/str_cat.h"
#include "run/text_sanitize.h"

namespace schedtrace::cli::html {

// Sanitized text escaped for HTML element content and quoted attribute
// values.
std::string Escape(std::string_view sanitized) {
  std::string out;
  out.reserve(sanitized.size() + sanitized.size() / 8);
  for (char c : sanitized) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Sanitized `s` cut to at most `max` bytes at a character boundary, saying
// how much was left out.
std::string Cut(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  const size_t left_out = s.size() - end;
  s.resize(end);
  absl::StrAppend(&s, "\xE2\x80\xA6 [", left_out,
                  " more bytes not shown: the JSON report has them]");
  return s;
}

// Sanitized `s` cut to at most `max` bytes at a character boundary, an
// ellipsis in place of the rest: for a one-line summary.
std::string Clip(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  s.resize(end);
  return s + "\xE2\x80\xA6";
}

// Text from a run, as HTML: sanitized (run/text_sanitize.h), cut,
// escaped. Text keeps its newlines (shown by `white-space: pre-wrap`); Line
// is one line.
std::string Text(std::string_view s, size_t max) {
  return Escape(Cut(SanitizeText(s), max));
}
std::string Line(std::string_view s, size_t max) {
  return Escape(Cut(SanitizeLine(s), max));
}

std::string AsciiLower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

}  // namespace schedtrace::cli::html
