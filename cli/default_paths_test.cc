// Tests of default_paths.h: the order in which `schedtrace` looks for its
// golden corpus and docs (environment, installed layout, source tree,
// relative fallback).
#include "cli/default_paths.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "cli/cli_test_util.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

namespace fs = std::filesystem;

// A scratch directory laid out like an installed prefix on demand.
class DefaultPathsTest : public ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    fs::create_directories(dir_ / "prefix" / "bin");
    fs::create_directories(dir_ / "src" / "golden");
  }

  std::string Bin() const { return (dir_ / "prefix" / "bin").string(); }
  std::string Installed(const std::string& what) const {
    return (dir_ / "prefix" / "share" / "schedtrace" / what).string();
  }
  std::string Source() const { return (dir_ / "src" / "golden").string(); }
};

TEST_F(DefaultPathsTest, EnvironmentComesFirst) {
  fs::create_directories(Installed("golden"));
  EXPECT_EQ(
      ResolveDataDir("/elsewhere/corpus", Bin(), "golden", Source(), "golden"),
      "/elsewhere/corpus");
}

TEST_F(DefaultPathsTest, EmptyEnvironmentCountsAsUnset) {
  EXPECT_EQ(ResolveDataDir("", Bin(), "golden", Source(), "golden"), Source());
}

TEST_F(DefaultPathsTest, InstalledLayoutBeatsSourceTree) {
  fs::create_directories(Installed("golden"));
  EXPECT_EQ(ResolveDataDir(nullptr, Bin(), "golden", Source(), "golden"),
            Installed("golden"));
}

TEST_F(DefaultPathsTest, InstalledDocsAreTheirOwnDirectory) {
  fs::create_directories(Installed("golden"));
  EXPECT_EQ(ResolveDataDir(nullptr, Bin(), "docs", "", "docs"), "docs");
  fs::create_directories(Installed("docs"));
  EXPECT_EQ(ResolveDataDir(nullptr, Bin(), "docs", "", "docs"),
            Installed("docs"));
}

TEST_F(DefaultPathsTest, InstalledPathIsNormalized) {
  fs::create_directories(Installed("golden"));
  std::string got = ResolveDataDir(nullptr, Bin(), "golden", "", "golden");
  EXPECT_EQ(got.find(".."), std::string::npos) << got;
}

TEST_F(DefaultPathsTest, SourceTreeWhenNotInstalled) {
  EXPECT_EQ(ResolveDataDir(nullptr, Bin(), "golden", Source(), "golden"),
            Source());
  EXPECT_EQ(ResolveDataDir(nullptr, "", "golden", Source(), "golden"),
            Source());
}

TEST_F(DefaultPathsTest, RelativeFallbackWhenNothingExists) {
  fs::remove_all(Source());
  EXPECT_EQ(ResolveDataDir(nullptr, Bin(), "golden", Source(), "golden"),
            "golden");
  EXPECT_EQ(ResolveDataDir(nullptr, "", "golden", "", "golden"), "golden");
}

TEST_F(DefaultPathsTest, AFileIsNotADirectory) {
  fs::create_directories(Installed(""));
  std::ofstream(Installed("golden")) << "not a corpus\n";
  EXPECT_EQ(ResolveDataDir(nullptr, Bin(), "golden", Source(), "golden"),
            Source());
}

TEST(ExecutableDirTest, IsThisTestBinarysDirectory) {
  std::string dir = ExecutableDir();
  ASSERT_FALSE(dir.empty());
  EXPECT_TRUE(fs::is_regular_file(fs::path(dir) / "cli_test")) << dir;
}

// The compiled-in defaults, as the test binary (in the build tree, no
// share/schedtrace beside it) sees them.
class DefaultGoldenDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* v = ::getenv("SCHEDTRACE_GOLDEN")) saved_ = v;
  }
  void TearDown() override {
    if (saved_) {
      ::setenv("SCHEDTRACE_GOLDEN", saved_->c_str(), 1);
    } else {
      ::unsetenv("SCHEDTRACE_GOLDEN");
    }
  }
  std::optional<std::string> saved_;
};

TEST_F(DefaultGoldenDirTest, SourceTreeGoldenFromBuildTree) {
  ::unsetenv("SCHEDTRACE_GOLDEN");
  EXPECT_EQ(DefaultGoldenDir(), std::string(SCHEDTRACE_SOURCE_DIR) + "/golden");
  EXPECT_EQ(DefaultDocsDir(), std::string(SCHEDTRACE_SOURCE_DIR) + "/docs");
}

TEST_F(DefaultGoldenDirTest, EnvironmentOverrides) {
  ::setenv("SCHEDTRACE_GOLDEN", "/some/where", 1);
  EXPECT_EQ(DefaultGoldenDir(), "/some/where");
}

}  // namespace
}  // namespace schedtrace::cli
