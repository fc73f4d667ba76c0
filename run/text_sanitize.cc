#include "run/text_sanitize.h"

#include <cstdint>

namespace schedtrace {
namespace {

// One UTF-8 sequence at the start of `s` (not empty): its code point and
// length, or cp = -1 and the length of the maximal ill-formed subpart (the
// longest prefix of a well-formed sequence; at least one byte). The ranges
// are the Unicode standard's table 3-7 of well-formed byte sequences.
struct Decoded {
  int32_t cp;
  size_t len;
};

Decoded DecodeOne(std::string_view s) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return {b0, 1};
  size_t need;
  int32_t cp;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    need = 1;
    cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    need = 2;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    need = 3;
    cp = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return {-1, 1};  // a continuation byte, C0, C1 or F5..FF
  }
  size_t len = 1;
  for (size_t k = 0; k < need; ++k, ++len) {
    if (len >= s.size()) return {-1, len};
    const auto b = static_cast<unsigned char>(s[len]);
    if (b < lo || b > hi) return {-1, len};
    cp = (cp << 6) | (b & 0x3F);
    lo = 0x80;
    hi = 0xBF;
  }
  return {cp, len};
}

// Code points shown as an escape, apart from newline and tab.
bool Escaped(int32_t cp) {
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;
  if (cp < 0x061C) return false;  // the common case, quickly
  if (cp == 0x061C || cp == 0x200E || cp == 0x200F) return true;
  if (cp >= 0x2028 && cp <= 0x202E) return true;  // separators, bidi
  if (cp >= 0x2066 && cp <= 0x2069) return true;  // bidi isolates
  if (cp >= 0xFDD0 && cp <= 0xFDEF) return true;  // noncharacters
  return (cp & 0xFFFE) == 0xFFFE;                 // U+xxFFFE, U+xxFFFF
}

void AppendHex(std::string& out, uint32_t v, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) out += kHex[(v >> (4 * i)) & 0xF];
}

void AppendEscape(std::string& out, int32_t cp) {
  switch (cp) {
    case '\n':
      out += "\\n";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\r':
      out += "\\r";
      return;
  }
  if (cp < 0x80) {
    out += "\\x";
    AppendHex(out, cp, 2);
  } else if (cp <= 0xFFFF) {
    out += "\\u";
    AppendHex(out, cp, 4);
  } else {
    out += "\\U";
    AppendHex(out, cp, 8);
  }
}

std::string Sanitize(std::string_view s, bool one_line) {
  std::string out;
  out.reserve(s.size());
  while (!s.empty()) {
    // Runs of plain printable ASCII, the bulk of any message, go in whole.
    size_t plain = 0;
    while (plain < s.size()) {
      const auto c = static_cast<unsigned char>(s[plain]);
      if (c < 0x20 || c >= 0x7F) break;
      ++plain;
    }
    out.append(s.data(), plain);
    s.remove_prefix(plain);
    if (s.empty()) break;
    const Decoded d = DecodeOne(s);
    if (d.cp < 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else if ((d.cp == '\n' || d.cp == '\t') && !one_line) {
      out += static_cast<char>(d.cp);
    } else if (Escaped(d.cp) || d.cp == '\n' || d.cp == '\t') {
      AppendEscape(out, d.cp);
    } else {
      out.append(s.data(), d.len);
    }
    s.remove_prefix(d.len);
  }
  return out;
}

}  // namespace

std::string SanitizeText(std::string_view bytes) {
  return Sanitize(bytes, /*one_line=*/false);
}

std::string SanitizeLine(std::string_view bytes) {
  return Sanitize(bytes, /*one_line=*/true);
}

bool IsSanitizedText(std::string_view text) {
  while (!text.empty()) {
    const Decoded d = DecodeOne(text);
    if (d.cp < 0) return false;
    if (d.cp != '\n' && d.cp != '\t' && Escaped(d.cp)) return false;
    text.remove_prefix(d.len);
  }
  return true;
}

}  // namespace schedtrace
