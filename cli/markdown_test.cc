#include "cli/markdown.h"

#include "cli/report_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

TEST(MarkdownTest, TextEscapesWhatWouldBeStructure) {
  EXPECT_EQ(MdText("a|b `c` <d> & [e] \\"),
            "a\\|b \\`c\\` \\<d\\> \\& \\[e\\] \\\\");
  // A newline is written \n (SanitizeLine), its backslash escaped.
  EXPECT_EQ(MdText("one\nline"), "one\\\\nline");
}

TEST(MarkdownTest, CodeOutlastsTheBackticksInside) {
  EXPECT_EQ(MdCode("q_pop"), "`q_pop`");
  EXPECT_EQ(MdCode("a`b"), "``a`b``");
  EXPECT_EQ(MdCode("`x"), "`` `x ``");
  EXPECT_EQ(MdCode(""), "(none)");
}

TEST(MarkdownTest, AFenceNoLineInsideCanClose) {
  const std::string text = "```\nx\n````";
  const MarkdownBlocks b = FencedBlocks(MdFence(text));
  ASSERT_TRUE(b.balanced);
  ASSERT_EQ(b.blocks.size(), 1u);
  EXPECT_EQ(b.blocks[0], text + "\n");
}

}  // namespace
}  // namespace schedtrace::cli
