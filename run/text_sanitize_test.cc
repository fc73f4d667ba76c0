#include "run/text_sanitize.h"

#include <cstdint>
#include <string>
#include <string_view>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Utf8(uint32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s += static_cast<char>(cp);
  } else if (cp < 0x800) {
    s += static_cast<char>(0xC0 | (cp >> 6));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (cp >> 18));
    s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return s;
}

// An independent check of the guarantee, by the decoding rules written out
// another way (RFC 3629's ABNF): valid UTF-8 whose code points are all
// printable (no C0 but \n and \t, no DEL, no C1, no U+FFFE/U+FFFF, nothing
// XML 1.0 forbids).
bool ValidPrintableUtf8(std::string_view s) {
  size_t i = 0;
  auto cont = [&](size_t k) {
    return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
  };
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    uint32_t cp;
    size_t n;
    if (b < 0x80) {
      cp = b;
      n = 1;
    } else if ((b >> 5) == 6) {
      if (!cont(1)) return false;
      cp = ((b & 0x1F) << 6) | (s[i + 1] & 0x3F);
      n = 2;
      if (cp < 0x80) return false;
    } else if ((b >> 4) == 14) {
      if (!cont(1) || !cont(2)) return false;
      cp = ((b & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
      n = 3;
      if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    } else if ((b >> 3) == 30) {
      if (!cont(1) || !cont(2) || !cont(3)) return false;
      cp = ((b & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) |
           ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
      n = 4;
      if (cp < 0x10000 || cp > 0x10FFFF) return false;
    } else {
      return false;
    }
    if (cp < 0x20 && cp != '\n' && cp != '\t') return false;
    if (cp >= 0x7F && cp <= 0x9F) return false;
    if (cp == 0xFFFE || cp == 0xFFFF) return false;
    i += n;
  }
  return true;
}

TEST(SanitizeTextTest, KeepsPrintableTextNewlinesAndTabs) {
  const std::string text =
      "exec:./x: exited with status 3; last stderr lines:\n    | a\tb é ✓ 𝄞";
  EXPECT_EQ(SanitizeText(text), text);
  EXPECT_TRUE(IsSanitizedText(text));
  EXPECT_EQ(SanitizeText(""), "");
}

TEST(SanitizeTextTest, EscapesControls) {
  EXPECT_EQ(SanitizeText("\x1b[31mred\x1b[0m"), "\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(SanitizeText(std::string_view("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(SanitizeText("bell\a"), "bell\\x07");
  EXPECT_EQ(SanitizeText("crlf\r\n"), "crlf\\r\n");
  EXPECT_EQ(SanitizeText("del\x7f"), "del\\x7f");
  EXPECT_EQ(SanitizeText("\x1b]0;title\a"), "\\x1b]0;title\\x07");
  // C1 controls as characters (U+009B: CSI), not as stray bytes.
  EXPECT_EQ(SanitizeText("\xC2\x9B"
                         "2J"),
            "\\u009b2J");
  EXPECT_EQ(SanitizeText("\xC2\x85"), "\\u0085");
  EXPECT_FALSE(IsSanitizedText("\x1b"));
}

TEST(SanitizeTextTest, EscapesCharactersThatChangeTheTextAround) {
  EXPECT_EQ(SanitizeText(Utf8(0x202E) + "cba"), "\\u202ecba");
  EXPECT_EQ(SanitizeText(Utf8(0x2066)), "\\u2066");
  EXPECT_EQ(SanitizeText(Utf8(0x200F)), "\\u200f");
  EXPECT_EQ(SanitizeText(Utf8(0x2028)), "\\u2028");
  EXPECT_EQ(SanitizeText(Utf8(0xFFFE)), "\\ufffe");
  EXPECT_EQ(SanitizeText(Utf8(0xFFFF)), "\\uffff");
  EXPECT_EQ(SanitizeText(Utf8(0xFDD0)), "\\ufdd0");
  EXPECT_EQ(SanitizeText(Utf8(0x1FFFE)), "\\U0001fffe");
  EXPECT_EQ(SanitizeText(Utf8(0x10FFFF)), "\\U0010ffff");
  // Neighbours stay.
  EXPECT_EQ(SanitizeText(Utf8(0x2027)), Utf8(0x2027));
  EXPECT_EQ(SanitizeText(Utf8(0xFFFD)), Utf8(0xFFFD));
  EXPECT_EQ(SanitizeText(Utf8(0x10FFFD)), Utf8(0x10FFFD));
}

TEST(SanitizeTextTest, ReplacesEachMaximalIllFormedSubpartOnce) {
  const std::string r = "\xEF\xBF\xBD";  // U+FFFD
  EXPECT_EQ(SanitizeText("a\xFF"
                         "b"),
            "a" + r + "b");
  EXPECT_EQ(SanitizeText("\x80\x80"), r + r);          // stray continuations
  EXPECT_EQ(SanitizeText("\xC0\xAF"), r + r);          // overlong '/'
  EXPECT_EQ(SanitizeText("\xE0\x80\xAF"), r + r + r);  // overlong
  EXPECT_EQ(SanitizeText("\xED\xA0\x80"), r + r + r);  // a surrogate
  EXPECT_EQ(SanitizeText("\xF4\x90\x80\x80"), r + r + r + r);  // > U+10FFFF
  EXPECT_EQ(SanitizeText("\xE2\x9C"), r);                      // cut short
  EXPECT_EQ(SanitizeText("\xE2\x9C"
                         "x"),
            r + "x");
  EXPECT_EQ(SanitizeText("\xF0\x9D\x84"), r);         // three of four bytes
  EXPECT_EQ(SanitizeText("\xE9t\xE9"), r + "t" + r);  // Latin-1
  // The Unicode standard's example (section 3.9, U+FFFD substitution).
  EXPECT_EQ(SanitizeText("a\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            "a" + r + r + r + "b" + r + "c" + r + r + "d");
  EXPECT_FALSE(IsSanitizedText("\xE2\x9C"));
}

TEST(SanitizeTextTest, LineEscapesNewlinesAndTabsToo) {
  EXPECT_EQ(SanitizeLine("a\nb\tc\r\n"), "a\\nb\\tc\\r\\n");
  EXPECT_EQ(SanitizeLine("\x1b[2J\xFF"), "\\x1b[2J\xEF\xBF\xBD");
  EXPECT_THAT(SanitizeLine(std::string(70000, 'x') + "\n"), HasSubstr("\\n"));
}

TEST(SanitizeTextTest, EveryByteAndPairOfBytesComesOutValidAndPrintable) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  for (const std::string& s :
       {all, all + all, std::string(all.rbegin(), all.rend())}) {
    const std::string text = SanitizeText(s);
    EXPECT_TRUE(ValidPrintableUtf8(text));
    EXPECT_TRUE(IsSanitizedText(text));
    EXPECT_EQ(SanitizeText(text), text);  // idempotent
    const std::string line = SanitizeLine(s);
    EXPECT_TRUE(ValidPrintableUtf8(line));
    EXPECT_THAT(line, Not(HasSubstr("\n")));
    EXPECT_THAT(line, Not(HasSubstr("\t")));
  }
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const char pair[] = {static_cast<char>(a), static_cast<char>(b), 'z'};
      const std::string text = SanitizeText(std::string_view(pair, 3));
      ASSERT_TRUE(ValidPrintableUtf8(text)) << a << " " << b;
      ASSERT_EQ(SanitizeText(text), text) << a << " " << b;
      ASSERT_EQ(text.back(), 'z') << a << " " << b;  // nothing swallowed
    }
  }
}

TEST(SanitizeTextTest, EveryCodePointIsKeptOrEscapedNeverLost) {
  for (uint32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const std::string in = Utf8(cp);
    const std::string out = SanitizeText(in);
    ASSERT_TRUE(ValidPrintableUtf8(out)) << cp;
    ASSERT_EQ(IsSanitizedText(in), out == in) << cp;
    if (out != in) {
      ASSERT_EQ(out[0], '\\') << cp;  // an escape, not a replacement
    }
    if (cp >= 0xA0 && cp < 0x600) {  // Latin to Hebrew: all kept
      ASSERT_EQ(out, in) << cp;
    }
  }
}

TEST(SanitizeTextTest, LongLinesAreKeptWhole) {
  std::string line(64 * 1024, 'y');
  line[100] = '\x1b';
  const std::string out = SanitizeText(line + "\n" + line);
  EXPECT_EQ(out.size(), 2 * (line.size() + 3) + 1);
  EXPECT_EQ(out.find('\n'), line.size() + 3);
}

}  // namespace
}  // namespace schedtrace
