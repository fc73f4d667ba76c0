// impl's one replay of the golden corpus (golden/: traces recorded from each
// upstream version, handwritten and regression traces), a test per layer:
// every trace passes on one impl System configured again for each (on the
// profile its header names), with every property checked after every step,
// the incremental check agreeing with the full one and SnapshotInto
// agreeing with Snapshot (properties/golden_pass_test_util.h). impl judges
// every layer of every version: a trace it refuses fails.
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "impl/system.h"
#include "properties/golden_pass_test_util.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::impl {
namespace {

struct LayerCorpus {
  Layer layer;
  int upstream;     // traces recorded from each upstream version
  int handwritten;  // at least
};

void PrintTo(const LayerCorpus& c, std::ostream* os) {
  *os << LayerName(c.layer);
}

class GoldenPass : public testing::TestWithParam<LayerCorpus> {};

TEST_P(GoldenPass, EveryTracePassesEveryCheck) {
  const LayerCorpus& want = GetParam();
  const std::vector<GoldenFile> files =
      ReadGoldenLayer(GoldenDir(), want.layer);
  int handwritten = 0;
  for (const GoldenFile& f : files) {
    handwritten += f.path.find("/handwritten/") != std::string::npos;
  }
  // Each version's recordings (golden/upstream-<version>/, without the
  // hand-written inputs it also recorded).
  for (const std::string& version : KnownUpstreams()) {
    const std::string dir = "/upstream-" + version + "/";
    int upstream = 0;
    for (const GoldenFile& f : files) {
      if (f.path.find(dir) == std::string::npos) continue;
      EXPECT_EQ(f.trace.header.upstream, version) << f.path;
      upstream += f.path.find(dir + "handwritten/") == std::string::npos;
    }
    EXPECT_EQ(upstream, want.upstream) << version;
  }
  EXPECT_GE(handwritten, want.handwritten);
  // No version's header is refused as not implemented.
  for (const std::string& version : KnownUpstreams()) {
    int judged = 0;
    for (const GoldenFile& f : files) {
      if (EffectiveUpstream(f.trace.header.upstream) != version) continue;
      ++judged;
      const absl::Status s = NewSystem()->Configure(f.trace.header);
      EXPECT_FALSE(absl::IsUnimplemented(s)) << f.path << ": " << s;
    }
    EXPECT_GE(judged, want.upstream) << version;
  }

  const properties::GoldenPassResult r =
      properties::RunGoldenPass(&NewSystem, files);
  EXPECT_EQ(r.traces, static_cast<int>(files.size()));
  int known = 0;
  for (const auto& ids : r.known) known += !ids.empty();
  EXPECT_GT(known, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, GoldenPass,
                         testing::Values(LayerCorpus{Layer::kQueue, 168, 20},
                                         LayerCorpus{Layer::kCache, 86, 10},
                                         LayerCorpus{Layer::kScheduler, 89,
                                                     20}),
                         [](const testing::TestParamInfo<LayerCorpus>& info) {
                           return std::string(LayerName(info.param.layer));
                         });

}  // namespace
}  // namespace schedtrace::impl
