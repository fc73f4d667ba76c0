#include "run/choice_stream.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

std::vector<int> Draws(ChoiceStream& c) {
  std::vector<int> v;
  for (int i = 0; i < 20; ++i) v.push_back(c.Uniform(0, 1000));
  for (int i = 0; i < 20; ++i) v.push_back(c.Chance(0.5));
  return v;
}

TEST(RandomChoicesTest, ASeedGivesTheSameChoicesAndVarietyIsItsOwnStream) {
  RandomChoices a(7), b(7), other(8);
  EXPECT_EQ(Draws(a), Draws(b));
  EXPECT_NE(Draws(a), Draws(other));
  // Drawing on Variety() leaves the main stream where it was.
  RandomChoices c(7), d(7);
  (void)Draws(c.Variety());
  EXPECT_EQ(Draws(c), Draws(d));
  EXPECT_NE(Draws(c.Variety()), Draws(c));
}

TEST(RandomChoicesTest, StaysInRangeAndChanceHonoursItsEnds) {
  RandomChoices c(1);
  for (int i = 0; i < 500; ++i) {
    const int v = c.Uniform(-3, 4);
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 4);
    EXPECT_FALSE(c.Chance(0));
    EXPECT_TRUE(c.Chance(1));
  }
}

TEST(ByteChoicesTest, ReadsAsFewBytesAsTheRangeNeeds) {
  const std::string bytes = {5, 7, 1, 2, char(255), 0};
  ByteChoices c(bytes);
  EXPECT_EQ(c.Uniform(10, 13), 11);  // 5 mod 4
  EXPECT_EQ(c.Uniform(0, 255), 7);   // one byte
  // 300 values: two bytes, little-endian (1 + 2 * 256 = 513), mod 300.
  EXPECT_EQ(c.Uniform(0, 299), 513 % 300);
  EXPECT_EQ(c.Uniform(4, 4), 4);  // one value: no byte
  EXPECT_TRUE(c.Chance(0.01));    // 255 fires any chance above 0
  EXPECT_FALSE(c.Chance(0.99));   // 0 fires none below 1
  EXPECT_TRUE(c.exhausted());
}

TEST(ByteChoicesTest, PastTheEndAnswersTheSimplest) {
  ByteChoices c("");
  EXPECT_EQ(c.Uniform(3, 9), 3);
  EXPECT_FALSE(c.Chance(0.9));
  EXPECT_TRUE(c.Chance(1));
  EXPECT_TRUE(c.exhausted());
}

TEST(ByteChoicesTest, ChanceFiresOnTheTopShareOfBytes) {
  int fired = 0;
  for (int b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    ByteChoices c(one);
    fired += c.Chance(0.25);
  }
  EXPECT_EQ(fired, 64);
}

TEST(ByteChoicesTest, CountsTheBytesItTookPastTheEndToo) {
  ByteChoices c("\x01");
  EXPECT_EQ(ByteChoices::UniformBytes(0, 255), 1);
  EXPECT_EQ(ByteChoices::UniformBytes(0, 256), 2);
  EXPECT_EQ(ByteChoices::UniformBytes(2, 2), 0);
  (void)c.Uniform(0, 1000);  // two bytes, one of them past the end
  EXPECT_EQ(c.reads(), 2u);
  (void)c.Chance(0.5);
  EXPECT_EQ(c.reads(), 3u);
}

// A mix of ranges and chances on the main and the variety stream, the
// chances down to one too small for a byte's 1/256.
std::vector<int> Mixed(ChoiceStream& c) {
  std::vector<int> v;
  for (int i = 0; i < 200; ++i) {
    v.push_back(c.Uniform(-5, 5 + i * 400));
    v.push_back(c.Chance(i % 7 == 0 ? 0.001 : 0.3));
    v.push_back(c.Variety().Uniform(0, 3));
    v.push_back(c.Chance(1));
    v.push_back(c.Variety().Chance(0.5));
    v.push_back(c.Uniform(9, 9));
  }
  return v;
}

TEST(RecordingChoicesTest, ByteChoicesReadsTheRecordingBackAsTheSameChoices) {
  for (uint64_t seed : {1, 2, 3}) {
    RandomChoices random(seed);
    RecordingChoices recording(random);
    const std::vector<int> drawn = Mixed(recording);
    RandomChoices again(seed);
    EXPECT_EQ(drawn, Mixed(again)) << "recording changes no answer";
    ByteChoices bytes(recording.bytes());
    EXPECT_EQ(Mixed(bytes), drawn);
    EXPECT_TRUE(bytes.exhausted());
    EXPECT_EQ(bytes.reads(), recording.bytes().size());
  }
}

}  // namespace
}  // namespace schedtrace
