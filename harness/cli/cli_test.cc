// Runs the real `schedtrace` binary on small traces: exit statuses, the
// closing line, divergence reports, bad-input messages, report formats.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/cli/cli_test_util.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;

const char kHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"cache","upstream":"v1.26.7","source":"handwritten","config":{"assumedPodTtlMs":0}})";
const char kAddNode[] =
    R"({"t":100,"op":"c_add_node","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"110"}}},"expect":{"out":{},"state":{"cache":{"nodes":[{"name":"n1","present":true,"pods":[],"requested":{}}],"assumed":[],"bindingFinished":[]}}}})";
const char kAddPod[] =
    R"({"t":200,"op":"c_add_pod","pod":{"metadata":{"name":"a","namespace":"default","uid":"u-a"},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"250m"}}}]}},"expect":{"out":{},"state":{"cache":{"nodes":[{"name":"n1","present":true,"pods":["default/a"],"requested":{"cpu":250}}]}}}})";

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("schedtrace_cli_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string Trace(const std::string& name, const std::string& steps) {
    return Write(name, std::string(kHeader) + "\n" + steps);
  }

  std::filesystem::path dir_;
};

TEST_F(CliTest, PassingTraceExitsZero) {
  std::string t =
      Trace("ok.jsonl", std::string(kAddNode) + "\n" + kAddPod + "\n");
  CliResult r = RunSchedtrace("replay --sut=model " + t);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("PASS " + t));
  EXPECT_THAT(r.output, HasSubstr("\n1 passed, 0 failed\n"));
}

TEST_F(CliTest, DivergenceExitsOneWithStepOpAndDiff) {
  std::string wrong = kAddPod;
  wrong.replace(wrong.find("\"cpu\":250"), 9, "\"cpu\":300");
  std::string t =
      Trace("bad.jsonl", std::string(kAddNode) + "\n" + wrong + "\n");
  CliResult r = RunSchedtrace("replay --sut=model " + t);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("FAIL " + t));
  EXPECT_THAT(r.output, HasSubstr(":3: step 2 (c_add_pod)"));
  EXPECT_THAT(r.output, HasSubstr("state.cache.nodes[0].requested.cpu"));
  EXPECT_THAT(r.output, HasSubstr("expected: 300"));
  EXPECT_THAT(r.output, HasSubstr("actual:   250"));
  EXPECT_THAT(r.output, HasSubstr("0 passed, 1 failed"));
}

struct BadInput {
  const char* name;
  std::string text;
  const char* expect;  // in the message, after "file:line: "
};

TEST_F(CliTest, EveryKindOfBadInputExitsTwoNamingFileLineField) {
  const std::string h = kHeader;
  const BadInput cases[] = {
      {"malformed", h + "\n{\"t\":1,\"op\":\n", ":2: malformed JSON"},
      {"unknown-op", h + "\n{\"t\":1,\"op\":\"q_fly\"}\n", ":2: field \"op\""},
      {"missing-field", h + "\n{\"t\":1,\"op\":\"c_add_pod\"}\n",
       ":2: field \"pod\""},
      {"mistyped-field", h + "\n{\"t\":\"soon\",\"op\":\"c_cleanup\"}\n",
       ":2: field \"t\""},
      {"decreasing-t",
       h + "\n{\"t\":5,\"op\":\"c_cleanup\"}\n{\"t\":4,\"op\":\"c_cleanup\"}\n",
       ":3: field \"t\""},
      {"bad-quantity",
       h + "\n" +
           R"({"t":1,"op":"c_add_node","node":{"metadata":{"name":"n"},"status":{"allocatable":{"cpu":"12x"}}}})" +
           "\n",
       ":2: field \"node.status.allocatable.cpu\""},
      {"unknown-ref",
       h + "\n" + R"({"t":1,"op":"c_add_pod","pod":{"$ref":"default/ghost"}})" +
           "\n",
       ":2: field \"pod"},
      {"truncated", h + "\n" + std::string(kAddNode).substr(0, 80),
       ":2: malformed JSON"},
  };
  for (const BadInput& c : cases) {
    std::string t = Write(std::string(c.name) + ".jsonl", c.text);
    CliResult r = RunSchedtrace("replay --sut=model " + t);
    EXPECT_EQ(r.status, 2) << c.name << "\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(t + c.expect)) << c.name;
    EXPECT_THAT(r.output, HasSubstr("0 passed, 1 failed")) << c.name;
  }
}

TEST_F(CliTest, BadInputWinsOverAFailedTrace) {
  std::string wrong = kAddPod;
  wrong.replace(wrong.find("\"cpu\":250"), 9, "\"cpu\":300");
  Trace("a-fails.jsonl", std::string(kAddNode) + "\n" + wrong + "\n");
  Write("b-bad.jsonl", std::string(kHeader) + "\n{\n");
  CliResult r = RunSchedtrace("replay --sut=model " + dir_.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("0 passed, 2 failed"));
}

TEST_F(CliTest, ReportsAreWellFormed) {
  std::string ok = Trace("ok.jsonl", std::string(kAddNode) + "\n");
  std::string md = (dir_ / "r.md").string();
  std::string xml = (dir_ / "r.xml").string();
  std::string json = (dir_ / "r.json").string();
  for (const std::string& report : {md, xml, json}) {
    CliResult r =
        RunSchedtrace("replay --sut=model --report=" + report + " " + ok);
    EXPECT_EQ(r.status, 0) << r.output;
  }
  std::ifstream jf(json);
  nlohmann::json j = nlohmann::json::parse(jf);
  EXPECT_EQ(j["systems"][0]["sut"], "model");
  EXPECT_EQ(j["systems"][0]["passed"], 1);
  EXPECT_EQ(j["systems"][0]["traces"][0]["verdict"], "PASS");
  std::stringstream x;
  x << std::ifstream(xml).rdbuf();
  EXPECT_THAT(x.str(), HasSubstr("<testsuite name=\"schedtrace.model\" "
                                 "tests=\"1\" failures=\"0\""));
  std::stringstream m;
  m << std::ifstream(md).rdbuf();
  EXPECT_THAT(m.str(), HasSubstr("| model | cache | 1 | 0 | 0 |"));
}

TEST_F(CliTest, CommandLineErrorsExitTwoAndHelpZero) {
  EXPECT_EQ(RunSchedtrace("help").status, 0);
  EXPECT_THAT(RunSchedtrace("help").output, HasSubstr("--sut"));
  EXPECT_EQ(RunSchedtrace("replay --sut=model --bogus=1 x").status, 2);
  EXPECT_EQ(RunSchedtrace("replay --sut=nosuch " + dir_.string()).status, 2);
  EXPECT_EQ(RunSchedtrace("replay --sut=model --report=r.txt x").status, 2);
  EXPECT_EQ(RunSchedtrace("replay --sut=model /no/such/path").status, 2);
  EXPECT_EQ(RunSchedtrace("frobnicate").status, 2);
  // An existing directory without traces is not a green run.
  CliResult empty = RunSchedtrace("replay --sut=model " + dir_.string());
  EXPECT_EQ(empty.status, 2);
  EXPECT_THAT(empty.output, HasSubstr("no *.jsonl"));
}

TEST_F(CliTest, ConformanceTabulatesEverySystemAndListsFailures) {
  std::string wrong = std::string(kAddPod);
  wrong.replace(wrong.find("\"cpu\":250"), 9, "\"cpu\":300");
  Trace("a-ok.jsonl", std::string(kAddNode) + "\n");
  std::string bad =
      Trace("b-fails.jsonl", std::string(kAddNode) + "\n" + wrong + "\n");
  // A scheduler-layer trace: both systems implement that layer.
  Write("c-scheduler.jsonl",
        R"({"schedtrace":1,"name":"s","layer":"scheduler","config":{}})"
        "\n"
        R"({"t":1,"op":"flush_backoff","expect":{"out":{}}})"
        "\n");
  CliResult r = RunSchedtrace("conformance " + dir_.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("model    cache              1       1"));
  EXPECT_THAT(r.output, HasSubstr("impl     cache              1       1"));
  EXPECT_THAT(r.output, HasSubstr("impl     scheduler          1       0"));
  EXPECT_THAT(r.output, HasSubstr("failures (first divergence of each):\n"
                                  "  model: " +
                                  bad));
  // One closing line for the whole run, summed over model and impl.
  EXPECT_THAT(r.output, HasSubstr("\n4 passed, 2 failed\n"));
}

TEST_F(CliTest, ExecSystemsWhoseCommandFailsFailTheTraceNotTheRun) {
  // More exec: tests in exec_test.cc.
  std::string t = Trace("ok.jsonl", std::string(kAddNode) + "\n");
  CliResult r = RunSchedtrace("replay --sut=exec:./no-such-child " + t);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("ERROR " + t));
  EXPECT_THAT(r.output, HasSubstr("status 127"));
  EXPECT_EQ(RunSchedtrace("replay --sut=exec: " + t).status, 2);
  EXPECT_EQ(RunSchedtrace("--help").status, 0);
}

TEST_F(CliTest, PropertiesAreCheckedUnlessNoProperties) {
  // The queue corpus exercises a known upstream violation on every run with
  // properties on; --no-properties does not look for it at all.
  const std::string queue =
      std::string(SCHEDTRACE_SOURCE_DIR) + "/golden/upstream-v1.26.7/queue";
  const std::string with = (dir_ / "with.json").string();
  const std::string without = (dir_ / "without.json").string();
  ASSERT_EQ(
      RunSchedtrace("replay --sut=model --report=" + with + " " + queue).status,
      0);
  ASSERT_EQ(RunSchedtrace("replay --sut=model --no-properties --report=" +
                          without + " " + queue)
                .status,
            0);
  nlohmann::json w = nlohmann::json::parse(std::ifstream(with));
  nlohmann::json wo = nlohmann::json::parse(std::ifstream(without));
  EXPECT_GT(w["systems"][0]["knownViolations"]["in-flight-update-requeues"], 0);
  EXPECT_TRUE(wo["systems"][0]["knownViolations"].empty());
}

TEST_F(CliTest, ConformanceReplaysTheGoldenCorpusGreen) {
  CliResult r = RunSchedtrace("conformance --sut=model --golden=" +
                              std::string(SCHEDTRACE_SOURCE_DIR) + "/golden");
  EXPECT_EQ(r.status, 0) << r.output.substr(
      r.output.size() > 3000 ? r.output.size() - 3000 : 0);
  EXPECT_THAT(r.output, HasSubstr("model    queue"));
  EXPECT_THAT(r.output, HasSubstr("kubernetes/kubernetes#118226"));
}

}  // namespace
}  // namespace schedtrace::cli
