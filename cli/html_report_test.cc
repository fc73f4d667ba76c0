// The HTML report (`--report=FILE.html`): one self-contained page. Its
// structure is read by a real HTML parser (Python's html.parser): hostile
// bytes from a run stay text, nothing points outside the file, the counts,
// the summary table, each failure's divergence and timeline are there. Then
// a real headless browser (chromium, installed by ci/bootstrap) renders it:
// a screenshot, the DOM after its script ran, what the page looks like to
// the browser (the divergent step highlighted, a failure collapsed, the
// filter box filtering), and the network log (the page requests nothing).
// The end-to-end pages come from the real binary replaying a failing trace.
#include "cli/html_report.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_test_util.h"
#include "cli/headless_browser_test_util.h"
#include "cli/report.h"
#include "cli/report_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

using nlohmann::json;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// --- Runs made in process ---

// What a hostile child or trace could put in any text: markup that would
// end the script element or run code, invalid UTF-8, a NUL, an ANSI escape.
const std::string kHostile =
    std::string(
        "</script><script>alert(1)</script><img src=x "
        "onerror=alert(2)> \xff\xfe\xc0\xaf \x1b[31m & \"q\" 'a' ") +
    std::string(1, '\0') + " end";
const std::string kHostileSut = "exec:./x --y <b>&'\"\x1b[2J";

PodPlace Place(const std::string& where, const std::string& out = "") {
  PodPlace p;
  p.where = where;
  p.places = {where};
  p.out = out;
  return p;
}

// A queue trace whose third step (q_pop) pops default/b where the trace
// expects default/a: its divergence and the timeline of both pods.
TraceRun PopOrderFailure(const std::string& display,
                         const std::string& hostile = "") {
  TraceRun tr;
  tr.display = display;
  tr.result.path = "/golden/" + display;
  tr.result.name = "queue/pop-order";
  tr.result.layer = Layer::kQueue;
  tr.upstream = "v1.26.7";
  tr.result.verdict = Verdict::kFailed;
  tr.result.steps_run = 3;
  tr.result.at_step = 3;
  tr.result.at_line = 4;
  tr.result.at_op = "q_pop";
  tr.seconds = 0.002;
  Divergence d;
  d.step = 3;
  d.line = 4;
  d.op = "q_pop";
  d.path = "out.popped";
  d.expected = R"("default/a")";
  d.actual = R"("default/b")" + hostile;
  d.t = 300;
  d.step_summary = "q_pop";
  d.description = "pods of equal priority pop in arrival order" + hostile;
  d.before = {"step 1 t=100: q_add default/a(priority=1)",
              "step 2 t=200: q_add default/b(priority=1)" + hostile};
  d.differences = {
      {"out.popped", "changed", R"("default/a")", R"("default/b")" + hostile},
      {"state.queue.active[default/a]", "missing", R"({"pod":"default/a"})",
       "(absent)"},
      {"state.queue.active[default/b]", "extra", "(absent)",
       R"({"pod":"default/b"})"}};
  tr.result.divergence = d;

  Timeline tl;
  tl.trace = tr.result.path;
  tl.description = d.description;
  tl.sut = "model";
  tl.pods = {"default/a", "default/b"};
  tl.pods_chosen = "named by the first divergence";
  tl.steps = 5;
  tl.steps_run = 5;
  tl.divergence = d;
  auto row = [](int step, int64_t t, const std::string& summary) {
    TimelineRow r;
    r.step = step;
    r.line = step + 1;
    r.t = t;
    r.op = summary.substr(0, summary.find(' '));
    r.summary = summary;
    r.has_expected = true;
    return r;
  };
  TimelineRow r1 = row(1, 100, "q_add default/a(priority=1)");
  r1.expected = r1.actual = {{"default/a", Place("activeQ #1")},
                             {"default/b", Place("not added yet")}};
  TimelineRow r2 = row(2, 200, "q_add default/b(priority=1)");
  r2.expected = r2.actual = {{"default/a", Place("activeQ #1")},
                             {"default/b", Place("activeQ #2")}};
  TimelineRow r3 = row(3, 300, "q_pop");
  r3.divergent = true;
  r3.expected = {{"default/a", Place("in flight", "popped")},
                 {"default/b", Place("activeQ #1")}};
  r3.actual = {{"default/a", Place("activeQ #1")},
               {"default/b", Place("in flight" + hostile, "popped")}};
  r3.differing = {"default/a", "default/b"};
  r3.expected_out = R"({"popped":"default/a"})";
  r3.actual_out = R"({"popped":"default/b"})";
  r3.out_differs = true;
  TimelineRow r4 = row(4, 400, "q_pop");
  r4.expected = r4.actual = {{"default/a", Place("in flight")},
                             {"default/b", Place("in flight", "popped")}};
  TimelineRow r5 = row(5, 500, "flush_backoff");
  r5.expected = r5.actual = r4.actual;
  r5.expected["default/b"].out.clear();
  r5.actual["default/b"].out.clear();
  tl.rows = {r1, r2, r3, r4, r5};
  tr.timeline = tl;
  return tr;
}

TraceRun Simple(const std::string& display, Verdict verdict) {
  TraceRun tr;
  tr.display = display;
  tr.result.path = "/golden/" + display;
  tr.result.name = display.substr(0, display.find('.'));
  tr.result.verdict = verdict;
  tr.upstream = "v1.26.7";
  tr.seconds = 0.001;
  return tr;
}

// Traces 0..5: pass, divergence (hostile bytes in every text), apply error
// (every byte 0..255 in its message), skip, bad input, property violation.
std::vector<SystemRun> HostileRuns() {
  SystemRun run;
  run.sut = kHostileSut;
  run.seconds = 1.25;
  run.interrupted = true;
  run.known_violations["in-flight-update-requeues"] = 2;
  run.traces.push_back(Simple("queue/ok.jsonl", Verdict::kPassed));
  run.traces.back().result.comparisons_skipped = 4;
  run.traces.push_back(PopOrderFailure(
      "queue/pop-<img src=x onerror=alert(3)>.jsonl", kHostile));
  TraceRun error = Simple("queue/apply.jsonl", Verdict::kError);
  error.result.at_step = 2;
  error.result.at_line = 3;
  error.result.at_op = "q_pop";
  error.result.message = "exec:./x: not a reply: " + kHostile + AllBytes();
  run.traces.push_back(error);
  TraceRun skip = Simple("queue/skip.jsonl", Verdict::kSkipped);
  skip.result.message = "exec:./x: does not support op q_move_all";
  run.traces.push_back(skip);
  TraceRun bad = Simple("bad-\xff.jsonl", Verdict::kError);
  bad.bad_input = true;
  bad.upstream = "";  // its header names no known version
  bad.result.message = "/golden/bad.jsonl:2: malformed JSON " + kHostile;
  run.traces.push_back(bad);
  TraceRun property = Simple("queue/property.jsonl", Verdict::kFailed);
  property.result.at_step = 2;
  property.result.at_line = 3;
  property.result.at_op = "q_add";
  property.result.message = "property 3 violated: " + kHostile;
  run.traces.push_back(property);
  return {run};
}

// The same shape with nothing hostile: one pass, one divergence.
std::vector<SystemRun> CleanRuns() {
  SystemRun run;
  run.sut = "model";
  run.seconds = 0.5;
  run.traces.push_back(Simple("queue/ok.jsonl", Verdict::kPassed));
  run.traces.back().result.comparisons_skipped = 4;
  run.traces.push_back(PopOrderFailure("queue/pop-order.jsonl"));
  return {run};
}

// --- The page as an HTML parser reads it ---

// Python's html.parser over the file (read as strict UTF-8): the tags, the
// attributes, links and sources, ids, the script elements' text, the ids of
// the highlighted timeline rows, the <details> elements, the text.
json HtmlStructure(const std::string& path) {
  static constexpr char kProgram[] = R"(
import json, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.hrefs, self.srcs, self.ids = {}, set(), [], [], []
        self.scripts, self.hits, self.details, self.text = [], [], [], []
        self.in_script = False
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        d = dict(attrs)
        for k, v in attrs:
            self.attrs.add(k)
            if k == "href": self.hrefs.append(v)
            if k == "src": self.srcs.append(v)
            if k == "id": self.ids.append(v)
        classes = (d.get("class") or "").split()
        if tag == "tr" and "hit" in classes: self.hits.append(d.get("id"))
        if tag == "details":
            self.details.append({"id": d.get("id"), "classes": classes,
                                 "open": "open" in d})
        if tag == "script":
            self.in_script = True
            self.scripts.append("")
    def handle_endtag(self, tag):
        if tag == "script": self.in_script = False
    def handle_data(self, data):
        if self.in_script: self.scripts[-1] += data
        else: self.text.append(data)
p = P()
p.feed(open(sys.argv[1], encoding="utf-8", errors="strict").read())
p.close()
print(json.dumps({"tags": p.tags, "attrs": sorted(p.attrs), "hrefs": p.hrefs,
                  "srcs": p.srcs, "ids": p.ids, "scripts": p.scripts,
                  "hits": p.hits, "details": p.details,
                  "text": "".join(p.text)}))
)";
  CliResult r = RunPython(kProgram, path);
  if (r.status != 0) return json{{"error", r.output.substr(0, 3000)}};
  json j = json::parse(r.output, nullptr, false);
  if (j.is_discarded()) return json{{"error", "html.parser printed no JSON"}};
  return j;
}

// "" when the page is self-contained and inert: one script element (the
// page's own), no attribute that runs code, no source, every link to an id
// of the page, only the elements the report writes, a Content Security
// Policy that forbids any request.
std::string CheckSelfContained(const std::string& page, const json& s) {
  if (s.contains("error")) return "html.parser: " + s["error"].dump();
  if (s["scripts"].size() != 1) {
    return "script elements: " + std::to_string(s["scripts"].size());
  }
  for (const json& a : s["attrs"]) {
    if (a.get<std::string>().starts_with("on")) {
      return "an event handler attribute: " + a.dump();
    }
  }
  if (!s["srcs"].empty()) return "a src attribute: " + s["srcs"].dump();
  std::set<std::string> ids;
  for (const json& id : s["ids"]) ids.insert(id.get<std::string>());
  if (ids.size() != s["ids"].size()) return "duplicate ids";
  for (const json& h : s["hrefs"]) {
    const std::string href = h.get<std::string>();
    if (!href.starts_with("#") || !ids.contains(href.substr(1))) {
      return "a link outside the page: " + href;
    }
  }
  static const std::set<std::string> kElements = {
      "html",  "head", "meta", "title", "style", "body",   "main",    "h1",
      "h2",    "h4",   "p",    "div",   "span",  "b",      "table",   "thead",
      "tbody", "tr",   "th",   "td",    "code",  "pre",    "details", "summary",
      "a",     "ul",   "ol",   "li",    "input", "button", "script"};
  for (const auto& [tag, n] : s["tags"].items()) {
    if (!kElements.contains(tag)) return "an unexpected element: <" + tag + ">";
  }
  if (page.find("http-equiv=\"Content-Security-Policy\" content=\"default-src "
                "'none';") == std::string::npos) {
    return "no Content-Security-Policy forbidding requests";
  }
  return "";
}

int CountOf(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size())) {
    ++n;
  }
  return n;
}

class HtmlReportTest : public ScratchDirTest {
 protected:
  using ScratchDirTest::Write;
  // Writes `runs` through WriteReport (the .html dispatch) as `name`.
  std::string Write(const std::vector<SystemRun>& runs,
                    const std::string& name = "r.html") {
    const std::string path = (dir_ / name).string();
    absl::Status s = WriteReport(path, runs);
    EXPECT_TRUE(s.ok()) << s;
    return path;
  }
};

TEST_F(HtmlReportTest, HostileBytesStayText) {
  const std::string path = Write(HostileRuns());
  const std::string page = ReadFileBytes(path);
  EXPECT_EQ(CheckPrintable(page), "");  // valid UTF-8, no control byte
  EXPECT_THAT(page, Not(HasSubstr("\x1b")));
  const json s = HtmlStructure(path);
  ASSERT_FALSE(s.contains("error")) << s.dump();
  EXPECT_EQ(CheckSelfContained(page, s), "");
  EXPECT_FALSE(s["tags"].contains("img"));
  // What the bytes said reads back as text, sanitized.
  const std::string text = s["text"];
  EXPECT_THAT(text, HasSubstr("</script><script>alert(1)</script><img src=x "
                              "onerror=alert(2)>"));
  EXPECT_THAT(text, HasSubstr("pop-<img src=x onerror=alert(3)>.jsonl"));
  EXPECT_THAT(text, HasSubstr("\xEF\xBF\xBD"));  // U+FFFD for \xff
  EXPECT_THAT(text, HasSubstr("\\x1b[31m"));
  EXPECT_THAT(text, HasSubstr("\\x00"));
  EXPECT_THAT(text, HasSubstr(SanitizeLine(kHostileSut)));
  // The one script is the page's own, untouched by what a run wrote.
  EXPECT_THAT(s["scripts"][0].get<std::string>(), Not(HasSubstr("alert")));
}

TEST_F(HtmlReportTest, NothingPointsOutsideTheFile) {
  const std::string path = Write(CleanRuns());
  const std::string page = ReadFileBytes(path);
  for (const char* external :
       {"http://", "https://", "src=", "url(", "@import", "href=\"/",
        "href=\"file:", "href=\"data:", "//cdn", "<link", "<img", "<iframe"}) {
    EXPECT_THAT(page, Not(HasSubstr(external))) << external;
  }
  const json s = HtmlStructure(path);
  EXPECT_EQ(CheckSelfContained(page, s), "");
  EXPECT_FALSE(s["hrefs"].empty());  // the links there are, are anchors
}

std::string text_of(const json& structure) {
  return structure.value("text", std::string());
}

TEST_F(HtmlReportTest, CountsSummaryAndEachFailureWithItsTimeline) {
  std::vector<SystemRun> runs = HostileRuns();
  SystemRun model;
  model.sut = "model";
  model.traces.push_back(PopOrderFailure("queue/second.jsonl"));
  model.traces.push_back(Simple("cache/fine.jsonl", Verdict::kPassed));
  model.traces.back().result.layer = Layer::kCache;
  runs.push_back(model);
  const std::string path = Write(runs);
  const std::string page = ReadFileBytes(path);
  const json s = HtmlStructure(path);
  ASSERT_FALSE(s.contains("error")) << s.dump();
  EXPECT_EQ(CheckSelfContained(page, s), "");

  // The header: 2 passed, 3 failed (2 divergences, 1 property), 2 errors,
  // 1 skipped, 8 traces.
  EXPECT_THAT(page,
              AllOf(HasSubstr("<b>2</b>passed"), HasSubstr("<b>3</b>failed"),
                    HasSubstr("<b>2</b>errors"), HasSubstr("<b>1</b>skipped"),
                    HasSubstr("<b>8</b>traces")));
  EXPECT_THAT(page, HasSubstr("2 passed, 5 failed, 1 skipped"));
  // The table per system, version and layer: passed, failed, errors,
  // skipped.
  EXPECT_THAT(page, HasSubstr("<tr><td>model</td><td>v1.26.7</td><td>cache</td>"
                              "<td class=\"num good\">1</td><td class=\"num "
                              "zero\">0</td>"));
  EXPECT_THAT(page, HasSubstr("<tr><td>model</td><td>v1.26.7</td><td>queue</td>"
                              "<td class=\"num zero\">0</td><td class=\"num "
                              "bad\">1</td>"));
  EXPECT_THAT(page, HasSubstr("(bad input)"));
  EXPECT_THAT(text_of(s), HasSubstr("Interrupted: the run was stopped"));
  EXPECT_THAT(text_of(s), HasSubstr("State comparisons skipped on exec:./x"));
  EXPECT_THAT(text_of(s), HasSubstr(": 4 (parts the system does not report)"));
  EXPECT_THAT(page, HasSubstr("in-flight-update-requeues"));  // known ones

  // Each failure and error, in run order, a <details> of its own; the first
  // few open.
  std::vector<std::string> ids;
  for (const json& d : s["details"]) {
    for (const json& c : d["classes"]) {
      if (c == "trace") ids.push_back(d["id"]);
    }
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"t1", "t2", "t4", "t5", "t6"}));
  EXPECT_TRUE(s["details"][0]["open"]);
  // The failure: its summary line, where, the differences and the steps
  // before; its timeline with a column per pod, the divergent row
  // highlighted and linked to.
  const std::string text = s["text"];
  EXPECT_THAT(text, HasSubstr("FAIL"));
  EXPECT_THAT(text, HasSubstr("queue/second.jsonl"));
  EXPECT_THAT(text, HasSubstr("step 3 (q_pop), line 4"));
  EXPECT_THAT(text, HasSubstr("state.queue.active[default/a]"));
  EXPECT_THAT(text, HasSubstr("step 1 t=100: q_add default/a(priority=1)"));
  EXPECT_THAT(text, HasSubstr("pods of equal priority pop in arrival order"));
  EXPECT_THAT(page, HasSubstr("<span class=\"kind k-missing\">missing</span>"));
  EXPECT_THAT(page, HasSubstr("<span class=\"kind k-extra\">extra</span>"));
  EXPECT_THAT(page, HasSubstr("<th class=\"pod\">default/a</th><th "
                              "class=\"pod\">default/b</th>"));
  EXPECT_EQ(s["hits"], (json{"t1-s3", "t6-s3"}));
  EXPECT_THAT(page, HasSubstr("<a href=\"#t6-s3\">step 3</a>"));
  for (int step : {1, 2, 4}) {
    EXPECT_THAT(page, HasSubstr("<tr id=\"t6-s" + std::to_string(step) + "\">"))
        << step;
  }
  EXPECT_THAT(page, HasSubstr("step 5: no change for these pods"));
  // Where the sides differ: expected above actual, marked.
  EXPECT_THAT(page, HasSubstr("<td class=\"ne\"><div class=\"exp\"><span "
                              "class=\"lbl\">expected</span>in flight; out: "
                              "popped</div><div class=\"act\"><span "
                              "class=\"lbl\">\xE2\x89\xA0 actual</span>activeQ "
                              "#1</div></td>"));
  EXPECT_THAT(page, HasSubstr("{&quot;popped&quot;:&quot;default/b&quot;}"));
  // Errors show their message; the property violation too; bad input has
  // no timeline to offer.
  EXPECT_THAT(text, HasSubstr("exec:./x: not a reply: "));
  EXPECT_THAT(text, HasSubstr("property 3 violated: "));
  // Passing and skipped traces: names in a collapsed list.
  EXPECT_THAT(page, HasSubstr("<details class=\"list passed\"><summary>Passed "
                              "on model, v1.26.7 (1)</summary>"));
  EXPECT_THAT(text, HasSubstr("exec:./x: does not support op q_move_all"));
  EXPECT_THAT(text, HasSubstr("cache/fine.jsonl"));
}

TEST_F(HtmlReportTest, WithoutTheWholeDivergenceShowsTheFirstDifference) {
  std::vector<SystemRun> runs = CleanRuns();
  TraceRun& tr = runs[0].traces[1];
  tr.result.divergence->differences.clear();
  tr.result.divergence->before.clear();
  tr.result.divergence->description.clear();
  tr.timeline.reset();
  const std::string page = HtmlReport(runs);
  EXPECT_THAT(page, HasSubstr("<tr><td><span class=\"kind k-first\">first"
                              "</span></td><td><code>out.popped</code></td>"
                              "<td class=\"exp\"><code>&quot;default/a&quot;"
                              "</code></td><td class=\"act\"><code>&quot;"
                              "default/b&quot;</code></td></tr>"));
  EXPECT_THAT(page, HasSubstr("No timeline"));
}

// On the failing step, a pod that did not move says since when it has been
// where it is.
TEST_F(HtmlReportTest, TheFailingStepSaysSinceWhenAPodStayed) {
  std::vector<SystemRun> runs = CleanRuns();
  Timeline& tl = *runs[0].traces[1].timeline;
  tl.pods.push_back("default/c");
  for (TimelineRow& row : tl.rows) {
    row.expected["default/c"] = row.actual["default/c"] =
        Place("unschedulable [NodeResourcesFit]");
    row.expected_since["default/c"] = row.actual_since["default/c"] = 1;
  }
  const std::string page = HtmlReport(runs);
  EXPECT_EQ(CountOf(page, "<span class=\"since\">since step 1</span>"), 1);
  EXPECT_THAT(page,
              HasSubstr("<td class=\"same\"><div class=\"both\">"
                        "unschedulable [NodeResourcesFit] <span "
                        "class=\"since\">since step 1</span></div></td>"));
}

TEST_F(HtmlReportTest, SameRunsSameBytes) {
  EXPECT_EQ(HtmlReport(HostileRuns()), HtmlReport(HostileRuns()));
  EXPECT_THAT(HtmlReport({}), HasSubstr("Failures and errors (0)"));
}

TEST_F(HtmlReportTest, LongTextIsCutAndSaysSo) {
  std::vector<SystemRun> runs = CleanRuns();
  TraceRun& tr = runs[0].traces[1];
  tr.result.message = std::string(64 * 1024, 'L');
  tr.result.divergence->differences[0].actual = std::string(64 * 1024, 'A');
  const std::string page = HtmlReport(runs);
  EXPECT_THAT(page, HasSubstr("more bytes not shown: the JSON report has"));
  EXPECT_THAT(page, Not(HasSubstr(std::string(4000, 'A'))));
  EXPECT_LT(page.size(), 64u * 1024);
}

// A long timeline shows the steps up to the failure and a few after it;
// a thousand failures are a thousand one-line summaries, three open.
TEST_F(HtmlReportTest, AThousandFailuresStayCompact) {
  SystemRun run;
  run.sut = "impl";
  for (int i = 0; i < 1000; ++i) {
    TraceRun tr = PopOrderFailure("queue/f" + std::to_string(i) + ".jsonl");
    // 200 steps after the failure that move nothing.
    for (int step = 6; step <= 205; ++step) {
      TimelineRow r = tr.timeline->rows.back();
      r.step = step;
      r.line = step + 1;
      tr.timeline->rows.push_back(r);
    }
    tr.timeline->steps = tr.timeline->steps_run = 205;
    run.traces.push_back(std::move(tr));
    run.traces.push_back(
        Simple("queue/p" + std::to_string(i) + ".jsonl", Verdict::kPassed));
  }
  const std::string page = HtmlReport({run});
  EXPECT_EQ(CountOf(page, "<details class=\"trace\""), 1000);
  EXPECT_EQ(CountOf(page, "\" open>"), 3);
  EXPECT_EQ(CountOf(page, "<details class=\"list passed\">"), 1);
  EXPECT_THAT(page, HasSubstr("steps 7-205 not shown"));
  EXPECT_THAT(page, Not(HasSubstr("id=\"t0-s7\"")));
  // About 4 KB a failure (its divergence, differences, timeline).
  EXPECT_LT(page.size(), 1000u * 6 * 1024) << page.size();
}

// --- Through the binary ---

// A golden trace whose second step's expectation is swapped (activeQ
// default/b before default/a), its description hostile: `schedtrace replay
// --sut=model` fails it at step 2.
std::string WriteSwappedTrace(const std::filesystem::path& dir) {
  std::ifstream in(std::string(SCHEDTRACE_SOURCE_DIR) +
                   "/golden/handwritten/queue/activate-cases.jsonl");
  std::vector<std::string> lines;
  for (std::string line; lines.size() < 3 && std::getline(in, line);) {
    lines.push_back(line);
  }
  if (lines.size() < 3) return "";
  json header = json::parse(lines[0]);
  header["description"] =
      "activeQ pops in arrival order " + SanitizeLine(kHostile);
  json step = json::parse(lines[2]);
  json& active = step["expect"]["state"]["queue"]["active"];
  std::swap(active[0], active[1]);
  std::filesystem::create_directories(dir / "traces");
  const std::filesystem::path path = dir / "traces" / "pop-swapped.jsonl";
  std::ofstream out(path);
  out << header.dump() << "\n" << lines[1] << "\n" << step.dump() << "\n";
  return out ? path.string() : "";
}

TEST_F(HtmlReportTest, TheBinaryWritesTheReportOfAFailingTrace) {
  const std::string trace = WriteSwappedTrace(dir_);
  ASSERT_FALSE(trace.empty());
  const std::string report = (dir_ / "r.html").string();
  CliResult r =
      RunSchedtrace("replay --sut=model --report=" + ShellQuote(report) + " " +
                    ShellQuote((dir_ / "traces").string()));
  EXPECT_EQ(r.status, 1) << r.output;
  const std::string page = ReadFileBytes(report);
  const json s = HtmlStructure(report);
  ASSERT_FALSE(s.contains("error")) << s.dump();
  EXPECT_EQ(CheckSelfContained(page, s), "");
  EXPECT_EQ(CheckPrintable(page), "");
  const std::string text = s["text"];
  EXPECT_THAT(text, HasSubstr("pop-swapped.jsonl"));
  EXPECT_THAT(text, HasSubstr("step 2 (q_add), line 3"));
  EXPECT_THAT(text, HasSubstr("activeQ pops in arrival order </script>"));
  EXPECT_EQ(s["hits"], (json{"t0-s2"}));  // the timeline's divergent row
  EXPECT_THAT(page, HasSubstr("<th class=\"pod\">default/a</th>"));
  EXPECT_THAT(page, HasSubstr("<a href=\"#t0-s2\">step 2</a>"));
}

// A planted bug (docs/MUTANTS.md) over golden traces: many failures, each
// with its timeline, in one well-formed page.
TEST_F(HtmlReportTest, AMutantOverGoldenTracesGivesOnePageOfFailures) {
  const std::filesystem::path mutants =
      std::filesystem::path(SCHEDTRACE_BIN).parent_path() /
      "schedtrace_mutants";
  if (!std::filesystem::exists(mutants)) {
    GTEST_SKIP() << "no " << mutants << " (a SCHEDTRACE_MUTANTS=ON build)";
  }
  const std::string report = (dir_ / "m.html").string();
  CliResult r = RunCommand(
      "SCHEDTRACE_MUTANT=attempts-not-counted " + ShellQuote(mutants.string()) +
      " replay -q --sut=impl --report=" + ShellQuote(report) + " " +
      ShellQuote(std::string(SCHEDTRACE_SOURCE_DIR) +
                 "/golden/handwritten/queue") +
      " 2>&1");
  EXPECT_EQ(r.status, 1) << r.output;
  const size_t at = r.output.rfind(" failed");
  ASSERT_NE(at, std::string::npos) << r.output;
  const size_t from = r.output.rfind(", ", at);
  const int failed = std::stoi(r.output.substr(from + 2, at - from - 2));
  EXPECT_GT(failed, 5);
  const std::string page = ReadFileBytes(report);
  const json s = HtmlStructure(report);
  ASSERT_FALSE(s.contains("error")) << s.dump();
  EXPECT_EQ(CheckSelfContained(page, s), "");
  EXPECT_EQ(CountOf(page, "<details class=\"trace"), failed);
  EXPECT_EQ(CountOf(page, "<table class=\"tl\">"), failed);  // each timeline
  // Each failure's timeline highlights its failing step.
  std::set<std::string> highlighted;
  for (const json& id : s["hits"]) {
    const std::string row = id;
    highlighted.insert(row.substr(0, row.find('-')));
  }
  EXPECT_EQ(static_cast<int>(highlighted.size()), failed);
}

// A cache trace whose expectation at step 7 (a c_cleanup that expires
// default/a) keeps node n1's requested cpu at 300 where upstream subtracts
// default/a's 100: an accounting failure about a node, which `replay
// --sut=model` fails at step 7.
std::string WriteLeakyExpectation(const std::filesystem::path& dir) {
  std::ifstream in(std::string(SCHEDTRACE_SOURCE_DIR) +
                   "/golden/upstream-v1.26.7/cache/"
                   "expire-after-finish-binding.jsonl");
  std::filesystem::create_directories(dir / "leak");
  const std::filesystem::path path = dir / "leak" / "leaky.jsonl";
  std::ofstream out(path);
  int n = 0;
  for (std::string line; std::getline(in, line); ++n) {
    if (n == 7) {
      json step = json::parse(line);
      step["expect"]["state"]["cache"]["nodes"][0]["requested"]["cpu"] = 300;
      line = step.dump();
    }
    out << line << "\n";
  }
  return n == 10 && out ? path.string() : "";
}

// The failure page of an accounting failure follows the node: a column for
// n1, its requested resources and pods at each step, the failing step's
// cell marked where the sides differ; the path names the node by name.
TEST_F(HtmlReportTest, AnAccountingFailureShowsTheNodesColumn) {
  const std::string trace = WriteLeakyExpectation(dir_);
  ASSERT_FALSE(trace.empty());
  const std::string report = (dir_ / "leak.html").string();
  CliResult r =
      RunSchedtrace("replay --sut=model --report=" + ShellQuote(report) + " " +
                    ShellQuote(trace));
  EXPECT_EQ(r.status, 1) << r.output;
  const std::string page = ReadFileBytes(report);
  const json s = HtmlStructure(report);
  ASSERT_FALSE(s.contains("error")) << s.dump();
  EXPECT_EQ(CheckSelfContained(page, s), "");
  EXPECT_EQ(s["hits"], (json{"t0-s7"}));
  EXPECT_THAT(page, HasSubstr("<th class=\"node\">node n1</th>"));
  const std::string text = s["text"];
  EXPECT_THAT(text, HasSubstr("Nodes followed (named by the first "
                              "divergence): n1"));
  EXPECT_THAT(text, HasSubstr("state.cache.nodes[n1].requested.cpu"));
  EXPECT_THAT(text, Not(HasSubstr("nodes[0]")));
  // Step 4: default/a's binding finished, its deadline t + ttl 30000.
  EXPECT_THAT(text, HasSubstr("present; requested cpu:300 memory:3145728; "
                              "pods default/a (assumed, binding finished, "
                              "deadline t=30400), default/b (assumed, "
                              "binding not finished)"));
  // Step 7: the row that fails, n1's cell with both sides.
  const size_t hit = page.find("<tr id=\"t0-s7\" class=\"hit\">");
  ASSERT_NE(hit, std::string::npos);
  const std::string row = page.substr(hit, page.find("</tr>", hit) - hit);
  EXPECT_THAT(row, HasSubstr("<td class=\"ne node\">"));
  EXPECT_THAT(row, HasSubstr("present; requested cpu:300 memory:2097152; "
                             "pods default/b (assumed, binding not "
                             "finished)"));
  EXPECT_THAT(row, HasSubstr("present; requested cpu:200 memory:2097152; "
                             "pods default/b (assumed, binding not "
                             "finished)"));
}

// --- In a real browser ---

// `page` with a probe around it: a listener for Content Security Policy
// violations first, and last a script that reads what the browser made of
// the page (the highlighted row's colours and size, a collapsed failure's
// height, the filter box at work, requests made) into <pre id="probe">.
std::string WriteProbe(const std::string& page, const std::string& path,
                       const std::string& name) {
  std::string probe = page;
  const std::string head = "<head>\n";
  probe.insert(probe.find(head) + head.size(),
               "<script>window.__csp=0;document.addEventListener("
               "'securitypolicyviolation',function(){window.__csp++;});"
               "</script>\n");
  const std::string script = R"(<script>
(function(){
var o={};
function bg(e){return e?getComputedStyle(e).backgroundColor:'';}
var hit=document.querySelector('details.trace[open] table.tl tr.hit');
o.hit=!!hit;
if(hit){var r=hit.getBoundingClientRect();o.hitHeight=r.height;
o.hitWidth=r.width;o.hitBg=bg(hit.querySelector('td.op'));
o.plainBg=bg(document.querySelector(
'details.trace[open] table.tl tr:not(.hit):not(.gap) td.op'));
o.neBg=bg(hit.querySelector('td.ne'));
o.cellBg=bg(document.querySelector('details.trace[open] table.tl td.chg'));}
var closed=document.querySelector('details.trace:not([open])');
if(closed){o.closedHeight=closed.getBoundingClientRect().height;
o.closedSummaryHeight=closed.querySelector('summary').getBoundingClientRect().height;
o.closedBodyVisible=closed.querySelector('.body').checkVisibility();}
o.bar=!document.getElementById('bar').hidden;
var q=document.getElementById('q'),all=document.querySelectorAll('details.trace');
function visible(){var k=0;all.forEach(function(d){if(d.getClientRects().length)k++;});return k;}
o.traces=all.length;o.visible=visible();
q.value='no trace is called this';q.dispatchEvent(new Event('input'));
o.visibleNoMatch=visible();
q.value=NAME;q.dispatchEvent(new Event('input'));o.visibleMatch=visible();
q.value='';q.dispatchEvent(new Event('input'));
o.csp=window.__csp;o.resources=performance.getEntriesByType('resource').length;
o.elements=document.querySelectorAll('img,iframe,object,embed,link,base,form').length;
o.scripts=document.scripts.length;
var pre=document.createElement('pre');pre.id='probe';
pre.textContent=JSON.stringify(o);document.body.appendChild(pre);
})();
</script>
)";
  std::string s = script;
  s.replace(s.find("NAME"), 4, json(name).dump());
  probe.insert(probe.rfind("</body>"), s);
  std::ofstream(path, std::ios::binary) << probe;
  return path;
}

// The probe's findings from a dumped DOM.
json ProbeOf(const std::string& dom) {
  const std::string open = "<pre id=\"probe\">";
  const size_t a = dom.find(open);
  const size_t b = a == std::string::npos ? a : dom.find("</pre>", a);
  if (b == std::string::npos) return json{{"error", "no probe in the DOM"}};
  std::string text = dom.substr(a + open.size(), b - a - open.size());
  for (const auto& [entity, c] :
       std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (size_t at = text.find(entity); at != std::string::npos;
         at = text.find(entity, at + c.size())) {
      text.replace(at, entity.size(), c);
    }
  }
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return json{{"error", "probe: " + text}};
  return j;
}

TEST_F(HtmlReportTest, ABrowserShowsTheFailureOfTheBinarysReport) {
  HeadlessBrowser browser(dir_);
  SCHEDTRACE_REQUIRE_BROWSER(browser);
  const std::string trace = WriteSwappedTrace(dir_);
  ASSERT_FALSE(trace.empty());
  const std::string report = (dir_ / "r.html").string();
  CliResult r =
      RunSchedtrace("replay --sut=model --report=" + ShellQuote(report) + " " +
                    ShellQuote(trace));
  ASSERT_EQ(r.status, 1) << r.output;

  // What a person sees: a screenshot of the top of the page, not blank.
  const std::string png = (dir_ / "r.png").string();
  BrowserRun shot = browser.Screenshot(report, png, 1280, 1600);
  ASSERT_EQ(shot.status, 0) << shot.log;
  PngStats stats = ReadPngStats(png);
  ASSERT_EQ(stats.error, "");
  EXPECT_EQ(stats.width, 1280);
  EXPECT_EQ(stats.height, 1600);
  EXPECT_GT(stats.distinct_rows, 200);  // text, tables, colours
  EXPECT_GT(std::filesystem::file_size(png), 20u * 1024);

  // The DOM once the script ran: the trace's name, the timeline's rows, the
  // divergent one highlighted; the filter bar shown.
  BrowserRun dom = browser.DumpDom(report);
  ASSERT_EQ(dom.status, 0) << dom.log;
  EXPECT_THAT(dom.output, HasSubstr("pop-swapped.jsonl"));
  EXPECT_THAT(dom.output, HasSubstr("<tr id=\"t0-s2\" class=\"hit\">"));
  EXPECT_THAT(dom.output, HasSubstr("<tr id=\"t0-s1\">"));
  EXPECT_THAT(dom.output, HasSubstr("first divergence"));
  EXPECT_THAT(dom.output, HasSubstr("<th class=\"pod\">default/a</th>"));
  EXPECT_THAT(dom.output, HasSubstr("<div id=\"bar\">"));  // no `hidden`
  EXPECT_THAT(dom.output, Not(HasSubstr("<img")));

  // How the browser laid it out.
  const std::string probe_page = (dir_ / "probe.html").string();
  WriteProbe(ReadFileBytes(report), probe_page, "pop-swapped");
  BrowserRun probed = browser.DumpDom(probe_page);
  ASSERT_EQ(probed.status, 0) << probed.log;
  const json p = ProbeOf(probed.output);
  ASSERT_FALSE(p.contains("error")) << p.dump() << probed.log;
  EXPECT_EQ(p["hit"], true) << p.dump();
  EXPECT_GT(p["hitHeight"].get<double>(), 10) << p.dump();
  EXPECT_GT(p["hitWidth"].get<double>(), 300) << p.dump();
  // The divergent row stands out from the others, and so do the cells
  // where the sides differ.
  EXPECT_NE(p["hitBg"], p["plainBg"]) << p.dump();
  EXPECT_NE(p["hitBg"], "rgba(0, 0, 0, 0)") << p.dump();
  EXPECT_NE(p["neBg"], p["cellBg"]) << p.dump();
  EXPECT_EQ(p["bar"], true) << p.dump();
  EXPECT_EQ(p["traces"], 1) << p.dump();
  EXPECT_EQ(p["visible"], 1) << p.dump();
  EXPECT_EQ(p["visibleNoMatch"], 0) << p.dump();
  EXPECT_EQ(p["visibleMatch"], 1) << p.dump();
  EXPECT_EQ(p["csp"], 0) << p.dump();        // nothing tried to load
  EXPECT_EQ(p["resources"], 0) << p.dump();  // nothing loaded
  EXPECT_EQ(p["elements"], 0) << p.dump();
  EXPECT_EQ(p["scripts"], 3) << p.dump();  // the page's and the probe's two

  // The network: the page made no request at all.
  std::string error;
  std::vector<std::string> requests = browser.PageRequests(report, &error);
  EXPECT_EQ(error, "");
  EXPECT_THAT(requests, testing::IsEmpty());
}

// In a browser, the accounting failure's node column: its header, the
// failing row's node cell marked as differing and laid out with both sides.
TEST_F(HtmlReportTest, ABrowserShowsTheNodeOfAnAccountingFailure) {
  HeadlessBrowser browser(dir_);
  SCHEDTRACE_REQUIRE_BROWSER(browser);
  const std::string trace = WriteLeakyExpectation(dir_);
  ASSERT_FALSE(trace.empty());
  const std::string report = (dir_ / "leak.html").string();
  CliResult r =
      RunSchedtrace("replay --sut=model --report=" + ShellQuote(report) + " " +
                    ShellQuote(trace));
  ASSERT_EQ(r.status, 1) << r.output;
  BrowserRun dom = browser.DumpDom(report);
  ASSERT_EQ(dom.status, 0) << dom.log;
  EXPECT_THAT(dom.output, HasSubstr("<th class=\"node\">node n1</th>"));
  EXPECT_THAT(dom.output, HasSubstr("<tr id=\"t0-s7\" class=\"hit\">"));
  // The probe: the failing row's node cell, its colour against an
  // unchanged cell's, and the two sides it shows.
  std::string probe = ReadFileBytes(report);
  probe.insert(probe.rfind("</body>"), R"(<script>
(function(){
var o={};
var cell=document.querySelector('tr.hit td.node');
o.cell=!!cell;
if(cell){o.cls=cell.className;o.sides=cell.querySelectorAll('div').length;
o.text=cell.textContent;o.height=cell.getBoundingClientRect().height;
o.bg=getComputedStyle(cell).backgroundColor;}
var plain=document.querySelector('table.tl tr:not(.hit):not(.gap) td.node');
o.plainBg=plain?getComputedStyle(plain).backgroundColor:'';
var pre=document.createElement('pre');pre.id='probe';
pre.textContent=JSON.stringify(o);document.body.appendChild(pre);
})();
</script>
)");
  const std::string probe_page = (dir_ / "leak-probe.html").string();
  std::ofstream(probe_page, std::ios::binary) << probe;
  BrowserRun probed = browser.DumpDom(probe_page);
  ASSERT_EQ(probed.status, 0) << probed.log;
  const json p = ProbeOf(probed.output);
  ASSERT_FALSE(p.contains("error")) << p.dump() << probed.log;
  EXPECT_EQ(p["cell"], true) << p.dump();
  EXPECT_EQ(p["cls"], "ne node") << p.dump();
  EXPECT_EQ(p["sides"], 2) << p.dump();  // expected above actual
  EXPECT_THAT(p["text"].get<std::string>(),
              AllOf(HasSubstr("expected"), HasSubstr("cpu:300"),
                    HasSubstr("\xE2\x89\xA0 actual"), HasSubstr("cpu:200")))
      << p.dump();
  EXPECT_GT(p["height"].get<double>(), 10) << p.dump();
  EXPECT_NE(p["bg"], p["plainBg"]) << p.dump();
}

TEST_F(HtmlReportTest, ABrowserRendersHostileBytesAsText) {
  HeadlessBrowser browser(dir_);
  SCHEDTRACE_REQUIRE_BROWSER(browser);
  const std::string report = Write(HostileRuns());
  const std::string probe_page = (dir_ / "probe.html").string();
  WriteProbe(ReadFileBytes(report), probe_page, "apply");
  BrowserRun dom = browser.DumpDom(probe_page);
  ASSERT_EQ(dom.status, 0) << dom.log;
  EXPECT_THAT(dom.output, Not(HasSubstr("<img")));
  EXPECT_THAT(dom.output, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(dom.output, HasSubstr("&lt;/script&gt;&lt;script&gt;alert(1)"));
  const json p = ProbeOf(dom.output);
  ASSERT_FALSE(p.contains("error")) << p.dump() << dom.log;
  EXPECT_EQ(p["elements"], 0) << p.dump();
  EXPECT_EQ(p["scripts"], 3) << p.dump();
  EXPECT_EQ(p["csp"], 0) << p.dump();
  EXPECT_EQ(p["traces"], 4) << p.dump();
  EXPECT_EQ(p["visibleMatch"], 1) << p.dump();  // the apply error
  // A collapsed failure is its summary line.
  EXPECT_EQ(p["closedBodyVisible"], false) << p.dump();
  EXPECT_LT(p["closedHeight"].get<double>(),
            p["closedSummaryHeight"].get<double>() + 4)
      << p.dump();
}

// Versions: the table per system, version and layer, the version each
// trace ran as, what a child declared and what --upstream forced; through
// the HTML parser, then as a browser shows it.
TEST_F(HtmlReportTest, ThePageShowsTheVersions) {
  SystemRun child;
  child.sut = "exec:./sched";
  child.declared_upstreams = {"v1.30.12"};
  child.traces.push_back(Simple("queue/new.jsonl", Verdict::kPassed));
  child.traces.back().upstream = "v1.30.12";
  child.traces.back().result.layer = Layer::kQueue;
  child.traces.push_back(Simple("queue/old.jsonl", Verdict::kSkipped));
  child.traces.back().result.message =
      "exec:./sched: the child implements v1.30.12, the trace is v1.26.7";
  SystemRun model;
  model.sut = "model";
  model.upstream_override = "v1.25.12";
  model.traces.push_back(PopOrderFailure("queue/pop-order.jsonl"));
  model.traces.back().upstream = "v1.25.12";
  const std::string path = Write({child, model});
  const json s = HtmlStructure(path);
  ASSERT_FALSE(s.contains("error")) << s.dump();
  const std::string text = text_of(s);
  EXPECT_THAT(text, HasSubstr("exec:./sched implements v1.30.12 (its header "
                              "reply)."));
  EXPECT_THAT(text, HasSubstr("Every trace ran on model as v1.25.12 "
                              "(--upstream), with its own expectations."));
  const std::string page = ReadFileBytes(path);
  EXPECT_THAT(page, HasSubstr("<th>system</th><th>version</th><th>layer</th>"));
  EXPECT_THAT(page, HasSubstr("<tr><td>exec:./sched</td><td>v1.26.7</td><td>"
                              "queue</td>"));
  EXPECT_THAT(page, HasSubstr("<tr><td>exec:./sched</td><td>v1.30.12</td><td>"
                              "queue</td>"));
  EXPECT_THAT(page, HasSubstr("<span class=\"ver\">v1.25.12</span>"));
  EXPECT_THAT(page, HasSubstr("layer queue \xC2\xB7 upstream v1.25.12"));
  EXPECT_THAT(page, HasSubstr("Passed on exec:./sched, v1.30.12 (1)"));

  HeadlessBrowser browser(dir_);
  SCHEDTRACE_REQUIRE_BROWSER(browser);
  BrowserRun dom = browser.DumpDom(path);
  ASSERT_EQ(dom.status, 0) << dom.log;
  EXPECT_THAT(dom.output,
              HasSubstr("<tr><td>model</td><td>v1.25.12</td><td>queue</td>"));
  EXPECT_THAT(dom.output, HasSubstr("implements v1.30.12 (its header reply)"));
  EXPECT_THAT(dom.output, HasSubstr("<span class=\"ver\">v1.25.12</span>"));
  // The filter box finds a failure by its version.
  EXPECT_THAT(dom.output, HasSubstr(" v1.25.12 step 3 (q_pop)"));
}

// The network check sees a request when a page makes one (so that its
// silence above means something).
TEST_F(HtmlReportTest, TheNetworkCheckSeesAPagesRequest) {
  HeadlessBrowser browser(dir_);
  SCHEDTRACE_REQUIRE_BROWSER(browser);
  const std::string page = (dir_ / "fetches.html").string();
  std::ofstream(page) << "<!DOCTYPE html><html><body>"
                         "<img src=\"http://schedtrace.invalid/x.png\">"
                         "</body></html>\n";
  std::string error;
  std::vector<std::string> requests = browser.PageRequests(page, &error);
  EXPECT_EQ(error, "");
  EXPECT_THAT(requests, Contains(HasSubstr("schedtrace.invalid/x.png")));
}

}  // namespace
}  // namespace schedtrace::cli
