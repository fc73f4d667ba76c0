// Runs the real `schedtrace` binary on small traces: exit statuses, the
// closing line, divergence reports, bad-input messages, report formats, and
// its manners: per-command help, one-line usage errors, suggestions,
// required flags, messages free of internal status names.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

int Lines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// What no message a user sees may contain: absl's status code names.
void ExpectNoStatusNames(const std::string& text) {
  for (const char* name :
       {"UNAVAILABLE:", "DATA_LOSS:", "INVALID_ARGUMENT:", "INTERNAL:",
        "DEADLINE_EXCEEDED:", "FAILED_PRECONDITION:", "UNIMPLEMENTED:"}) {
    EXPECT_THAT(text, Not(HasSubstr(name))) << text;
  }
}

const char kHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"cache","upstream":"v1.26.7","source":"handwritten","config":{"assumedPodTtlMs":0}})";
const char kAddNode[] =
    R"({"t":100,"op":"c_add_node","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"110"}}},"expect":{"out":{},"state":{"cache":{"nodes":[{"name":"n1","present":true,"pods":[],"requested":{}}],"assumed":[],"bindingFinished":[]}}}})";
const char kAddPod[] =
    R"({"t":200,"op":"c_add_pod","pod":{"metadata":{"name":"a","namespace":"default","uid":"u-a"},"spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"250m"}}}]}},"expect":{"out":{},"state":{"cache":{"nodes":[{"name":"n1","present":true,"pods":["default/a"],"requested":{"cpu":250}}]}}}})";

class CliTest : public ScratchDirTest {
 protected:
  std::string Trace(const std::string& name, const std::string& steps) {
    return Write(name, std::string(kHeader) + "\n" + steps);
  }
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
  EXPECT_THAT(r.output, HasSubstr("state.cache.nodes[n1].requested.cpu"));
  EXPECT_THAT(r.output, Not(HasSubstr("nodes[0]")));  // one notation
  EXPECT_THAT(r.output, HasSubstr("expected: 300"));
  EXPECT_THAT(r.output, HasSubstr("actual:   250"));
  EXPECT_THAT(r.output, HasSubstr("0 passed, 1 failed"));
}

struct BadInput {
  const char* name;
  std::string text;
  const char* expect;  // in the message, after "file:line: "
};

// The whole divergence through the binary, from a child that is not ours:
// every difference (a pod missing from activeQ by key, a field it left out
// shown as (absent), not as the default the harness reads), the step, the
// trace's description and the steps before, on the terminal and in the JSON
// report.
TEST_F(CliTest, ReplayPrintsTheWholeDivergenceAsTheChildSentIt) {
  const std::string t = Write(
      "q.jsonl",
      R"({"schedtrace":1,"name":"q","layer":"queue","description":"a gated pod stays gated"}
{"t":100,"op":"q_add","pod":{"metadata":{"namespace":"d","name":"a","uid":"u-a"},"spec":{"priority":3}},"expect":{"out":{}}}
{"t":200,"op":"flush_backoff","expect":{"out":{},"state":{"queue":{"active":[{"pod":"d/a","attempts":0},{"pod":"d/b","attempts":0}],"unschedulable":[{"pod":"d/u","attempts":1,"plugins":[],"gated":true}]}}}}
)");
  const std::string child = Write(
      "child.sh",
      "read h; echo '{\"ok\":true}'; read l; echo '{\"out\":{},\"state\":{}}';"
      " read l; echo '{\"out\":{},\"state\":{\"queue\":{\"active\":[{\"pod\":"
      "\"d/b\",\"attempts\":0}],\"unschedulable\":[{\"pod\":\"d/u\","
      "\"attempts\":1}]},\"nominated\":{}}}'; cat >/dev/null\n");
  const std::string report = (dir_ / "r.json").string();
  CliResult r = RunSchedtrace("replay '--sut=exec:sh " + child +
                              "' --report=" + report + " " + t);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr(":3: step 2 (flush_backoff) t=200: "
                                  "state.queue.active\n"));
  EXPECT_THAT(r.output, HasSubstr("\n    trace:    a gated pod stays gated\n"));
  EXPECT_THAT(r.output,
              HasSubstr("\n    before:   step 1 t=100: q_add d/a(uid=u-a "
                        "priority=3)\n"));
  EXPECT_THAT(r.output, HasSubstr("\n    differences (2):\n"
                                  "      missing state.queue.active[d/a]: "
                                  "expected {\"attempts\":0,\"pod\":\"d/a\"}, "
                                  "actual (absent)\n"
                                  "      changed state.queue.unschedulable[d/u]"
                                  ".gated: expected true, actual (absent)\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("actual false")));
  std::ifstream f(report);
  nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  const nlohmann::json& d = j["systems"][0]["traces"][0]["divergence"];
  EXPECT_EQ(d["t"], 200);
  EXPECT_EQ(d["summary"], "flush_backoff");
  EXPECT_EQ(d["description"], "a gated pod stays gated");
  EXPECT_EQ(d["before"],
            nlohmann::json({"step 1 t=100: q_add d/a(uid=u-a priority=3)"}));
  ASSERT_EQ(d["differences"].size(), 2u) << d.dump();
  EXPECT_EQ(d["differences"][1],
            (nlohmann::json{{"path", "state.queue.unschedulable[d/u].gated"},
                            {"kind", "changed"},
                            {"expected", true},
                            {"actual", "(absent)"}}));
}

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
  std::string html = (dir_ / "r.html").string();
  // --report is repeatable: one run writes every report named.
  CliResult r =
      RunSchedtrace("replay --sut=model --report=" + md + " --report=" + xml +
                    " --report=" + json + " --report=" + html + " " + ok);
  EXPECT_EQ(r.status, 0) << r.output;
  std::stringstream h;
  h << std::ifstream(html).rdbuf();
  EXPECT_THAT(h.str(), HasSubstr("<!DOCTYPE html>"));
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
  EXPECT_THAT(m.str(), HasSubstr("| model | v1.26.7 | cache | 1 | 0 | 0 |"));
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
  // A row per system, version and layer; the scheduler trace names no
  // version: v1.26.7.
  EXPECT_THAT(r.output, HasSubstr("\nsystem   version  layer         passed  "
                                  "failed skipped\n"));
  EXPECT_THAT(r.output,
              HasSubstr("model    v1.26.7  cache              1       1"));
  EXPECT_THAT(r.output,
              HasSubstr("impl     v1.26.7  cache              1       1"));
  EXPECT_THAT(r.output,
              HasSubstr("impl     v1.26.7  scheduler          1       0"));
  // Each failure once, where it happened; then grouped by signature, one
  // group per system.
  int printed = 0;
  for (size_t at = r.output.find("FAIL " + bad); at != std::string::npos;
       at = r.output.find("FAIL " + bad, at + 1)) {
    ++printed;
  }
  EXPECT_EQ(printed, 2) << "once for model, once for impl\n" << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("failures by signature (2 kinds):\n"
                        "     1  model  c_add_pod state.cache.nodes"));
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
  EXPECT_THAT(r.output, HasSubstr("model    v1.26.7  queue"));
  EXPECT_THAT(r.output, HasSubstr("model    v1.30.12 queue"));
  EXPECT_THAT(r.output, HasSubstr("model    v1.25.12 queue"));
  EXPECT_THAT(r.output, HasSubstr("kubernetes/kubernetes#118226"));
}

TEST_F(CliTest, CommandHelpShowsThatCommandAloneOnStdout) {
  SplitResult help = RunSchedtraceSplit("gen --help", dir_);
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.err, "");
  EXPECT_THAT(help.out, StartsWith("usage: schedtrace gen --layer=L"));
  EXPECT_THAT(help.out, HasSubstr("write a random valid trace"));
  // Every flag with its help; =VALUE for a valued flag, none for a switch.
  EXPECT_THAT(help.out, HasSubstr("--layer=VALUE"));
  EXPECT_THAT(help.out, HasSubstr("queue, cache or scheduler (required)"));
  EXPECT_THAT(help.out, HasSubstr("--seed=VALUE"));
  EXPECT_THAT(help.out, HasSubstr("--hostile "));
  EXPECT_THAT(help.out, Not(HasSubstr("--hostile=")));
  // That command alone.
  EXPECT_THAT(help.out, Not(HasSubstr("replay")));
  EXPECT_THAT(help.out, Not(HasSubstr("exit status")));
  // -h and `help gen` say the same; --help wins over whatever else is there.
  for (const char* same : {"gen -h", "help gen", "gen --bogus --help"}) {
    SplitResult r = RunSchedtraceSplit(same, dir_);
    EXPECT_EQ(r.status, 0) << same;
    EXPECT_EQ(r.out, help.out) << same;
  }
}

TEST_F(CliTest, CommandHelpShowsShortNames) {
  // The runner's -x and -j (cli/run_flags.h).
  SplitResult r = RunSchedtraceSplit("replay --help", dir_);
  EXPECT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("-x, --fail-fast "));
  EXPECT_THAT(r.out, HasSubstr("-j, --jobs=VALUE "));
}

TEST_F(CliTest, HelpIsTheOverviewWithExitStatuses) {
  SplitResult r = RunSchedtraceSplit("help", dir_);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  for (const char* command : {"conformance", "replay", "diff", "gen", "record",
                              "minimize", "bench", "serve", "mutants"}) {
    EXPECT_THAT(r.out, HasSubstr(std::string("\n  ") + command + " "))
        << command;
  }
  EXPECT_THAT(r.out, HasSubstr("PATH is a trace file or a directory"));
  for (const char* status :
       {"\n  0 ", "\n  1 ", "\n  2 ", "\n  5 ", "\n  130 ", "\n  143 "}) {
    EXPECT_THAT(r.out, HasSubstr(status)) << status;
  }
  // Synopses and summaries, not every flag's help.
  EXPECT_THAT(r.out, Not(HasSubstr("mix in sequences the apiserver")));
  EXPECT_EQ(RunSchedtraceSplit("--help", dir_).out, r.out);
  EXPECT_EQ(RunSchedtraceSplit("-h", dir_).out, r.out);
}

TEST_F(CliTest, HelpForAnUnknownCommandIsAUsageError) {
  SplitResult r = RunSchedtraceSplit("help gne", dir_);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "schedtrace: unknown command \"gne\"; did you mean gen?\n"
            "run 'schedtrace help' for the commands\n");
}

TEST_F(CliTest, AUsageErrorIsOneLineAndAHint) {
  std::string t = Trace("ok.jsonl", std::string(kAddNode) + "\n");
  SplitResult r = RunSchedtraceSplit("replay --sut=model --bogus=1 " + t, dir_);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_LE(Lines(r.err), 2) << r.err;
  EXPECT_THAT(r.err, StartsWith("schedtrace: "));
  EXPECT_THAT(r.err, HasSubstr("--bogus"));
  EXPECT_THAT(r.err, HasSubstr("\nrun 'schedtrace replay --help' for its "
                               "flags\n"));
  // A command's own usage errors look the same.
  SplitResult bad_steps =
      RunSchedtraceSplit("gen --layer=queue --steps=many", dir_);
  EXPECT_EQ(bad_steps.status, 2);
  EXPECT_LE(Lines(bad_steps.err), 2) << bad_steps.err;
  EXPECT_THAT(bad_steps.err, HasSubstr("--steps"));
  EXPECT_THAT(bad_steps.err, HasSubstr("run 'schedtrace gen --help'"));
  // Outside a command the hint is the overview.
  SplitResult none = RunSchedtraceSplit("", dir_);
  EXPECT_EQ(none.status, 2);
  EXPECT_EQ(none.err,
            "schedtrace: no command given\n"
            "run 'schedtrace help' for the commands\n");
}

TEST_F(CliTest, AFlagsValueMayFollowAsTheNextArgument) {
  std::string t =
      Trace("ok.jsonl", std::string(kAddNode) + "\n" + kAddPod + "\n");
  CliResult spaced = RunSchedtrace("replay --sut model " + t);
  EXPECT_EQ(spaced.status, 0) << spaced.output;
  EXPECT_THAT(spaced.output, HasSubstr("1 passed, 0 failed"));
  std::string out = (dir_ / "g.jsonl").string();
  CliResult gen =
      RunSchedtrace("gen --layer queue --seed 4 --steps 5 --out " + out);
  EXPECT_EQ(gen.status, 0) << gen.output;
  CliResult equals = RunSchedtrace("gen --layer=queue --seed=4 --steps=5");
  std::stringstream written;
  written << std::ifstream(out).rdbuf();
  EXPECT_THAT(equals.output, HasSubstr(written.str()));
  // A valued flag at the end with nothing after it.
  SplitResult missing = RunSchedtraceSplit("gen --layer", dir_);
  EXPECT_EQ(missing.status, 2);
  EXPECT_THAT(missing.err, HasSubstr("--layer needs a value"));
}

TEST_F(CliTest, AnUnknownFlagOrCommandNamesTheClosestKnownOne) {
  SplitResult flag = RunSchedtraceSplit("gen --layer=queue --sede=3", dir_);
  EXPECT_EQ(flag.status, 2);
  EXPECT_THAT(flag.err, HasSubstr("gen takes no --sede; did you mean --seed?"));
  SplitResult dash = RunSchedtraceSplit("gen -layer=queue", dir_);
  EXPECT_EQ(dash.status, 2);
  EXPECT_THAT(dash.err, HasSubstr("did you mean --layer?"));
  SplitResult command = RunSchedtraceSplit("conformence", dir_);
  EXPECT_EQ(command.status, 2);
  EXPECT_THAT(command.err, HasSubstr("unknown command \"conformence\"; did you "
                                     "mean conformance?"));
  // Nothing close: no guess.
  SplitResult far = RunSchedtraceSplit("gen --layer=queue --zzzzzz=1", dir_);
  EXPECT_EQ(far.status, 2);
  EXPECT_THAT(far.err, Not(HasSubstr("did you mean")));
}

TEST_F(CliTest, RequiredFlagsAreEnforced) {
  SplitResult gen = RunSchedtraceSplit("gen", dir_);
  EXPECT_EQ(gen.status, 2);
  EXPECT_EQ(gen.out, "");
  EXPECT_LE(Lines(gen.err), 2) << gen.err;
  EXPECT_THAT(gen.err, StartsWith("schedtrace: gen needs --layer"));
  std::string t = Trace("ok.jsonl", std::string(kAddNode) + "\n");
  for (const char* command : {"bench ", "minimize "}) {
    SplitResult r = RunSchedtraceSplit(command + t, dir_);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_THAT(r.err, HasSubstr("needs --sut")) << command;
  }
  // --help is no usage error, required flags or not.
  EXPECT_EQ(RunSchedtraceSplit("gen --help", dir_).status, 0);
}

TEST_F(CliTest, NoInternalStatusNamesInMessages) {
  std::string t = Trace("ok.jsonl", std::string(kAddNode) + "\n" + kAddPod +
                                        "\n" + kAddPod + "\n");
  const std::string crash = std::string("\"--sut=exec:") + SCHEDTRACE_BIN +
                            " serve --fault=crash --fault-step=2\"";
  const std::string garbage = std::string("\"--sut=exec:") + SCHEDTRACE_BIN +
                              " serve --fault=garbage --fault-step=2\"";
  struct Case {
    std::string args;
    int status;
  };
  const Case cases[] = {
      {"replay " + crash + " " + t, 1},
      {"replay " + garbage + " " + t, 1},
      {"bench " + crash + " " + t, 1},
      {"record " + crash + " " + t + " " + (dir_ / "out.jsonl").string(), 1},
      {"replay --sut=model " + Write("bad.jsonl", "{\n"), 2},
      {"gen --layer=queue --perturb=bogus:2", 2},
  };
  for (const Case& c : cases) {
    CliResult r = RunSchedtrace(c.args);
    EXPECT_EQ(r.status, c.status) << c.args << "\n" << r.output;
    ExpectNoStatusNames(r.output);
  }
}

TEST_F(CliTest, DiffOfAGeneratedTraceCitesStepAndSeedNotLineZero) {
  // The child answers garbage at step 3: model applied it, the child did
  // not, a disagreement on a trace that has no file and no lines.
  const std::string b = std::string("\"--b=exec:") + SCHEDTRACE_BIN +
                        " serve --fault=garbage --fault-step=3\"";
  CliResult r = RunSchedtrace("diff --a=model " + b +
                              " --layer=cache --count=1 --seed=5 --out-dir=" +
                              (dir_ / "failures").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("(seed 5): step 3 ("));
  EXPECT_THAT(r.output, Not(HasSubstr(":0:")));
  ExpectNoStatusNames(r.output);
}

}  // namespace
}  // namespace schedtrace::cli
