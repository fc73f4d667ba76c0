// --upstream=V (cli/upstream_flag.h): the parser in process, then every
// command that reads or makes traces through the real binary: it takes the
// flag, refuses an unknown version naming the known ones, and runs every
// trace as V (readers) or names V in the trace it writes (generators).
#include "cli/upstream_flag.h"

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

CommandLine Line(std::map<std::string, std::vector<std::string>> flags) {
  CommandLine cl;
  cl.command = "replay";
  cl.flags = std::move(flags);
  return cl;
}

TEST(UpstreamFlagTest, AKnownVersionOrNothing) {
  absl::StatusOr<std::optional<std::string>> none = UpstreamFlag(Line({}));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, std::nullopt);
  for (const char* v : {"v1.25.12", "v1.26.7", "v1.30.12"}) {
    absl::StatusOr<std::optional<std::string>> ok =
        UpstreamFlag(Line({{"upstream", {"v1.26.7", v}}}));  // the last wins
    ASSERT_TRUE(ok.ok()) << v;
    EXPECT_EQ(*ok, v);
  }
  for (const char* bad : {"v1.31.0", "1.30.12", ""}) {
    absl::StatusOr<std::optional<std::string>> r =
        UpstreamFlag(Line({{"upstream", {bad}}}));
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_EQ(r.status().message(),
              "--upstream takes v1.25.12, v1.26.7, v1.30.12, v1.35.4, v1.36.3 "
              "or v1.37.2, not \"" +
                  std::string(bad) + "\"");
  }
}

TEST(UpstreamFlagTest, OverrideSetsTheHeaderOnlyWhenGiven) {
  TraceHeader h;
  h.upstream = "v1.25.12";
  OverrideUpstream(std::nullopt, h);
  EXPECT_EQ(h.upstream, "v1.25.12");
  OverrideUpstream("v1.30.12", h);
  EXPECT_EQ(h.upstream, "v1.30.12");
}

const char kHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"cache","upstream":"v1.26.7","source":"handwritten","config":{"assumedPodTtlMs":0}})";
const char kAddNode[] =
    R"({"t":100,"op":"c_add_node","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"110"}}},"expect":{"out":{},"state":{"cache":{"nodes":[{"name":"n1","present":true,"pods":[],"requested":{}}],"assumed":[],"bindingFinished":[]}}}})";

class UpstreamCommandsTest : public ScratchDirTest {
 protected:
  std::string Trace() { return WriteTrace("t.jsonl", {kHeader, kAddNode}); }
  // The header line of a trace file.
  nlohmann::json HeaderOf(const std::string& path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return nlohmann::json::parse(line, nullptr, false);
  }
};

TEST_F(UpstreamCommandsTest, EveryTraceCommandTakesItAndRefusesAnUnknownOne) {
  const std::string t = Trace();
  const std::string out = Path("out.jsonl");
  const std::string args[] = {
      "conformance --sut=model " + t,
      "replay --sut=model " + t,
      "explain " + t,
      "minimize --sut=model " + t,
      "record " + t + " " + out,
      "diff --a=model --b=impl " + t,
      "diff --a=model --b=impl --layer=cache --count=1",
      "gen --layer=cache",
      "bench --sut=model " + t,
      "serve < /dev/null",
  };
  for (const std::string& a : args) {
    const std::string command = a.substr(0, a.find(' '));
    SplitResult help = RunSchedtraceSplit(command + " --help", dir_);
    EXPECT_EQ(help.status, 0) << command;
    // The help, its lines wrapped: words apart by one space.
    std::string words;
    for (char c : help.out) {
      const bool blank = c == ' ' || c == '\n';
      if (!blank || (!words.empty() && words.back() != ' ')) {
        words += blank ? ' ' : c;
      }
    }
    EXPECT_THAT(words, HasSubstr("--upstream=VALUE")) << command;
    EXPECT_THAT(
        words,
        HasSubstr("v1.25.12, v1.26.7, v1.30.12, v1.35.4, v1.36.3 or v1.37.2"))
        << command;
    // The flag goes before a redirection.
    std::string with = a;
    with.insert(a.find(' '), " --upstream=v1.31.0");
    SplitResult r = RunSchedtraceSplit(with, dir_);
    EXPECT_EQ(r.status, 2) << with << "\n" << r.out << r.err;
    EXPECT_EQ(r.err,
              "schedtrace: --upstream takes v1.25.12, v1.26.7, v1.30.12, "
              "v1.35.4, v1.36.3 or v1.37.2, "
              "not \"v1.31.0\"\nrun 'schedtrace " +
                  command + " --help' for its flags\n")
        << with;
  }
}

TEST_F(UpstreamCommandsTest, ReadersRunEveryTraceAsTheVersionGiven) {
  const std::string t = Trace();
  const std::string json = Path("r.json");
  CliResult own = RunSchedtrace("conformance --sut=model " + t);
  EXPECT_EQ(own.status, 0) << own.output;
  EXPECT_THAT(own.output, HasSubstr("\nmodel    v1.26.7  cache "));
  CliResult as = RunSchedtrace("conformance --sut=model --upstream=v1.30.12 " +
                               std::string("--report=") + json + " " + t);
  EXPECT_EQ(as.status, 0) << as.output;
  EXPECT_THAT(as.output, HasSubstr("\nmodel    v1.30.12 cache "));
  EXPECT_THAT(as.output, Not(HasSubstr("v1.26.7")));
  EXPECT_THAT(as.output, HasSubstr("every trace ran on model as v1.30.12 "
                                   "(--upstream), with its own expectations"));
  nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(j["systems"][0]["upstreamOverride"], "v1.30.12");
  EXPECT_EQ(j["systems"][0]["traces"][0]["upstream"], "v1.30.12");
  // --list shows the version each trace would run as.
  CliResult list =
      RunSchedtrace("replay --sut=model --list --upstream=v1.25.12 " + t);
  EXPECT_THAT(list.output, HasSubstr(t + "  cache  v1.25.12  t\n"));
  // record writes the version into the trace it records.
  const std::string out = Path("out.jsonl");
  CliResult rec = RunSchedtrace("record --upstream=v1.25.12 " + t + " " + out);
  EXPECT_EQ(rec.status, 0) << rec.output;
  EXPECT_EQ(HeaderOf(out)["upstream"], "v1.25.12");
  EXPECT_EQ(HeaderOf(out)["name"], "t");
  // bench and explain run it as given.
  CliResult bench = RunSchedtrace("bench --sut=model --upstream=v1.30.12 " + t);
  EXPECT_EQ(bench.status, 0) << bench.output;
  EXPECT_THAT(bench.output,
              HasSubstr("layer cache, as v1.30.12 (--upstream)\n"));
  CliResult explain = RunSchedtrace("explain --upstream=v1.30.12 " + t);
  EXPECT_EQ(explain.status, 0) << explain.output;
}

TEST_F(UpstreamCommandsTest, ServeRunsAndDeclaresTheVersionGiven) {
  const std::string in = Write(
      "in", std::string(kHeader) + "\n" + R"({"t":1,"op":"c_cleanup"})" + "\n");
  CliResult plain = RunSchedtrace("serve --sut=model < " + in);
  EXPECT_THAT(plain.output, Not(HasSubstr("upstream")));
  CliResult as = RunSchedtrace("serve --sut=model --upstream=v1.30.12 < " + in);
  EXPECT_EQ(as.status, 0) << as.output;
  EXPECT_THAT(as.output, HasSubstr(R"("upstream":"v1.30.12")"));
}

TEST_F(UpstreamCommandsTest, GeneratorsNameTheVersionGiven) {
  for (const char* layer : {"queue", "cache", "scheduler"}) {
    const std::string out = Path(std::string(layer) + ".jsonl");
    CliResult r = RunSchedtrace(std::string("gen --layer=") + layer +
                                " --steps=5 --upstream=v1.25.12 --out=" + out);
    EXPECT_EQ(r.status, 0) << layer << r.output;
    EXPECT_EQ(HeaderOf(out)["upstream"], "v1.25.12") << layer;
    CliResult dflt = RunSchedtrace(std::string("gen --layer=") + layer +
                                   " --steps=5 --out=" + out);
    EXPECT_EQ(dflt.status, 0) << layer << dflt.output;
    EXPECT_EQ(HeaderOf(out)["upstream"], "v1.26.7") << layer;
  }
  // diff's generated traces name it too: a child that implements v1.26.7
  // skips them.
  const std::string child = std::string("\"--b=exec:") + SCHEDTRACE_BIN +
                            " serve --upstream=v1.26.7\"";
  CliResult diff = RunSchedtrace("diff --a=model " + child +
                                 " --layer=cache --count=2 --steps=5 "
                                 "--upstream=v1.25.12");
  EXPECT_EQ(diff.status, 5) << diff.output;
  EXPECT_THAT(diff.output, HasSubstr("the child implements v1.26.7, the trace "
                                     "is v1.25.12"));
  EXPECT_THAT(diff.output, HasSubstr("0 passed, 0 failed, 2 skipped"));
  // And with PATH, it is the version each trace runs as.
  CliResult files = RunSchedtrace("diff --a=model " + child +
                                  " --upstream=v1.30.12 " + Trace());
  EXPECT_EQ(files.status, 5) << files.output;
  EXPECT_THAT(files.output, HasSubstr("the trace is v1.30.12"));
}

// v1.30.12 sums requests as exact quantities (kubernetes#115367); a
// quantity beyond what schedtrace sums exactly is bad input there, on both
// systems, naming the trace line, the pod and the field. v1.26.7 converts
// each quantity on its own and runs the same trace.
TEST_F(UpstreamCommandsTest,
       AnUnsummableRequestIsBadInputWhereRequestsAreSummed) {
  const std::string add_pod =
      R"({"t":200,"op":"c_add_pod","pod":{"metadata":{"name":"p","namespace":"default","uid":"u"},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}},{"name":"d","resources":{"requests":{"memory":"1e2000"}}}]}}})";
  const std::string t = WriteTrace("big.jsonl", {kHeader, kAddNode, add_pod});
  for (const char* sut : {"model", "impl"}) {
    CliResult as30 = RunSchedtrace(std::string("replay --sut=") + sut +
                                   " --upstream=v1.30.12 " + t);
    EXPECT_NE(as30.status, 0) << sut << as30.output;
    EXPECT_THAT(as30.output, HasSubstr("big.jsonl:3"));
    EXPECT_THAT(as30.output,
                HasSubstr("pod default/p: field "
                          "spec.containers[1].resources.requests.memory: "
                          "quantity \"1e2000\" is beyond what schedtrace "
                          "sums exactly"))
        << sut;
    CliResult as26 =
        RunSchedtrace(std::string("replay --sut=") + sut + " " + t);
    EXPECT_THAT(as26.output, Not(HasSubstr("beyond"))) << sut;
    EXPECT_THAT(as26.output, Not(HasSubstr("ERROR"))) << sut;
  }
}

}  // namespace
}  // namespace schedtrace::cli
