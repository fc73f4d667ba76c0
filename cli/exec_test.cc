// exec:CMD systems end to end, through the real `schedtrace` binary: our own
// systems behind `schedtrace serve` give the same results as direct replay;
// deliberately broken children (serve --fault) are reported as failures of
// their trace; capabilities turn into skips; conformance reports; minimize.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "cli/cli_test_util.h"
#include "cli/report_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testkit/golden_test_util.h"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// `--sut=exec:schedtrace serve ARGS`, quoted for the shell.
std::string Serve(const std::string& args) {
  return "\"--sut=" + ExecServe(args) + "\"";
}

const char kHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"cache","upstream":"v1.26.7","source":"handwritten","config":{"assumedPodTtlMs":0}})";
const char kAddNode[] =
    R"({"t":100,"op":"c_add_node","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"110"}}},"expect":{"out":{},"state":{"cache":{"nodes":[{"name":"n1","present":true,"pods":[],"requested":{}}],"assumed":[],"bindingFinished":[]}}}})";
const char kAddPod[] =
    R"({"t":200,"op":"c_add_pod","pod":{"metadata":{"name":"a","namespace":"default","uid":"u-a"},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"250m"}}}]}},"expect":{"out":{},"state":{"cache":{"nodes":[{"name":"n1","present":true,"pods":["default/a"],"requested":{"cpu":250}}],"assumed":[],"bindingFinished":[]}}}})";
const char kCleanup[] = R"({"t":300,"op":"c_cleanup","expect":{"out":{}}})";

class ExecTest : public ScratchDirTest {
 protected:
  // header, add node, add pod, cleanup: three steps.
  std::string ThreeSteps(const std::string& name) {
    return WriteTrace(name, {kHeader, kAddNode, kAddPod, kCleanup});
  }
  nlohmann::json ReadJson(const std::string& path) {
    return nlohmann::json::parse(std::ifstream(path));
  }
};

// path -> what must be equal between direct replay and replay through serve.
std::map<std::string, std::string> Outcomes(const nlohmann::json& report) {
  std::map<std::string, std::string> out;
  for (const auto& t : report["systems"][0]["traces"]) {
    nlohmann::json o = {
        {"verdict", t["verdict"]},
        {"stepsRun", t["stepsRun"]},
        {"divergence", t.value("divergence", nlohmann::json())}};
    out[t["path"].get<std::string>()] = o.dump();
  }
  return out;
}

// On GoldenSample() (every op, out, argument and known violation of the
// corpus); ctest's golden.* replay the whole corpus directly and through
// serve (CMakeLists.txt).
TEST_F(ExecTest, GoldenThroughServeEqualsDirectReplay) {
  const std::string golden = CopyGoldenSample((dir_ / "golden").string());
  for (const std::string sut : {"model", "impl"}) {
    const std::string direct = (dir_ / (sut + "-direct.json")).string();
    const std::string exec = (dir_ / (sut + "-exec.json")).string();
    CliResult d = RunSchedtrace("replay --sut=" + sut + " --report=" + direct +
                                " " + golden);
    CliResult e = RunSchedtrace("replay " + Serve("--sut=" + sut) +
                                " --report=" + exec + " " + golden);
    EXPECT_EQ(d.status, e.status) << sut;
    nlohmann::json dj = ReadJson(direct), ej = ReadJson(exec);
    std::map<std::string, std::string> a = Outcomes(dj), b = Outcomes(ej);
    EXPECT_EQ(a.size(), GoldenSample().size());
    EXPECT_EQ(a, b) << sut;
    EXPECT_EQ(dj["systems"][0]["knownViolations"],
              ej["systems"][0]["knownViolations"])
        << sut;
    for (const char* key : {"passed", "failed", "skipped"}) {
      EXPECT_EQ(dj["systems"][0][key], ej["systems"][0][key]) << sut << key;
    }
  }
}

struct BrokenChild {
  const char* fault;
  const char* expect;  // in the ERROR line's message
};

TEST_F(ExecTest, BrokenChildrenFailTheirTraceWithStderr) {
  const std::string t = ThreeSteps("t.jsonl");
  const BrokenChild cases[] = {
      {"crash", "closed its stdout before answering the step at line 3"},
      {"exit", "exited with status 3"},
      {"hang", "no reply to the step at line 3 (c_add_pod) within 2000 ms"},
      {"garbage", "\"this is not a reply\""},
      {"extra", "more than one line"},
  };
  for (const BrokenChild& c : cases) {
    // A generous timeout: a loaded machine must not turn a slow start into
    // a hang.
    const std::string timeout =
        std::string(c.fault) == "hang" ? "--timeout-ms=2000 " : "";
    CliResult r = RunSchedtrace(
        "replay " + timeout +
        Serve(std::string("--fault=") + c.fault + " --fault-step=2") + " " + t);
    EXPECT_EQ(r.status, 1) << c.fault << "\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr("ERROR " + t)) << c.fault;
    EXPECT_THAT(r.output, HasSubstr(c.expect)) << c.fault << "\n" << r.output;
    // The child's last stderr lines come with it.
    EXPECT_THAT(r.output, HasSubstr(std::string("| serve: injected fault \"") +
                                    c.fault + "\" at step 2"))
        << c.fault;
    EXPECT_THAT(r.output, HasSubstr("\n0 passed, 1 failed\n")) << c.fault;
  }
}

TEST_F(ExecTest, AChattyChildPasses) {
  CliResult r = RunSchedtrace("replay " + Serve("--fault=stderr") + " " +
                              ThreeSteps("t.jsonl"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("\n1 passed, 0 failed\n"));
}

TEST_F(ExecTest, EveryTraceStartsAFreshChild) {
  ThreeSteps("a.jsonl");
  ThreeSteps("b.jsonl");
  CliResult r = RunSchedtrace(
      "replay " + Serve("--fault=crash --fault-step=3") + " " + dir_.string());
  EXPECT_EQ(r.status, 1);
  // Both fail at step 3 with the injected crash: b got a child of its own.
  EXPECT_THAT(r.output, HasSubstr("a.jsonl:4: step 3 (c_cleanup): exec:"));
  EXPECT_THAT(r.output, HasSubstr("b.jsonl:4: step 3 (c_cleanup): exec:"));
  EXPECT_THAT(r.output, HasSubstr("0 passed, 2 failed"));
}

TEST_F(ExecTest, CapabilitiesBecomeSkipsNotFailures) {
  const std::string t = ThreeSteps("t.jsonl");
  // Only some state: the other comparisons are skipped and counted.
  CliResult part =
      RunSchedtrace("replay " + Serve("--state=cache.nodes") + " " + t);
  EXPECT_EQ(part.status, 0) << part.output;
  EXPECT_THAT(part.output, HasSubstr("PASS " + t));
  EXPECT_THAT(part.output, HasSubstr("4 state comparisons skipped"));
  // The same child reporting assumed wrongly would have failed: prove the
  // remaining comparison still bites.
  std::string wrong = kAddPod;
  wrong.replace(wrong.find("\"cpu\":250"), 9, "\"cpu\":300");
  std::string bad = Write("bad.jsonl", std::string(kHeader) + "\n" + kAddNode +
                                           "\n" + wrong + "\n");
  EXPECT_EQ(RunSchedtrace("replay " + Serve("--state=cache.nodes") + " " + bad)
                .status,
            1);
  // An op it does not declare: the trace is skipped.
  CliResult ops =
      RunSchedtrace("replay " + Serve("--ops=c_add_node,c_add_pod") + " " + t);
  // Nothing ran: its own exit status, and the skip summarised by reason.
  EXPECT_EQ(ops.status, 5) << ops.output;
  EXPECT_THAT(ops.output, HasSubstr("SKIP 1 trace: exec:"));
  EXPECT_THAT(ops.output, HasSubstr("does not support op c_cleanup"));
  EXPECT_THAT(ops.output, HasSubstr("0 passed, 0 failed, 1 skipped"));
}

TEST_F(ExecTest, ServeDeclaresTheLayersItsSystemImplements) {
  const std::string in =
      Write("in", R"({"schedtrace":1,"name":"s","layer":"queue","config":{}})"
                  "\n");
  CliResult reply = RunSchedtrace("serve --sut=model < " + in);
  EXPECT_EQ(reply.status, 0);
  EXPECT_THAT(
      reply.output,
      HasSubstr(R"({"layers":["queue","cache","scheduler"],"ok":true})"));
  CliResult narrow =
      RunSchedtrace("serve --sut=model --state=queue --ops=q_add < " + in);
  EXPECT_THAT(narrow.output, HasSubstr(R"("ops":["q_add"])"));
  EXPECT_THAT(narrow.output, HasSubstr(R"("state":["queue"])"));
  EXPECT_EQ(RunSchedtrace("serve --sut=model < /dev/null").status, 0);
}

TEST_F(ExecTest, ConformanceTableAndReportsForAnExecSystem) {
  const std::string t = ThreeSteps("ok.jsonl");
  std::string wrong = kAddPod;
  wrong.replace(wrong.find("\"cpu\":250"), 9, "\"cpu\":300");
  Write("bad.jsonl",
        std::string(kHeader) + "\n" + kAddNode + "\n" + wrong + "\n");
  const std::string sut = std::string(SCHEDTRACE_BIN) + " serve";
  const std::string md = (dir_ / "r.md").string();
  const std::string xml = (dir_ / "r.xml").string();
  const std::string json = (dir_ / "r.json").string();
  for (const std::string& report : {md, xml, json}) {
    CliResult r = RunSchedtrace("conformance " + Serve("") +
                                " --report=" + report + " " + dir_.string());
    EXPECT_EQ(r.status, 1) << r.output;
    // The table row names the system, the version and the layer.
    EXPECT_THAT(r.output, HasSubstr("exec:" + sut + " v1.26.7  cache"));
    EXPECT_THAT(r.output, HasSubstr("step 2 (c_add_pod) t=200: "
                                    "state.cache.nodes[n1].requested.cpu"));
    // The whole divergence: the node by name, the step's pod with its
    // requests, the step before.
    EXPECT_THAT(r.output,
                HasSubstr("changed state.cache.nodes[n1].requested.cpu: "
                          "expected 300, actual 250"));
    EXPECT_THAT(r.output, HasSubstr("step:     c_add_pod default/a(uid=u-a "
                                    "nodeName=n1 requests=cpu:250m)"));
    EXPECT_THAT(r.output, HasSubstr("before:   step 1 t=100: c_add_node"));
  }
  std::stringstream m, x;
  m << std::ifstream(md).rdbuf();
  x << std::ifstream(xml).rdbuf();
  EXPECT_THAT(m.str(),
              HasSubstr("| exec:" + sut + " | v1.26.7 | cache | 1 | 1 | 0 |"));
  EXPECT_THAT(m.str(), HasSubstr("expected: 300"));
  EXPECT_THAT(x.str(), HasSubstr("failures=\"1\""));
  EXPECT_THAT(x.str(),
              HasSubstr("<failure message=\"step 2 (c_add_pod): "
                        "state.cache.nodes[n1].requested.cpu: expected 300, "
                        "actual 250\" type=\"divergence\">"));
  nlohmann::json j = ReadJson(json);
  EXPECT_EQ(j["systems"][0]["sut"], "exec:" + sut);
  EXPECT_EQ(j["systems"][0]["passed"], 1);
  EXPECT_EQ(j["systems"][0]["failed"], 1);
}

// A child may declare the version it implements (docs/FORMAT.md,
// "Capabilities"): it is judged against that version's traces, the others
// skipped for that reason, and the run says once which version it declared,
// in the reports too.
TEST_F(ExecTest, AChildDeclaringItsVersionIsJudgedOnThatVersionsTraces) {
  auto header_of = [](const std::string& version) {
    std::string h = kHeader;
    h.replace(h.find("v1.26.7"), 7, version);
    return h;
  };
  WriteTrace("v125.jsonl", {header_of("v1.25.12"), kAddNode, kAddPod});
  WriteTrace("v126.jsonl", {kHeader, kAddNode, kAddPod});
  WriteTrace("v130.jsonl", {header_of("v1.30.12"), kAddNode, kAddPod});
  const std::string sut =
      std::string(SCHEDTRACE_BIN) + " serve --upstream=v1.30.12";
  const std::string md = Path("r.md"), xml = Path("r.xml"),
                    json = Path("r.json");
  CliResult r = RunSchedtrace("conformance " + Serve("--upstream=v1.30.12") +
                              " --report=" + md + " --report=" + xml +
                              " --report=" + json + " " + dir_.string());
  EXPECT_EQ(r.status, 0) << r.output;
  const std::string said =
      "exec:" + sut + " implements v1.30.12 (its header reply)\n";
  EXPECT_THAT(r.output, HasSubstr(said));
  EXPECT_EQ(r.output.find(said), r.output.rfind(said)) << "said twice";
  for (const char* other : {"v1.25.12", "v1.26.7"}) {
    EXPECT_THAT(r.output,
                HasSubstr("SKIP 1 trace: exec:" + sut +
                          ": the child implements v1.30.12, the trace is " +
                          other + "\n"));
  }
  EXPECT_THAT(r.output, HasSubstr("exec:" + sut +
                                  " v1.30.12 cache              "
                                  "1       0       0\n"));
  EXPECT_THAT(r.output, HasSubstr("exec:" + sut +
                                  " v1.26.7  cache              "
                                  "0       0       1\n"));
  EXPECT_THAT(r.output, HasSubstr("1 passed, 0 failed, 2 skipped"));
  // The reports, through the parsers their readers use.
  for (const std::string& report : {md, xml, json}) {
    EXPECT_EQ(CheckReport(report), "") << report;
  }
  nlohmann::json j = ReadJson(json);
  const nlohmann::json& system = j["systems"][0];
  EXPECT_EQ(system["declaredUpstreams"], nlohmann::json({"v1.30.12"}));
  EXPECT_EQ(system["upstreamOverride"], nullptr);
  std::map<std::string, std::string> verdicts, versions;
  for (const nlohmann::json& t : system["traces"]) {
    verdicts[t["display"]] = t["verdict"];
    versions[t["display"]] = t["upstream"];
  }
  EXPECT_EQ(verdicts,
            (std::map<std::string, std::string>{{"v125.jsonl", "SKIP"},
                                                {"v126.jsonl", "SKIP"},
                                                {"v130.jsonl", "PASS"}}));
  EXPECT_EQ(versions,
            (std::map<std::string, std::string>{{"v125.jsonl", "v1.25.12"},
                                                {"v126.jsonl", "v1.26.7"},
                                                {"v130.jsonl", "v1.30.12"}}));
  EXPECT_EQ(system["table"].size(), 3u);
  EXPECT_EQ(system["table"][2], nlohmann::json({{"upstream", "v1.30.12"},
                                                {"layer", "cache"},
                                                {"passed", 1},
                                                {"failed", 0},
                                                {"skipped", 0}}));
  nlohmann::json x = XmlTestcases(xml);
  const nlohmann::json& suite = x["testsuites"][0];
  EXPECT_EQ(suite["properties"]["declaredUpstream"], "v1.30.12") << x.dump();
  EXPECT_FALSE(suite["properties"].contains("upstreamOverride"));
  for (const nlohmann::json& c : suite["testcases"]) {
    EXPECT_EQ(c["properties"]["upstream"],
              versions[c["name"].get<std::string>()])
        << x.dump();
    if (c["name"] == "v126.jsonl") {
      EXPECT_EQ(c["outcome"]["tag"], "skipped");
      EXPECT_THAT(c["outcome"]["attrib"]["message"].get<std::string>(),
                  HasSubstr("the child implements v1.30.12, the trace is "
                            "v1.26.7"));
    }
  }
  const std::string m = ReadFileBytes(md);
  EXPECT_THAT(m, HasSubstr(" implements v1.30.12 (its header reply).\n"));
  EXPECT_THAT(m, HasSubstr(" | v1.30.12 | cache | 1 | 0 | 0 |\n"));

  // --upstream given: every trace is v1.30.12, all run on that child...
  CliResult as = RunSchedtrace("conformance " + Serve("--upstream=v1.30.12") +
                               " --upstream=v1.30.12 " + dir_.string());
  EXPECT_EQ(as.status, 0) << as.output;
  EXPECT_THAT(as.output, HasSubstr("3 passed, 0 failed\n"));
  // ... and a child declaring another version skips them all.
  CliResult other = RunSchedtrace("conformance " + Serve("--upstream=v1.26.7") +
                                  " --upstream=v1.30.12 " + dir_.string());
  EXPECT_EQ(other.status, 5) << other.output;
  EXPECT_THAT(other.output, HasSubstr("SKIP 3 traces: exec:"));
  EXPECT_THAT(other.output, HasSubstr(": the child implements v1.26.7, the "
                                      "trace is v1.30.12\n"));
}

// A child that refuses a layer is started once for it, not once per trace:
// the layer's other traces are skipped with the same message, and the run
// says how many starts that saved. The same for the version it declares.
TEST_F(ExecTest, AChildIsNotStartedAgainForWhatItRefused) {
  const std::string starts = Path("starts.txt");
  const std::string layers =
      Write("layers.sh", "echo start >> '" + starts +
                             "'\nread -r header\necho '{\"ok\":true,\"layers\":"
                             "[\"queue\"]}'\n");
  for (const char* name : {"a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl"}) {
    ThreeSteps(name);
  }
  CliResult r = RunSchedtrace("conformance -j1 \"--sut=exec:/bin/sh " + layers +
                              "\" " + dir_.string());
  EXPECT_EQ(r.status, 5) << r.output;
  EXPECT_THAT(r.output, HasSubstr("SKIP 4 traces: exec:/bin/sh " + layers +
                                  ": does not support the cache layer"));
  EXPECT_THAT(r.output,
              HasSubstr(": not started for 3 more traces, skipped as its "
                        "earlier header reply answered: does not support the "
                        "cache layer (its header reply lists the layers it "
                        "does)\n"));
  EXPECT_EQ(ReadFileBytes(starts), "start\n");

  std::filesystem::remove(starts);
  const std::string version = Write(
      "version.sh", "echo start >> '" + starts +
                        "'\nread -r header\necho '{\"ok\":true,\"upstream\":"
                        "\"v1.37.2\"}'\n");
  r = RunSchedtrace("conformance -j1 \"--sut=exec:/bin/sh " + version + "\" " +
                    dir_.string());
  EXPECT_EQ(r.status, 5) << r.output;
  EXPECT_THAT(r.output, HasSubstr("SKIP 4 traces: exec:/bin/sh " + version +
                                  ": the child implements v1.37.2, the trace "
                                  "is v1.26.7\n"));
  EXPECT_THAT(r.output, HasSubstr(": not started for 3 more traces, skipped "
                                  "as its earlier header reply answered: the "
                                  "child implements v1.37.2, the trace is "
                                  "another version\n"));
  EXPECT_EQ(ReadFileBytes(starts), "start\n");
}

TEST_F(ExecTest, AChildDeclaringAnUnknownVersionIsAnError) {
  const std::string child =
      Write("child.sh",
            "read -r header\necho '{\"ok\":true,\"upstream\":\"v1.29.0\"}'\n"
            "while read -r l; do echo '{\"out\":{},\"state\":{}}'; done\n");
  const std::string t = ThreeSteps("t.jsonl");
  CliResult r =
      RunSchedtrace("replay \"--sut=exec:/bin/sh " + child + "\" " + t);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("ERROR " + t));
  EXPECT_THAT(r.output,
              HasSubstr("header reply: field \"upstream\": expected one of "
                        "v1.25.12, v1.26.7, v1.30.12, v1.35.4, v1.36.3 or "
                        "v1.37.2, not \"v1.29.0\""));
  EXPECT_THAT(r.output, Not(HasSubstr("implements")));
}

// A child that answers with every byte 0 to 255 on stderr and then on
// stdout instead of a reply (with ANSI escapes, BEL and a 64 KiB line on
// stderr too), at the header or at the first step: the trace fails (exit 1,
// not a crash) and every report is well-formed by real parsers
// (report_test_util.h; report_test.cc feeds the writers directly).
TEST_F(ExecTest, ReportsStayWellFormedWhateverAChildWrites) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  // stdout: one line holding every byte, the newline last.
  std::string line = all.substr(11) + all.substr(0, 11);
  const std::string out = Write("stdout.bin", line);
  const std::string err =
      Write("stderr.bin", all + "\n\x1b[31mred\x1b[0m\a\x1b]0;title\a\n" +
                              std::string(64 * 1024, 'L') + "\n");
  const std::string replies = "cat '" + err + "' >&2; cat '" + out + "'\n";
  const std::string at_header =
      Write("at-header.sh", "read -r header\n" + replies + "sleep 1\n");
  const std::string at_step = Write("at-step.sh",
                                    "read -r header\necho '{\"ok\":true}'\n"
                                    "read -r step\n" +
                                        replies + "sleep 1\n");
  const std::string golden =
      std::string(SCHEDTRACE_SOURCE_DIR) +
      "/golden/upstream-v1.26.7/queue/add-reverse-order.jsonl";
  struct Child {
    std::string script;
    int at_step;
  };
  for (const Child& child : {Child{at_header, 0}, Child{at_step, 1}}) {
    for (const char* ext : {".md", ".xml", ".json"}) {
      const std::string report = (dir_ / ("r" + std::string(ext))).string();
      CliResult r =
          RunSchedtrace("replay \"--sut=exec:/bin/sh " + child.script +
                        "\" --report=" + report + " " + golden);
      EXPECT_EQ(r.status, 1) << child.script << ext << "\n" << r.output;
      EXPECT_EQ(CheckReport(report), "") << child.script << ext;
      const std::string text = ReadFileBytes(report);
      EXPECT_THAT(text, HasSubstr("\\x1b[31mred")) << child.script << ext;
      EXPECT_THAT(text, Not(HasSubstr("\x1b"))) << child.script << ext;
    }
    nlohmann::json j = ReadJson((dir_ / "r.json").string());
    const nlohmann::json& t = j["systems"][0]["traces"][0];
    EXPECT_EQ(t["verdict"], "ERROR") << child.script;
    EXPECT_EQ(t["display"], "add-reverse-order.jsonl");
    EXPECT_EQ(t["at"]["step"], child.at_step) << child.script;
    EXPECT_EQ(t["at"]["op"], child.at_step == 0 ? "" : "q_add") << child.script;
    nlohmann::json x = XmlTestcases((dir_ / "r.xml").string());
    const nlohmann::json& c = x["testsuites"][0]["testcases"][0];
    EXPECT_EQ(c["name"], "add-reverse-order.jsonl") << x.dump();
    EXPECT_EQ(c["outcome"]["tag"], "error") << x.dump();
    EXPECT_EQ(c["outcome"]["attrib"]["type"],
              child.at_step == 0 ? "configure" : "apply");
    EXPECT_EQ(c["outcome"]["text"], t["message"]);
  }
}

TEST_F(ExecTest, MinimizeShrinksAChildsFailureToTheStepsItNeeds) {
  // A child that dies at its third step, against the model: the smallest
  // trace failing the same way has three steps, the third a c_cleanup.
  std::string text = std::string(kHeader) + "\n" + kAddNode + "\n" + kAddPod;
  for (int t = 300; t < 1000; t += 100) {
    text += "\n{\"t\":" + std::to_string(t) + ",\"op\":\"c_cleanup\"}";
  }
  const std::string in = Write("in.jsonl", text + "\n");
  const std::string out = (dir_ / "min.jsonl").string();
  CliResult r =
      RunSchedtrace("minimize " + Serve("--fault=exit --fault-step=5") +
                    " --against=model --out=" + out + " " + in);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("from 9 to 5 steps"));
  EXPECT_THAT(r.output, HasSubstr("FAIL c_cleanup out (refused)"));
  std::ifstream f(out);
  std::string header, line;
  std::getline(f, header);
  EXPECT_THAT(header, HasSubstr(R"("source":"regression")"));
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    EXPECT_THAT(line, HasSubstr("\"expect\""));  // recorded from the model
  }
  EXPECT_EQ(n, 5);
  // The written trace passes on the reference.
  EXPECT_EQ(RunSchedtrace("replay --sut=model " + out).status, 0);
}

TEST_F(ExecTest, MinimizeRefusesATraceThatPasses) {
  CliResult r = RunSchedtrace("minimize --sut=model " + ThreeSteps("t.jsonl"));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("nothing to minimize"));
}

TEST_F(ExecTest, BadExecFlagsAreUsageErrors) {
  const std::string t = ThreeSteps("t.jsonl");
  EXPECT_EQ(
      RunSchedtrace("replay --timeout-ms=soon " + Serve("") + " " + t).status,
      2);
  EXPECT_EQ(
      RunSchedtrace("replay --timeout-ms=0 " + Serve("") + " " + t).status, 2);
  EXPECT_EQ(RunSchedtrace("serve --sut=exec:cat < /dev/null").status, 2);
  EXPECT_EQ(RunSchedtrace("serve --fault=explode < /dev/null").status, 2);
  CliResult r = RunSchedtrace("replay " + Serve("") + " " + t);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("comparisons skipped")));
}

}  // namespace
}  // namespace schedtrace::cli
