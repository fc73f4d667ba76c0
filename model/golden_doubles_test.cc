// The golden traces whose integers a double cannot hold. A reader that
// parses every JSON number as a double (JavaScript's JSON.parse, any reader
// without big integers) sees an integer above 2^53 as the nearest double;
// golden must hold traces such a reader fails, in the queue and cache layers
// of every version from v1.35.4, so that an adapter that reads or writes
// `t`, `backoffExpiresAt` or `requested` through doubles fails in golden,
// not only on generated traces (golden/handwritten/INDEX.md). Each golden
// trace such a reader would read differently is replayed on the model as
// the reader sees it, and some must fail in each of those layers.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/codec.h"
#include "core/trace.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "nlohmann/json.hpp"
#include "run/replay.h"
#include "run/trace_files.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::model {
namespace {

using nlohmann::json;

constexpr int64_t kExactInDouble = int64_t{1} << 53;

// Whether `v` is an integer a double does not hold exactly, or might not.
bool BeyondDouble(const json& v) {
  if (v.is_number_unsigned()) {
    return v.get<uint64_t>() > static_cast<uint64_t>(kExactInDouble);
  }
  if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    return i > kExactInDouble || i < -kExactInDouble;
  }
  return false;
}

// Replaces every integer above 2^53 in magnitude by the nearest double
// (round to nearest, ties to even, as the conversion rounds), as a reader
// that parses numbers as doubles holds it. A double at or past 2^63 is no
// int64 (such a reader would write a number the format refuses): that
// value is left as it was.
void RoundThroughDouble(json& v) {
  if (v.is_object() || v.is_array()) {
    for (json& e : v) RoundThroughDouble(e);
    return;
  }
  if (!v.is_number_integer() || !BeyondDouble(v)) return;
  const double d = v.is_number_unsigned()
                       ? static_cast<double>(v.get<uint64_t>())
                       : static_cast<double>(v.get<int64_t>());
  if (std::fabs(d) < 9223372036854775808.0) v = static_cast<int64_t>(d);
}

// Whether `text` holds a run of 16 digits, as every integer beyond 2^53
// is written: the cheap test that spares the corpus's other files a parse.
bool HasLongNumber(const std::string& text) {
  int run = 0;
  for (char c : text) {
    run = (c >= '0' && c <= '9') ? run + 1 : 0;
    if (run == 16) return true;
  }
  return false;
}

// One golden trace, as a double-based reader sees it: every line rounded
// (the clock `t`, the objects and the expectations alike); comments and
// blank lines as they were.
struct Rounded {
  bool changed = false;  // some integer is not what the trace says
  std::string text;
};

Rounded ThroughDoubles(const std::string& text) {
  Rounded r;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
      r.text += line + "\n";
      continue;
    }
    const json exact = j;
    RoundThroughDouble(j);
    r.changed = r.changed || j != exact;
    r.text += j.dump() + "\n";
  }
  return r;
}

TEST(ThroughDoublesTest, RoundsOnlyWhatADoubleCannotHold) {
  const Rounded r = ThroughDoubles(
      "# a comment\n"
      "{\"t\":9007199254740993,\"a\":9007199254740992,"
      "\"b\":[-9007199254740995,9007199254740999],\"c\":\"9007199254740993\"}"
      "\n");
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(r.text,
            "# a comment\n"
            "{\"a\":9007199254740992,\"b\":[-9007199254740996,"
            "9007199254741000],\"c\":\"9007199254740993\",\"t\":"
            "9007199254740992}\n");
  // 2^53 + 2 is a double: nothing changes.
  EXPECT_FALSE(ThroughDoubles("{\"t\":9007199254740994}\n").changed);
  EXPECT_TRUE(HasLongNumber("{\"t\":9007199254740994}"));
  EXPECT_FALSE(HasLongNumber("{\"t\":900719925474099}"));
}

// Every version from v1.35.4 has, in its queue and its cache layer, a golden
// trace that fails on the model as a double-based reader sees it.
TEST(GoldenDoublesTest, ADoubleReaderFailsInEveryLayerOfEachVersion) {
  absl::StatusOr<std::vector<std::string>> paths =
      FindTraceFiles({GoldenDir()});
  ASSERT_TRUE(paths.ok()) << paths.status();
  std::map<std::string, std::set<Layer>> failed;  // version -> layers
  for (const std::string& path : *paths) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!HasLongNumber(text.str())) continue;
    const Rounded rounded = ThroughDoubles(text.str());
    if (!rounded.changed) continue;
    absl::StatusOr<Trace> trace = ParseTrace(rounded.text, path);
    ASSERT_TRUE(trace.ok()) << trace.status();
    std::unique_ptr<System> sys = NewSystem();
    if (Replay(*sys, *trace).verdict == Verdict::kFailed) {
      failed[std::string(EffectiveUpstream(trace->header.upstream))].insert(
          trace->header.layer);
    }
  }
  for (const char* version : {"v1.35.4", "v1.36.3", "v1.37.2"}) {
    for (Layer layer : {Layer::kQueue, Layer::kCache}) {
      EXPECT_TRUE(failed[version].contains(layer))
          << version << " " << LayerName(layer)
          << ": no golden trace fails as a double-based reader sees it";
    }
  }
}

}  // namespace
}  // namespace schedtrace::model
