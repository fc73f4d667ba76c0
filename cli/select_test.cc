#include "cli/select.h"

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class SelectTest : public ScratchDirTest {
 protected:
  using ScratchDirTest::Write;
  void SetUp() override {
    ScratchDirTest::SetUp();
    fs::create_directories(dir_ / "corpus" / "queue");
    fs::create_directories(dir_ / "corpus" / "cache");
    Write("corpus/queue/backoff.jsonl", "queue/backoff-doubles", "queue");
    Write("corpus/queue/pop.jsonl", "queue/pop-order", "queue");
    Write("corpus/cache/assume.jsonl", "cache/assume-forget", "cache");
    Write("corpus/cache/broken.jsonl", "{not json\n");
    Write("corpus/notes.txt", "not a trace\n");
  }

  void Write(const std::string& rel, const std::string& name,
             const std::string& layer) {
    Write(rel, absl::StrCat("# a comment line first\n\n",
                            R"({"schedtrace":1,"name":")", name,
                            R"(","layer":")", layer, "\"}\n"));
  }
  std::vector<std::string> Names(const std::vector<TraceFile>& traces) {
    std::vector<std::string> out;
    for (const TraceFile& t : traces) out.push_back(t.display);
    return out;
  }
  std::vector<TraceFile> All() {
    absl::StatusOr<std::vector<TraceFile>> all =
        FindTraces({(dir_ / "corpus").string()});
    EXPECT_TRUE(all.ok()) << all.status();
    return all.ok() ? *all : std::vector<TraceFile>{};
  }
};

TEST_F(SelectTest, KnowsEachHeadersUpstream) {
  Write("v/a.jsonl",
        R"({"schedtrace":1,"name":"a","layer":"queue","upstream":"v1.30.12"})"
        "\n");
  Write("v/b.jsonl",
        R"({"schedtrace":1,"name":"b","layer":"queue","upstream":""})"
        "\n");
  // Unknown: none (the run reports the trace as bad input, naming it).
  Write("v/c.jsonl",
        R"({"schedtrace":1,"name":"c","layer":"queue","upstream":"v9"})"
        "\n");
  absl::StatusOr<std::vector<TraceFile>> v = FindTraces({Path("v")});
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->size(), 3u);
  EXPECT_EQ((*v)[0].upstream, "v1.30.12");
  EXPECT_EQ((*v)[1].upstream, "v1.26.7");
  EXPECT_EQ((*v)[2].upstream, "");
}

TEST_F(SelectTest, FindsTracesWithNamesRelativeToThePathGiven) {
  std::vector<TraceFile> all = All();
  EXPECT_THAT(Names(all),
              ElementsAre("cache/assume.jsonl", "cache/broken.jsonl",
                          "queue/backoff.jsonl", "queue/pop.jsonl"));
  EXPECT_EQ(all[0].name, "cache/assume-forget");
  EXPECT_EQ(all[0].layer, Layer::kCache);
  EXPECT_EQ(all[0].upstream, "v1.26.7");  // no `upstream`: the default
  EXPECT_EQ(all[1].name, "");             // its header does not decode
  EXPECT_FALSE(all[1].layer.has_value());
  EXPECT_EQ(all[1].upstream, "");
  EXPECT_EQ(all[2].path,
            (dir_ / "corpus" / "queue" / "backoff.jsonl").string());

  // A file named directly is named by its file name.
  absl::StatusOr<std::vector<TraceFile>> one =
      FindTraces({(dir_ / "corpus" / "queue" / "pop.jsonl").string()});
  ASSERT_TRUE(one.ok());
  EXPECT_THAT(Names(*one), ElementsAre("pop.jsonl"));

  absl::StatusOr<std::vector<TraceFile>> missing =
      FindTraces({(dir_ / "nope").string()});
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("nope"));
}

TEST_F(SelectTest, GlobsMatchNameOrPathAndPlainWordsMatchAnywhere) {
  std::vector<TraceFile> all = All();
  EXPECT_THAT(Names(Select(all, {.globs = {"backoff"}})),
              ElementsAre("queue/backoff.jsonl"));
  // On the header name (queue/pop-order), not in any path.
  EXPECT_THAT(Names(Select(all, {.globs = {"*pop-order"}})),
              ElementsAre("queue/pop.jsonl"));
  // On the relative path; * crosses /.
  EXPECT_THAT(Names(Select(all, {.globs = {"cache/*"}})),
              ElementsAre("cache/assume.jsonl", "cache/broken.jsonl"));
  // Several globs: any of them.
  EXPECT_THAT(Names(Select(all, {.globs = {"assume", "pop"}})),
              ElementsAre("cache/assume.jsonl", "queue/pop.jsonl"));
  EXPECT_TRUE(Select(all, {.globs = {"zzz"}}).empty());
}

TEST_F(SelectTest, LayerKeepsItsTracesAndThoseThatDoNotDecode) {
  std::vector<TraceFile> all = All();
  EXPECT_THAT(Names(Select(all, {.layer = Layer::kCache})),
              ElementsAre("cache/assume.jsonl", "cache/broken.jsonl"));
  EXPECT_THAT(Names(Select(all, {.layer = Layer::kQueue})),
              ElementsAre("cache/broken.jsonl", "queue/backoff.jsonl",
                          "queue/pop.jsonl"));
}

TEST_F(SelectTest, LastFailedRoundTripsAndNarrowsTheSelection) {
  const std::string file = (dir_ / "state" / "lastfailed.json").string();
  std::vector<TraceFile> all = All();
  {
    LastFailed last(file);
    ASSERT_TRUE(last.Load().ok());  // no file yet: empty
    EXPECT_TRUE(last.failed().empty());
    last.Record(all[2].path, true);
    last.Record(all[3].path, true);
    last.Record(all[3].path, false);  // it passed later
    ASSERT_TRUE(last.Save().ok());
  }
  LastFailed again(file);
  ASSERT_TRUE(again.Load().ok());
  EXPECT_EQ(again.failed().size(), 1u);
  EXPECT_THAT(Names(Select(all, {.only = again.failed()})),
              ElementsAre("queue/backoff.jsonl"));

  std::ofstream(file) << "garbage";
  LastFailed bad(file);
  absl::Status s = bad.Load();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("lastfailed.json"));
}

}  // namespace
}  // namespace schedtrace::cli
