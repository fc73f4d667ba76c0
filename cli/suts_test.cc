#include "cli/suts.h"

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;

TEST(UpstreamBinaryTest, BesideTheExecutableUnlessTheEnvironmentSays) {
  EXPECT_EQ(UpstreamBinary(nullptr, "/b", "v1.30.12"),
            "/b/upstream/schedtrace-upstream-v1.30.12");
  EXPECT_EQ(UpstreamBinary("", "/b", "v1.30.12"),
            "/b/upstream/schedtrace-upstream-v1.30.12");
  EXPECT_EQ(UpstreamBinary("/u", "/b", "v1.25.12"),
            "/u/schedtrace-upstream-v1.25.12");
}

TEST(MakeSystemTest, AnUpstreamVersionNotBuiltSaysHowToBuildIt) {
  setenv("SCHEDTRACE_UPSTREAM_DIR", "/nonexistent-schedtrace-dir", 1);
  absl::StatusOr<std::unique_ptr<System>> s = MakeSystem("upstream:v1.29.4");
  unsetenv("SCHEDTRACE_UPSTREAM_DIR");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.status().message()),
              HasSubstr("/nonexistent-schedtrace-dir/"
                        "schedtrace-upstream-v1.29.4 is not built"));
  EXPECT_THAT(std::string(s.status().message()),
              HasSubstr("upstream/build v1.29.4"));
}

TEST(MakeSystemTest, AnUpstreamSystemNeedsAVersion) {
  absl::StatusOr<std::unique_ptr<System>> s = MakeSystem("upstream:latest");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("\"latest\""));
}

TEST(MakeSystemTest, AnUpstreamBinaryThatExistsIsAChild) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/schedtrace-upstream-v1.26.7";
  FILE* f = fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fclose(f);
  setenv("SCHEDTRACE_UPSTREAM_DIR", dir.c_str(), 1);
  absl::StatusOr<std::unique_ptr<System>> s = MakeSystem("upstream:v1.26.7");
  unsetenv("SCHEDTRACE_UPSTREAM_DIR");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_NE(ReportsOf(**s), nullptr);  // a child process: it reports state
  std::remove(path.c_str());
}

}  // namespace
}  // namespace schedtrace::cli
