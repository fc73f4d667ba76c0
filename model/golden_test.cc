// The model's one replay of the golden corpus (golden/: upstream-recorded,
// handwritten and regression traces), a test per layer: every trace passes
// on one model System configured again for each, with every property
// checked after every step, the incremental check agreeing with the full
// one and SnapshotInto agreeing with Snapshot
// (properties/golden_pass_test_util.h). The corpus is read once here, so
// the codec's checks on it run here too (ExpectCodecRoundTrip: expectations
// re-encode exactly, traces round-trip through EncodeTrace, pods and nodes
// are what Kubernetes' Go types accept), and so does the check that
// GoldenSample() still stands for the corpus.
#include <ostream>
#include <string>
#include <vector>

#include "core/upstream_versions.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "properties/golden_pass_test_util.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::model {
namespace {

struct LayerCorpus {
  Layer layer;
  int upstream;  // traces recorded from upstream v1.26.7
  // At least this many expected outs and states re-encode exactly, and
  // written traces carry a deletionTimestamp (a check over nothing passes).
  int outs;
  int states;
  int deleting;
};

void PrintTo(const LayerCorpus& c, std::ostream* os) {
  *os << LayerName(c.layer);
}

class GoldenPass : public testing::TestWithParam<LayerCorpus> {};

TEST_P(GoldenPass, EveryTracePassesEveryCheck) {
  const LayerCorpus& want = GetParam();
  const std::vector<GoldenFile> files =
      ReadGoldenLayer(GoldenDir(), want.layer);
  // Each version's recordings, every one of them (the same inputs), without
  // the hand-written inputs a corpus also recorded (its handwritten/).
  for (const std::string& version : KnownUpstreams()) {
    int upstream = 0;
    for (const GoldenFile& f : files) {
      upstream +=
          f.path.find("/upstream-" + version + "/") != std::string::npos &&
          f.path.find("/upstream-" + version + "/handwritten/") ==
              std::string::npos;
    }
    EXPECT_EQ(upstream, want.upstream) << version;
  }

  CodecCounts codec;
  for (const GoldenFile& f : files) ExpectCodecRoundTrip(f, codec);
  EXPECT_GE(codec.outs, want.outs);
  EXPECT_GE(codec.states, want.states);
  EXPECT_GE(codec.deleting, want.deleting);

  const properties::GoldenPassResult r =
      properties::RunGoldenPass(&NewSystem, files);
  EXPECT_EQ(r.traces, static_cast<int>(files.size()));
  // Every layer's corpus shows known upstream violations, counted, not
  // failed.
  int known = 0;
  for (const auto& ids : r.known) known += !ids.empty();
  EXPECT_GT(known, 0);
  properties::ExpectSampleShowsWhatTheCorpusShows(files, r);
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, GoldenPass,
    testing::Values(LayerCorpus{Layer::kQueue, 168, 10000, 10000, 0},
                    LayerCorpus{Layer::kCache, 86, 4500, 4500, 0},
                    LayerCorpus{Layer::kScheduler, 89, 5500, 5500, 20}),
    [](const testing::TestParamInfo<LayerCorpus>& info) {
      return std::string(LayerName(info.param.layer));
    });

}  // namespace
}  // namespace schedtrace::model
