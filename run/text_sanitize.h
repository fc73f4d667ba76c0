// Text from outside the harness (a child's stderr, the bytes of a bad reply,
// a file name) made safe to show anywhere: a terminal, Markdown, XML, JSON.
//
//   std::cout << "FAIL " << SanitizeLine(path) << "\n  "
//             << SanitizeText(result.message) << "\n";
//
// The result is valid UTF-8 that shows every character it keeps and acts on
// nothing:
//   - an ill-formed UTF-8 sequence becomes U+FFFD, one per maximal ill-formed
//     subpart (the Unicode standard's "substitution of maximal subparts", what
//     browsers and Python's errors="replace" do): overlong forms, surrogates
//     (ED A0..BF ..), code points above U+10FFFF, stray continuation bytes and
//     sequences cut short;
//   - C0 controls other than newline and tab, DEL and C1 controls (U+0080 to
//     U+009F) become visible escapes: `\x1b`, `\x00`, `\x07`, `\r` for a
//     carriage return, `\x7f`, `\u009b` (so an ANSI escape sequence cannot
//     move a cursor, retitle a window or ring a bell, and XML 1.0, which
//     forbids most C0 controls, can hold the text);
//   - characters that change how the text around them displays or that XML
//     1.0 forbids become `\uXXXX` escapes too: the line and paragraph
//     separators U+2028 and U+2029, the bidirectional controls (U+061C,
//     U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069: "Trojan Source"),
//     and the noncharacters (U+FDD0 to U+FDEF and U+xxFFFE, U+xxFFFF, as
//     `\U0001fffe` above U+FFFF).
// Everything else, however long its lines, is kept byte for byte: valid
// UTF-8 text without those characters comes back unchanged, and the
// function is idempotent. A backslash is not escaped: a `\x1b` in the result
// may have been four characters in the input (the text is for people).
#ifndef SCHEDTRACE_RUN_TEXT_SANITIZE_H_
#define SCHEDTRACE_RUN_TEXT_SANITIZE_H_

#include <string>
#include <string_view>

namespace schedtrace {

// `bytes` as above; newlines and tabs kept.
std::string SanitizeText(std::string_view bytes);

// The same on one line: newlines and tabs also become `\n` and `\t`. For a
// terminal line, an XML attribute, a Markdown table cell or heading.
std::string SanitizeLine(std::string_view bytes);

// Whether SanitizeText(text) == text: valid UTF-8 without anything it
// escapes (newlines and tabs allowed).
bool IsSanitizedText(std::string_view text);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_TEXT_SANITIZE_H_
