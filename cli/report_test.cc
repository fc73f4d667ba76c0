// The reports of a run whose system wrote anything at all (every byte 0 to
// 255, invalid UTF-8, NUL, ANSI escapes, BEL, a 64 KiB line, XML and
// Markdown syntax) are well-formed by real parsers and say everything the
// run found; the end-to-end version, through a misbehaving child, is in
// exec_test.cc.
#include "cli/report.h"

#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "cli/report_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const std::string kSut = "exec:./my sched --x|y `z` <b>&\x1b[31m";
// kSut as a classname segment: [A-Za-z0-9_:-] kept, the rest `_`.
const char kSegment[] = "exec:__my_sched_--x_y__z___b____31m";
const std::string kLongLine = std::string(64 * 1024, 'L');

TraceRun Traced(const std::string& display, Verdict verdict, double seconds,
                int at_step = 0, int at_line = 0, const std::string& op = "") {
  TraceRun tr;
  tr.display = display;
  tr.result.path = "/golden/" + display;
  tr.result.name = display.substr(0, display.find('.'));
  tr.result.layer = Layer::kQueue;
  tr.upstream = "v1.26.7";
  tr.result.verdict = verdict;
  tr.result.steps_run = at_step;
  tr.result.at_step = at_step;
  tr.result.at_line = at_line;
  tr.result.at_op = op;
  tr.seconds = seconds;
  return tr;
}

// What the reports must carry whole, per trace of HostileRuns()[0] (""
// for the pass): the divergence as Format() writes it, or the message.
std::vector<std::string> Details(const SystemRun& run) {
  std::vector<std::string> out;
  for (const TraceRun& tr : run.traces) {
    out.push_back(tr.result.divergence
                      ? tr.result.divergence->Format(tr.result.path)
                      : tr.result.message);
  }
  return out;
}

// Traces 0..6 of the hostile system: pass, divergence, property, apply
// error, configure error, skip, bad input; then a second, clean system.
std::vector<SystemRun> HostileRuns() {
  SystemRun run;
  run.sut = kSut;
  run.interrupted = true;
  run.seconds = 10.25;
  run.known_violations["in-flight-update-requeues"] = 3;

  run.traces.push_back(Traced("queue/ok.jsonl", Verdict::kPassed, 0.0123));

  TraceRun diverges =
      Traced("queue/diverges.jsonl", Verdict::kFailed, 1.5, 2, 3, "q_pop");
  diverges.result.divergence = Divergence{
      2, 3, "q_pop", "out.result", R"({"pod":"default/a"})", AllBytes()};
  // Every field of the whole divergence carries hostile bytes too.
  Divergence& d = *diverges.result.divergence;
  d.t = 1500;
  d.step_summary = "q_pop \x1b[31m" + AllBytes();
  d.description = "pins ``` ]]> </failure> & \xff\n" + AllBytes();
  d.before = {"step 1 t=0: q_add d/\x1b[2J", "step 2 t=1: " + AllBytes()};
  d.differences = {
      {"out.result", "changed", R"({"pod":"default/a"})", AllBytes()},
      {"state.queue.active[d/\xff<x>]", "missing", R"({"pod":"d/\u00ff"})",
       "(absent)"}};
  run.traces.push_back(diverges);

  TraceRun property =
      Traced("queue/property.jsonl", Verdict::kFailed, 0.25, 3, 4, "q_add");
  property.result.message = property.result.path +
                            ":4: step 3 (q_add): property broken\n" +
                            AllBytes() + "\n" + kLongLine + "\xff\xfe end";
  run.traces.push_back(property);

  TraceRun apply =
      Traced("queue/apply.jsonl", Verdict::kError, 0.001, 4, 5, "q_pop");
  apply.result.message =
      "exec:./x: not a reply: \"\x1b[2J\x1b]0;pwned\a\" ``` ```` ]]> "
      "</error> & 'single' \"double\" <![CDATA[x]]>; last stderr lines:\n"
      "    | " +
      AllBytes() + "\r\n    | \xe2\x80\xae" + "reversed";
  run.traces.push_back(apply);

  TraceRun configure =
      Traced("cache/configure.jsonl", Verdict::kError, 0.5, 0, 1, "");
  configure.result.layer = Layer::kCache;
  configure.result.message =
      std::string("exec:./x: exited with status 3\0!", 32);
  run.traces.push_back(configure);

  TraceRun skip =
      Traced("queue/skip.jsonl", Verdict::kSkipped, 0.002, 2, 3, "q_move_all");
  skip.result.message =
      "exec:./x: does not support op q_move_all\n\x1b[1mbold\x1b[0m";
  run.traces.push_back(skip);

  TraceRun bad = Traced("bad-\xff\xfe.jsonl", Verdict::kError, 0.0006);
  bad.bad_input = true;
  bad.upstream = "";  // its header names no known version
  bad.result.message = "/golden/bad-\xff\xfe.jsonl:2: malformed JSON ";
  bad.result.message += std::string(1, '\0') + "\x07";
  run.traces.push_back(bad);

  SystemRun model;
  model.sut = "model";
  model.seconds = 0.5;
  TraceRun plain = Traced("queue/ok.jsonl", Verdict::kPassed, 0.4);
  plain.display.clear();  // falls back to the path
  model.traces.push_back(plain);
  return {run, model};
}

class ReportTest : public ScratchDirTest {
 protected:
  using ScratchDirTest::Write;
  // Writes `runs` as `name` (its extension picks the format).
  std::string Write(const std::string& name,
                    const std::vector<SystemRun>& runs) {
    std::string path = (dir_ / name).string();
    absl::Status s = WriteReport(path, runs);
    EXPECT_TRUE(s.ok()) << s;
    return path;
  }
};

TEST_F(ReportTest, EveryReportOfAHostileRunIsWellFormed) {
  for (const char* name : {"r.md", "r.xml", "r.json"}) {
    const std::string path = Write(name, HostileRuns());
    EXPECT_EQ(CheckReport(path), "") << name;
    // ANSI escapes show as text; nothing raw is left to act on a terminal.
    const std::string text = ReadFileBytes(path);
    EXPECT_THAT(text, Not(HasSubstr("\x1b"))) << name;
    EXPECT_THAT(text, HasSubstr("\\x1b[2J")) << name;
    EXPECT_THAT(text, HasSubstr("\\x07")) << name;
    EXPECT_THAT(text, HasSubstr(kLongLine)) << name;  // kept whole
  }
}

TEST_F(ReportTest, EmptyRunsGiveWellFormedReports) {
  for (const char* name : {"r.md", "r.xml", "r.json"}) {
    EXPECT_EQ(CheckReport(Write(name, {})), "") << name;
    SystemRun nothing;
    nothing.sut = "model";
    EXPECT_EQ(CheckReport(Write(name, {nothing})), "") << name;
  }
}

TEST_F(ReportTest, JUnitGivesCiSystemsTotalsTimesAndTheWholeText) {
  const std::vector<SystemRun> runs = HostileRuns();
  const std::vector<std::string> details = Details(runs[0]);
  json x = XmlTestcases(Write("r.xml", runs));
  ASSERT_FALSE(x.contains("error")) << x.dump();
  EXPECT_EQ(x["tag"], "testsuites");
  EXPECT_EQ(x["attrib"], (json{{"name", "schedtrace"},
                               {"tests", "8"},
                               {"failures", "2"},
                               {"errors", "3"},
                               {"skipped", "1"},
                               {"time", "10.750"}}));
  ASSERT_EQ(x["testsuites"].size(), 2);
  const json& suite = x["testsuites"][0];
  EXPECT_EQ(suite["attrib"], (json{{"name", "schedtrace." + SanitizeLine(kSut)},
                                   {"tests", "7"},
                                   {"failures", "2"},
                                   {"errors", "3"},
                                   {"skipped", "1"},
                                   {"time", "10.250"}}));
  EXPECT_EQ(suite["properties"]["system"], SanitizeLine(kSut));
  EXPECT_EQ(suite["properties"]["interrupted"], "true");
  EXPECT_EQ(suite["properties"]["knownViolation.in-flight-update-requeues"],
            "3");
  const json& cases = suite["testcases"];
  ASSERT_EQ(cases.size(), 7);
  const std::string cls = std::string("schedtrace.") + kSegment;
  const char* names[] = {"queue/ok.jsonl",        "queue/diverges.jsonl",
                         "queue/property.jsonl",  "queue/apply.jsonl",
                         "cache/configure.jsonl", "queue/skip.jsonl"};
  const char* times[] = {"0.012", "1.500", "0.250", "0.001",
                         "0.500", "0.002", "0.001"};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(cases[i]["time"], times[i]) << i;
    EXPECT_THAT(cases[i]["classname"].get<std::string>(), Not(HasSubstr(" ")));
    if (i < 6) {
      EXPECT_EQ(cases[i]["name"], names[i]);
    }
  }
  EXPECT_EQ(cases[0]["classname"], cls + ".queue");
  EXPECT_EQ(cases[4]["classname"], cls + ".cache");
  EXPECT_EQ(cases[6]["classname"], cls + ".bad-input");
  EXPECT_EQ(cases[6]["name"], "bad-\xef\xbf\xbd\xef\xbf\xbd.jsonl");
  EXPECT_FALSE(cases[0].contains("outcome"));
  // Each testcase says the version it ran as ("" for the bad input), in
  // properties of its own: the suite's are not mixed with them.
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(cases[i]["properties"], (json{{"upstream", "v1.26.7"}})) << i;
  }
  EXPECT_EQ(cases[6]["properties"], (json{{"upstream", ""}}));
  EXPECT_FALSE(suite["properties"].contains("upstream"));
  EXPECT_FALSE(suite["properties"].contains("declaredUpstream"));
  struct Outcome {
    int i;
    const char* tag;
    const char* type;
  };
  for (const Outcome& o :
       {Outcome{1, "failure", "divergence"}, Outcome{2, "failure", "property"},
        Outcome{3, "error", "apply"}, Outcome{4, "error", "configure"},
        Outcome{6, "error", "bad-input"}}) {
    const json& out = cases[o.i]["outcome"];
    EXPECT_EQ(out["tag"], o.tag) << o.i;
    EXPECT_EQ(out["attrib"]["type"], o.type) << o.i;
    // The whole text in the body, as the sanitizer gives it.
    EXPECT_EQ(out["text"], SanitizeText(details[o.i])) << o.i;
    const std::string message = out["attrib"]["message"];
    EXPECT_THAT(message, Not(HasSubstr("\n"))) << o.i;
    EXPECT_FALSE(message.empty()) << o.i;
  }
  EXPECT_THAT(cases[1]["outcome"]["attrib"]["message"].get<std::string>(),
              StartsWith("step 2 (q_pop): out.result: expected "
                         "{\"pod\":\"default/a\"}, actual \\x00\\x01"));
  // ... and says there is more than one difference.
  EXPECT_THAT(cases[1]["outcome"]["attrib"]["message"].get<std::string>(),
              HasSubstr(" (2 differences)"));
  // The trace's own path is left out: the testcase names it.
  EXPECT_EQ(cases[2]["outcome"]["attrib"]["message"],
            "step 3 (q_add): property broken");
  EXPECT_EQ(cases[5]["outcome"]["tag"], "skipped");
  EXPECT_EQ(cases[5]["outcome"]["attrib"]["message"],
            "exec:./x: does not support op q_move_all");
  // The second system: the path when there is no display name.
  const json& model = x["testsuites"][1]["testcases"][0];
  EXPECT_EQ(model["classname"], "schedtrace.model.queue");
  EXPECT_EQ(model["name"], "/golden/queue/ok.jsonl");
  EXPECT_FALSE(x["testsuites"][1]["properties"].contains("interrupted"));
}

TEST_F(ReportTest, JsonHasASchemaTimingsValuesAndPlaces) {
  const std::vector<SystemRun> runs = HostileRuns();
  const std::string path = Write("r.json", runs);
  ASSERT_EQ(CheckJson(path), "");
  json j = json::parse(ReadFileBytes(path));
  EXPECT_EQ(j["schema"], "schedtrace-report/1");
  EXPECT_EQ(j["interrupted"], true);
  EXPECT_DOUBLE_EQ(j["seconds"].get<double>(), 10.75);
  EXPECT_EQ(j["summary"], (json{{"passed", 2}, {"failed", 5}, {"skipped", 1}}));
  const json& s = j["systems"][0];
  EXPECT_EQ(s["sut"], SanitizeLine(kSut));
  EXPECT_EQ(s["interrupted"], true);
  EXPECT_DOUBLE_EQ(s["seconds"].get<double>(), 10.25);
  EXPECT_EQ(s["knownViolations"]["in-flight-update-requeues"], 3);
  const json& t = s["traces"];
  ASSERT_EQ(t.size(), 7);
  EXPECT_EQ(t[0]["display"], "queue/ok.jsonl");
  EXPECT_EQ(t[0]["path"], "/golden/queue/ok.jsonl");
  EXPECT_DOUBLE_EQ(t[0]["seconds"].get<double>(), 0.0123);
  EXPECT_FALSE(t[0].contains("at"));
  // Expected and actual are JSON values; text that is not JSON, a string.
  EXPECT_EQ(t[1]["divergence"]["expected"], (json{{"pod", "default/a"}}));
  EXPECT_EQ(t[1]["divergence"]["actual"], SanitizeText(AllBytes()));
  EXPECT_EQ(t[1]["divergence"]["path"], "out.result");
  // The whole divergence, sanitized: JSON values where they parse.
  EXPECT_EQ(t[1]["divergence"]["t"], 1500);
  EXPECT_EQ(t[1]["divergence"]["summary"],
            SanitizeLine("q_pop \x1b[31m" + AllBytes()));
  EXPECT_EQ(t[1]["divergence"]["description"],
            SanitizeText("pins ``` ]]> </failure> & \xff\n" + AllBytes()));
  EXPECT_EQ(t[1]["divergence"]["before"],
            (json{SanitizeLine("step 1 t=0: q_add d/\x1b[2J"),
                  SanitizeLine("step 2 t=1: " + AllBytes())}));
  EXPECT_EQ(t[1]["divergence"]["differences"],
            (json{{{"path", "out.result"},
                   {"kind", "changed"},
                   {"expected", {{"pod", "default/a"}}},
                   {"actual", SanitizeText(AllBytes())}},
                  {{"path", SanitizeLine("state.queue.active[d/\xff<x>]")},
                   {"kind", "missing"},
                   {"expected", {{"pod", "d/\u00ff"}}},
                   {"actual", "(absent)"}}}));
  // Where each verdict was decided, failures, errors and skips alike.
  EXPECT_EQ(t[1]["at"], (json{{"step", 2}, {"line", 3}, {"op", "q_pop"}}));
  EXPECT_EQ(t[2]["at"], (json{{"step", 3}, {"line", 4}, {"op", "q_add"}}));
  EXPECT_EQ(t[3]["at"], (json{{"step", 4}, {"line", 5}, {"op", "q_pop"}}));
  EXPECT_EQ(t[4]["at"], (json{{"step", 0}, {"line", 1}, {"op", ""}}));
  EXPECT_EQ(t[5]["at"], (json{{"step", 2}, {"line", 3}, {"op", "q_move_all"}}));
  EXPECT_TRUE(t[6]["at"].is_null());
  EXPECT_EQ(t[6]["badInput"], true);
  EXPECT_EQ(t[6]["layer"], "");
  // The version each trace ran as; the table per version and layer.
  EXPECT_EQ(t[0]["upstream"], "v1.26.7");
  EXPECT_EQ(t[6]["upstream"], "");
  EXPECT_EQ(s["upstreamOverride"], nullptr);
  EXPECT_EQ(s["declaredUpstreams"], json::array());
  EXPECT_EQ(s["table"], (json{{{"upstream", "v1.26.7"},
                               {"layer", "cache"},
                               {"passed", 0},
                               {"failed", 1},
                               {"skipped", 0}},
                              {{"upstream", "v1.26.7"},
                               {"layer", "queue"},
                               {"passed", 1},
                               {"failed", 3},
                               {"skipped", 1}},
                              {{"upstream", "?"},
                               {"layer", "(bad input)"},
                               {"passed", 0},
                               {"failed", 1},
                               {"skipped", 0}}}));
  // Messages whole, sanitized (newlines kept).
  const std::vector<std::string> details = Details(runs[0]);
  for (int i = 2; i < 7; ++i) {
    EXPECT_EQ(t[i]["message"], SanitizeText(details[i])) << i;
  }
  EXPECT_EQ(j["systems"][1]["traces"][0]["display"], "/golden/queue/ok.jsonl");
  EXPECT_EQ(j["systems"][1]["interrupted"], false);
}

TEST_F(ReportTest, JsonKeepsValuesThatAreJson) {
  SystemRun run;
  run.sut = "model";
  TraceRun tr = Traced("q.jsonl", Verdict::kFailed, 0, 1, 2, "q_pop");
  tr.result.divergence = Divergence{
      1, 2, "q_pop", "state.queue.active", R"([{"key":"a"}])", "(absent)"};
  run.traces.push_back(tr);
  json j = json::parse(JsonReport({run}));
  EXPECT_EQ(j["systems"][0]["traces"][0]["divergence"]["expected"],
            json::parse(R"([{"key":"a"}])"));
  EXPECT_EQ(j["systems"][0]["traces"][0]["divergence"]["actual"], "(absent)");
}

// A divergence with two differences, as the replayer builds it: every report
// shows both, with the step, its clock, the description and the steps
// before; the JSON report's values parse (nlohmann and Python agree).
TEST_F(ReportTest, EveryReportShowsTheWholeDivergence) {
  SystemRun run;
  run.sut = "impl";
  TraceRun tr = Traced("queue/two.jsonl", Verdict::kFailed, 0.1, 6, 8, "q_pop");
  Divergence d{6,          8,         "q_pop", "state.queue.active[0].pod",
               R"("d/a")", R"("d/b")"};
  d.t = 3000;
  d.step_summary = "q_pop";
  d.description = "the pod with the higher priority pops first";
  d.before = {"step 4 t=1000: q_add d/a(priority=1)",
              "step 5 t=2000: q_add d/b(priority=5)"};
  d.differences = {
      {"state.queue.active[d/b]", "moved", "#2", "#1"},
      {"state.queue.backoff[d/c].backoffExpiresAt", "changed", "7000", "6000"}};
  tr.result.divergence = d;
  run.traces.push_back(tr);
  const std::vector<std::string> lines = {
      "t=3000: state.queue.active[0].pod",
      "    trace:    the pod with the higher priority pops first",
      "    before:   step 4 t=1000: q_add d/a(priority=1)",
      "              step 5 t=2000: q_add d/b(priority=5)",
      "      moved   state.queue.active[d/b]: expected #2, actual #1",
      "      changed state.queue.backoff[d/c].backoffExpiresAt: expected 7000, "
      "actual 6000"};
  for (const char* name : {"r.md", "r.xml"}) {
    const std::string path = Write(name, {run});
    ASSERT_EQ(CheckReport(path), "") << name;
    const std::string text = ReadFileBytes(path);
    for (const std::string& line : lines) {
      EXPECT_THAT(text, HasSubstr(line)) << name;
    }
  }
  const std::string path = Write("r.json", {run});
  ASSERT_EQ(CheckJson(path), "");
  json j = json::parse(ReadFileBytes(path));
  const json& div = j["systems"][0]["traces"][0]["divergence"];
  EXPECT_EQ(div["t"], 3000);
  EXPECT_EQ(div["summary"], "q_pop");
  EXPECT_EQ(div["description"], "the pod with the higher priority pops first");
  EXPECT_EQ(div["before"], (json{"step 4 t=1000: q_add d/a(priority=1)",
                                 "step 5 t=2000: q_add d/b(priority=5)"}));
  EXPECT_EQ(div["path"], "state.queue.active[0].pod");
  EXPECT_EQ(div["expected"], "d/a");  // a JSON string, parsed
  EXPECT_EQ(div["differences"],
            (json{{{"path", "state.queue.active[d/b]"},
                   {"kind", "moved"},
                   {"expected", "#2"},
                   {"actual", "#1"}},
                  {{"path", "state.queue.backoff[d/c].backoffExpiresAt"},
                   {"kind", "changed"},
                   {"expected", 7000},
                   {"actual", 6000}}}));
  // What a Python tool reads.
  CliResult py = RunPython(
      "import json, sys\n"
      "d = json.load(open(sys.argv[1]))['systems'][0]['traces'][0]"
      "['divergence']\n"
      "for x in d['differences']:\n"
      "    print(x['kind'], x['path'], json.dumps(x['expected']), "
      "json.dumps(x['actual']))\n",
      path);
  EXPECT_EQ(py.status, 0) << py.output;
  EXPECT_EQ(py.output,
            "moved state.queue.active[d/b] \"#2\" \"#1\"\n"
            "changed state.queue.backoff[d/c].backoffExpiresAt 7000 6000\n");
}

TEST_F(ReportTest, MarkdownFencesHoldTheWholeText) {
  const std::vector<SystemRun> runs = HostileRuns();
  const std::string path = Write("r.md", runs);
  ASSERT_EQ(CheckMarkdown(path), "");
  const std::string md = ReadFileBytes(path);
  MarkdownBlocks b = FencedBlocks(md);
  ASSERT_TRUE(b.balanced);
  const std::vector<std::string> details = Details(runs[0]);
  std::vector<std::string> want;
  for (int i : {1, 2, 3, 4, 6}) {  // failures and errors, skips not
    std::string text = SanitizeText(details[i]);
    if (text.back() != '\n') text += '\n';
    want.push_back(text);
  }
  EXPECT_EQ(b.blocks, want);
  // The table's cells escape what would end a cell or be read as HTML.
  EXPECT_THAT(md, HasSubstr("| exec:./my sched --x\\|y \\`z\\` \\<b\\>\\&"
                            "\\\\x1b\\[31m | v1.26.7 | queue | 1 | 3 | 1 |"));
  EXPECT_THAT(md, HasSubstr("| model | v1.26.7 | queue | 1 | 0 | 0 |"));
  EXPECT_THAT(md, HasSubstr("| ? | (bad input) | 0 | 1 | 0 |"));
  EXPECT_THAT(md, HasSubstr("**Interrupted**"));
  EXPECT_THAT(md, HasSubstr("**2 passed, 5 failed, 1 skipped** in 10.750 s"));
  EXPECT_THAT(md, HasSubstr("step 2 (q_pop), line 3, 1.500 s"));
  EXPECT_THAT(md, HasSubstr("### FAIL `queue/diverges.jsonl` on "));
  EXPECT_THAT(md, HasSubstr("| in-flight-update-requeues |"));
}

TEST_F(ReportTest, ConformanceTableListsNoFailuresAndPrintsNothingRaw) {
  const std::string table = ConformanceTable(HostileRuns());
  EXPECT_TRUE(IsSanitizedText(table));
  EXPECT_THAT(table, Not(HasSubstr("failures (")));
  EXPECT_THAT(table, Not(HasSubstr("diverges.jsonl")));
  EXPECT_THAT(table, Not(HasSubstr("property broken")));
  EXPECT_THAT(table, HasSubstr(SanitizeLine(kSut) +
                               " v1.26.7  queue              1       3       "
                               "1\n"));
  EXPECT_THAT(table, HasSubstr(" ?        (bad input)        0       1       "
                               "0\n"));
  // Said as what it is: the system matched upstream's own behaviour.
  EXPECT_THAT(table, HasSubstr("known upstream violations: at these steps " +
                               SanitizeLine(kSut) +
                               " does what upstream's own code does"));
  EXPECT_THAT(table, HasSubstr("they are not failures:\n"));
  EXPECT_THAT(table, HasSubstr("in-flight-update-requeues"));
}

// Traces of several versions, one system run with --upstream and one
// whose child declared its version: every format says so, and tabulates
// system x version x layer (versions oldest first).
TEST_F(ReportTest, EveryFormatCarriesTheVersions) {
  SystemRun child;
  child.sut = "exec:./sched";
  child.declared_upstreams = {"v1.30.12"};
  for (const char* v : {"v1.30.12", "v1.25.12", "v1.26.7", "v1.30.12"}) {
    TraceRun tr = Traced(
        std::string("queue/") + v + ".jsonl",
        std::string(v) == "v1.30.12" ? Verdict::kPassed : Verdict::kSkipped,
        0.01);
    tr.upstream = v;
    tr.declared_upstream = "v1.30.12";
    if (tr.result.verdict == Verdict::kSkipped) {
      tr.result.message = std::string(
                              "exec:./sched: the child implements "
                              "v1.30.12, the trace is ") +
                          v;
    }
    child.traces.push_back(tr);
  }
  SystemRun model;
  model.sut = "model";
  model.upstream_override = "v1.25.12";
  TraceRun tr = Traced("queue/a.jsonl", Verdict::kPassed, 0.01);
  tr.upstream = "v1.25.12";
  model.traces.push_back(tr);
  const std::vector<SystemRun> runs = {child, model};

  const std::string table = ConformanceTable(runs);
  EXPECT_THAT(table,
              HasSubstr("exec:./sched v1.25.12 queue              0       0"
                        "       1\n"
                        "exec:./sched v1.26.7  queue              0       0"
                        "       1\n"
                        "exec:./sched v1.30.12 queue              2       0"
                        "       0\n"
                        "model        v1.25.12 queue              1       0"
                        "       0\n"));
  EXPECT_THAT(table, HasSubstr("every trace ran on model as v1.25.12 "
                               "(--upstream), with its own expectations\n"));

  const std::string md = ReadFileBytes(Write("r.md", runs));
  EXPECT_EQ(CheckMarkdown(Path("r.md")), "");
  EXPECT_THAT(md, HasSubstr("| system | version | layer | passed | failed | "
                            "skipped |\n"));
  EXPECT_THAT(md, HasSubstr("| exec:./sched | v1.25.12 | queue | 0 | 0 | 1 |\n"
                            "| exec:./sched | v1.26.7 | queue | 0 | 0 | 1 |\n"
                            "| exec:./sched | v1.30.12 | queue | 2 | 0 | 0 |\n"
                            "| model | v1.25.12 | queue | 1 | 0 | 0 |\n"));
  EXPECT_THAT(md, HasSubstr("exec:./sched implements v1.30.12 (its header "
                            "reply).\n"));
  EXPECT_THAT(md, HasSubstr("Every trace ran on model as v1.25.12 "
                            "(`--upstream`), with its own expectations."));

  json x = XmlTestcases(Write("r.xml", runs));
  ASSERT_FALSE(x.contains("error")) << x.dump();
  EXPECT_EQ(x["testsuites"][0]["properties"]["declaredUpstream"], "v1.30.12");
  EXPECT_FALSE(x["testsuites"][0]["properties"].contains("upstreamOverride"));
  EXPECT_EQ(x["testsuites"][1]["properties"]["upstreamOverride"], "v1.25.12");
  EXPECT_EQ(x["testsuites"][0]["testcases"][1]["properties"]["upstream"],
            "v1.25.12");
  EXPECT_EQ(x["testsuites"][0]["testcases"][1]["outcome"]["attrib"]["message"],
            "exec:./sched: the child implements v1.30.12, the trace is "
            "v1.25.12");

  const std::string path = Write("r.json", runs);
  ASSERT_EQ(CheckJson(path), "");
  json j = json::parse(ReadFileBytes(path));
  EXPECT_EQ(j["systems"][0]["declaredUpstreams"], json({"v1.30.12"}));
  EXPECT_EQ(j["systems"][0]["upstreamOverride"], nullptr);
  EXPECT_EQ(j["systems"][1]["upstreamOverride"], "v1.25.12");
  EXPECT_EQ(j["systems"][1]["declaredUpstreams"], json::array());
  std::vector<std::string> versions;
  for (const json& row : j["systems"][0]["table"]) {
    versions.push_back(row["upstream"]);
  }
  EXPECT_EQ(versions,
            (std::vector<std::string>{"v1.25.12", "v1.26.7", "v1.30.12"}));
  EXPECT_EQ(j["systems"][0]["traces"][1]["upstream"], "v1.25.12");
}

TEST_F(ReportTest, AFailureToWriteIsAStatusNotAnAbort) {
  absl::Status s =
      WriteReport((dir_ / "no-such-dir" / "r.json").string(), HostileRuns());
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr("cannot write"));
  EXPECT_EQ(WriteReport((dir_ / "r.txt").string(), {}).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace schedtrace::cli
