#include "run/step_source_go_corners.h"

#include <charconv>
#include <cstdint>
#include <set>
#include <string>

#include "core/go_rfc3339.h"
#include "core/objects.h"
#include "core/quantity.h"
#include "gtest/gtest.h"

namespace schedtrace::step_source {
namespace {

// strconv.Atoi on 64-bit Go: one optional sign, then decimal digits.
bool Atoi(const std::string& s, int64_t& out) {
  const char* b = s.data();
  const char* e = b + s.size();
  if (b != e && *b == '+' && e - b > 1 && b[1] != '-') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return b != e && ec == std::errc() && p == e;
}

// The first seed whose dice have the corners on.
GoDice OnDice() {
  for (uint64_t seed = 1;; ++seed) {
    GoDice d(seed, 0);
    if (d.on()) return d;
  }
}

TEST(GoDiceTest, OneTraceInFourHasTheCornersOn) {
  int on = 0;
  for (uint64_t seed = 1; seed <= 4000; ++seed) on += GoDice(seed, 2).on();
  EXPECT_GT(on, 800);
  EXPECT_LT(on, 1200);
  GoDice off;
  EXPECT_FALSE(off.Fire(1.0));  // a source that never drew its dice
}

// Every spelling reads, as strconv.Atoi reads it, what the plain text
// reads (or, for 0, is no integer and so scores 0 too).
TEST(GoScoreSpellingTest, KeepsTheScore) {
  GoDice d = OnDice();
  std::set<std::string> seen;
  for (int i = 0; i < 2000; ++i) {
    for (const std::string text : {"0", "7", "42", "101", "-3"}) {
      const std::string spelt = GoScoreSpelling(d, text);
      seen.insert(spelt);
      int64_t want = 0, got = 0;
      ASSERT_TRUE(Atoi(text, want));
      if (!Atoi(spelt, got)) got = 0;
      EXPECT_EQ(got, want) << '"' << spelt << "\" for " << text;
    }
  }
  for (const char* s : {"+7", "07", "+0", "-0", " 0", "-03", "+101"}) {
    EXPECT_TRUE(seen.count(s)) << s;
  }
}

TEST(GoHugeQuantityTest, ParsesAndOverflows) {
  GoDice d = OnDice();
  int overflowed = 0;
  for (int i = 0; i < 200; ++i) {
    absl::StatusOr<Quantity> q = ParseQuantity(GoHugeQuantity(d));
    ASSERT_TRUE(q.ok()) << q.status();
    EXPECT_TRUE(WithinExactSumRange(*q));
    // Overflowed: the value read is not the quantity's (0, wrapped, or a
    // MilliValue that is not 1000 times the Value).
    overflowed += q->MilliValue() / 1000 != q->Value();
  }
  EXPECT_GT(overflowed, 100);
}

TEST(GoTimeTextTest, SpellsTheInstantAsGoReadsIt) {
  GoDice d = OnDice();
  std::set<char> hour_digits;
  for (int i = 0; i < 500; ++i) {
    const int64_t sec = kTraceEpochSeconds + i * 7919;
    const std::string exact = GoTimeText(d, sec, /*exact=*/true);
    absl::StatusOr<GoInstant> t = ParseGoRfc3339(exact);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(*t, (GoInstant{sec, 0})) << exact;
    EXPECT_NE(exact, K8sTime(sec));
    const std::string loose = GoTimeText(d, sec, /*exact=*/false);
    t = ParseGoRfc3339(loose);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ(t->unix_seconds, sec) << loose;
    hour_digits.insert(loose[12]);
  }
  EXPECT_TRUE(hour_digits.count(':'));  // a one-digit hour now and then
}

}  // namespace
}  // namespace schedtrace::step_source
