#include "cli/html_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/run_tally.h"
#include "cli/summary.h"
#include "harness/text_sanitize.h"
#include "harness/timeline.h"
#include "properties/known_violations.h"

namespace schedtrace::cli {
namespace {

// How much of a run's text one page shows: a value in a table cell, and a
// message or a description. What is cut says how much; the JSON report
// keeps everything whole.
constexpr size_t kMaxValueBytes = 2000;
constexpr size_t kMaxTextBytes = 20000;
// Failures shown open when the page loads; the others are one line each.
constexpr int kOpenFailures = 3;
// Rows of the failures-by-signature table.
constexpr size_t kMaxSignatures = 100;

// --- Text ---

// Sanitized text escaped for HTML element content and quoted attribute
// values.
std::string Escape(std::string_view sanitized) {
  std::string out;
  out.reserve(sanitized.size() + sanitized.size() / 8);
  for (char c : sanitized) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Sanitized `s` cut to at most `max` bytes at a character boundary, saying
// how much was left out.
std::string Cut(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  const size_t left_out = s.size() - end;
  s.resize(end);
  absl::StrAppend(&s, "\xE2\x80\xA6 [", left_out,
                  " more bytes not shown: the JSON report has them]");
  return s;
}

// Sanitized `s` cut to at most `max` bytes at a character boundary, an
// ellipsis in place of the rest: for a one-line summary.
std::string Clip(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  s.resize(end);
  return s + "\xE2\x80\xA6";
}

// Text from a run, as HTML: sanitized (harness/text_sanitize.h), cut,
// escaped. Text keeps its newlines (shown by `white-space: pre-wrap`); Line
// is one line.
std::string Text(std::string_view s, size_t max = kMaxTextBytes) {
  return Escape(Cut(SanitizeText(s), max));
}
std::string Line(std::string_view s, size_t max = kMaxValueBytes) {
  return Escape(Cut(SanitizeLine(s), max));
}

std::string AsciiLower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// --- Counting ---

// What kind of failure: "divergence", "property", "bad input", "configure",
// "apply".
std::string KindOf(const TraceRun& tr) {
  if (tr.result.verdict == Verdict::kFailed) {
    return tr.result.divergence ? "divergence" : "property";
  }
  if (tr.bad_input) return "bad input";
  return tr.result.at_step == 0 ? "configure" : "apply";
}

// Where the verdict was decided, sanitized: "step 6 (q_pop), line 7".
std::string WhereOf(const TraceRun& tr) {
  const TraceResult& r = tr.result;
  if (tr.bad_input || (r.at_step == 0 && r.at_line == 0)) return "";
  std::string where = r.at_step == 0 ? "header"
                                     : absl::StrCat("step ", r.at_step, " (",
                                                    SanitizeLine(r.at_op), ")");
  if (r.at_line > 0) absl::StrAppend(&where, ", line ", r.at_line);
  return where;
}

// What went wrong in one line, sanitized, for the summary of a trace.
std::string WhatOf(const TraceRun& tr) {
  if (const auto& d = tr.result.divergence) {
    std::string s =
        absl::StrCat(Clip(SanitizeLine(d->path), 120), ": expected ",
                     Clip(SanitizeLine(d->expected), 60), ", actual ",
                     Clip(SanitizeLine(d->actual), 60));
    if (d->differences.size() > 1) {
      absl::StrAppend(&s, " (", d->differences.size(), " differences)");
    }
    return s;
  }
  // The message's first line without what the summary line already says:
  // the trace's path and line, the step and op.
  std::string_view m = tr.result.message;
  m = m.substr(0, m.find('\n'));
  const std::string& path = tr.result.path;
  if (!path.empty() && m.starts_with(path) &&
      m.substr(path.size()).starts_with(":")) {
    m.remove_prefix(path.size() + 1);
    size_t digits = 0;
    while (digits < m.size() && m[digits] >= '0' && m[digits] <= '9') ++digits;
    if (m.substr(digits).starts_with(": ")) m.remove_prefix(digits + 2);
  }
  const std::string step =
      absl::StrCat("step ", tr.result.at_step, " (", tr.result.at_op, "): ");
  if (tr.result.at_step > 0 && m.starts_with(step))
    m.remove_prefix(step.size());
  return Clip(SanitizeLine(m), 160);
}

// --- Timeline ---

bool SamePlace(const PodPlace& a, const PodPlace& b) {
  return a.where == b.where && a.attempts == b.attempts &&
         a.nominated == b.nominated && a.places == b.places && a.note == b.note;
}

const PodPlace* Find(const std::map<std::string, PodPlace>& places,
                     const std::string& pod) {
  auto it = places.find(pod);
  return it == places.end() ? nullptr : &it->second;
}

bool NotYet(const PodPlace* p) {
  return p == nullptr || p->where == "not added yet";
}

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// One pod at one step: its place on each side (null: the side shows none)
// and how it relates to the step before.
struct Cell {
  const PodPlace* expected = nullptr;
  const PodPlace* actual = nullptr;
  bool differs = false;  // the replay compares the two and they differ
  bool changed = false;  // the step moved the pod (either side)
  bool out = false;      // the step's out says something about the pod
};

// The timeline's cells, and which rows say something about the pods.
class Grid {
 public:
  explicit Grid(const Timeline& tl) {
    const size_t n = tl.rows.size();
    cells_.resize(n);
    eventful_.resize(n);
    const TimelineRow* last_expected = nullptr;
    const TimelineRow* last_actual = nullptr;
    const TimelineRow* prev = nullptr;
    for (size_t r = 0; r < n; ++r) {
      const TimelineRow& row = tl.rows[r];
      bool eventful = RowFails(row) || row.out_differs;
      for (const std::string& pod : tl.pods) {
        Cell c;
        c.expected = row.has_expected ? Find(row.expected, pod) : nullptr;
        c.actual = row.has_actual ? Find(row.actual, pod) : nullptr;
        c.differs = Contains(row.differing, pod);
        auto moved = [&pod](const PodPlace* now, const TimelineRow* before,
                            bool expected_side) {
          if (now == nullptr) return false;
          if (before == nullptr) return !NotYet(now);
          const PodPlace* then =
              Find(expected_side ? before->expected : before->actual, pod);
          return then == nullptr || !SamePlace(*then, *now);
        };
        c.changed = moved(c.expected, last_expected, true) ||
                    moved(c.actual, last_actual, false);
        c.out = (c.expected != nullptr && !c.expected->out.empty()) ||
                (c.actual != nullptr && !c.actual->out.empty());
        const bool newly_differs =
            c.differs && (prev == nullptr || !Contains(prev->differing, pod));
        eventful = eventful || c.changed || c.out || newly_differs;
        cells_[r].push_back(c);
      }
      eventful_[r] = eventful;
      if (row.has_expected) last_expected = &row;
      if (row.has_actual) last_actual = &row;
      prev = &row;
    }
  }

  const Cell& At(size_t row, size_t pod) const { return cells_[row][pod]; }
  bool Eventful(size_t row) const { return eventful_[row]; }

 private:
  std::vector<std::vector<Cell>> cells_;
  std::vector<bool> eventful_;
};

// `word` for a shell: as is when it holds nothing a shell would act on,
// else in single quotes.
std::string ShellWord(const std::string& word) {
  const bool plain =
      !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               (c >= '0' && c <= '9') ||
               std::string_view("_./:=,@+-%").find(c) != std::string_view::npos;
      });
  if (plain) return word;
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// The command that shows a trace's timeline, as HTML:
// `schedtrace explain --sut=impl --from=10 golden/x.jsonl`.
std::string Explain(const std::string& sut, const std::string& path,
                    const std::string& flags) {
  return Line(absl::StrCat("schedtrace explain ",
                           ShellWord(absl::StrCat("--sut=", sut)), flags, " ",
                           ShellWord(path)));
}

// The anchor of a timeline row: "t3-s6" (trace 3, step 6).
std::string RowId(const std::string& trace_id, int step) {
  return absl::StrCat(trace_id, "-s", step);
}

// Which rows the table shows: those `schedtrace explain` shows
// (DefaultRowWindow), a row counting as eventful when it moves a pod.
RowWindow RowsShown(const Timeline& tl, const Grid& grid) {
  return DefaultRowWindow(tl, [&grid](size_t r) { return grid.Eventful(r); });
}

// One side's place in a cell; `since` > 0: the step since which the pod
// has been there.
std::string PlaceDiv(std::string_view cls, std::string_view label,
                     const PodPlace& p, int since) {
  std::string s = absl::StrCat("<div class=\"", std::string(cls), "\">");
  if (!label.empty()) {
    absl::StrAppend(&s, "<span class=\"lbl\">", std::string(label), "</span>");
  }
  absl::StrAppend(&s, Line(FormatPlace(p)));
  if (since > 0) {
    absl::StrAppend(&s, " <span class=\"since\">since step ", since, "</span>");
  }
  absl::StrAppend(&s, "</div>");
  return s;
}

// The step since which `pod` has been where it is on one side, when that is
// before `row` (0: it moved at this step, or nothing says).
int SinceOf(const std::map<std::string, int>& since, const std::string& pod,
            const TimelineRow& row) {
  auto it = since.find(pod);
  return it != since.end() && it->second < row.step ? it->second : 0;
}

// `with_since`: say since when an unmoved pod has been where it is (on the
// failing step, and on the first step shown after steps left out).
std::string CellHtml(const Cell& c, const TimelineRow& row,
                     const std::string& pod, bool with_since) {
  std::string cls = c.changed || c.out ? "chg" : "same";
  const bool since = with_since && !c.changed;
  const int e_since = since ? SinceOf(row.expected_since, pod, row) : 0;
  const int a_since = since ? SinceOf(row.actual_since, pod, row) : 0;
  std::string body;
  if (c.expected != nullptr && c.actual != nullptr) {
    if (!c.differs && FormatPlace(*c.expected) == FormatPlace(*c.actual) &&
        e_since == a_since) {
      body = PlaceDiv("both", "", *c.actual, a_since);
      if (NotYet(c.actual)) cls = "na";
    } else {
      body = PlaceDiv("exp", "expected", *c.expected, e_since) +
             PlaceDiv("act", c.differs ? "\xE2\x89\xA0 actual" : "actual",
                      *c.actual, a_since);
      cls = c.differs ? "ne" : "chg two";
    }
  } else if (c.actual != nullptr) {
    body = PlaceDiv("both", "", *c.actual, a_since);
    if (NotYet(c.actual)) cls = "na";
  } else if (c.expected != nullptr) {
    body = PlaceDiv("exp", "expected", *c.expected, e_since) +
           "<div class=\"act\"><span class=\"lbl\">actual</span>"
           "(none)</div>";
    cls = c.differs ? "ne" : "chg two";
  }
  return absl::StrCat("<td class=\"", cls, "\">", body, "</td>");
}

void AppendTimeline(std::string& out, const Timeline& tl,
                    const std::string& trace_id, const std::string& sut,
                    const std::string& path) {
  absl::StrAppend(&out, "<h4>Timeline</h4>\n<p class=\"note\">Pods followed");
  if (!tl.pods_chosen.empty()) {
    absl::StrAppend(&out, " (", Line(tl.pods_chosen), ")");
  }
  absl::StrAppend(&out, ": ");
  if (tl.pods.empty()) {
    out += "none";
  } else {
    for (size_t i = 0; i < tl.pods.size(); ++i) {
      absl::StrAppend(&out, i > 0 ? ", " : "", "<code>", Line(tl.pods[i]),
                      "</code>");
    }
  }
  absl::StrAppend(&out, ".</p>\n");
  if (tl.rows.empty()) {
    absl::StrAppend(&out, "<p class=\"note\">No step ran.</p>\n");
    return;
  }
  const Grid grid(tl);
  const RowWindow shown = RowsShown(tl, grid);
  const size_t n = tl.rows.size();
  bool out_column = false;
  for (size_t r = 0; r < n; ++r) {
    out_column = out_column || (shown.shown[r] && tl.rows[r].out_differs);
  }
  const size_t columns = 3 + tl.pods.size() + (out_column ? 1 : 0);
  absl::StrAppend(&out,
                  "<div class=\"tlwrap\"><table class=\"tl\">\n<thead><tr>"
                  "<th>step</th><th>t</th><th>op</th>");
  for (const std::string& pod : tl.pods) {
    absl::StrAppend(&out, "<th class=\"pod\">", Line(pod), "</th>");
  }
  if (out_column) absl::StrAppend(&out, "<th>out</th>");
  absl::StrAppend(&out, "</tr></thead>\n<tbody>\n");
  auto gap = [&](const std::string& text) {
    absl::StrAppend(&out, "<tr class=\"gap\"><td colspan=\"", columns, "\">",
                    text, "</td></tr>\n");
  };
  for (size_t r = 0; r < n;) {
    const TimelineRow& row = tl.rows[r];
    if (!shown.shown[r]) {
      size_t last = r;
      while (last + 1 < n && !shown.shown[last + 1]) ++last;
      const int a = row.step, b = tl.rows[last].step;
      if (r >= shown.end) {
        gap(absl::StrCat(StepRange(a, b), " not shown: <code>",
                         Explain(sut, path, absl::StrCat(" --from=", a)),
                         "</code> shows them"));
      } else {
        int moving = 0;
        for (size_t k = r; k <= last; ++k) moving += grid.Eventful(k);
        gap(absl::StrCat(
            StepRange(a, b), " not shown (", moving,
            " of them move these pods): <code>",
            Explain(sut, path, absl::StrCat(" --from=", a, " --to=", b)),
            "</code> shows them"));
      }
      r = last + 1;
      continue;
    }
    if (!grid.Eventful(r)) {
      size_t last = r;
      while (last + 1 < n && shown.shown[last + 1] &&
             !grid.Eventful(last + 1)) {
        ++last;
      }
      gap(absl::StrCat(StepRange(row.step, tl.rows[last].step),
                       ": no change for these pods"));
      r = last + 1;
      continue;
    }
    const bool fails = RowFails(row);
    absl::StrAppend(&out, "<tr id=\"", RowId(trace_id, row.step), "\"",
                    fails ? " class=\"hit\"" : "", "><td class=\"n\">",
                    row.step, "</td><td class=\"n\">", row.t,
                    "</td><td class=\"op\"><code>", Line(row.summary),
                    "</code>");
    if (row.divergent) {
      absl::StrAppend(&out, "<div class=\"flag\">first divergence</div>");
    }
    if (!row.violation.empty()) {
      absl::StrAppend(&out,
                      "<div class=\"flag\">property violated</div><div "
                      "class=\"flagtext\">",
                      Line(row.violation), "</div>");
    }
    if (!row.error.empty()) {
      absl::StrAppend(&out,
                      "<div class=\"flag\">the system failed</div><div "
                      "class=\"flagtext\">",
                      Line(row.error), "</div>");
    }
    if (!row.has_expected && row.has_actual) {
      absl::StrAppend(
          &out, "<div class=\"tag\">no expected state: actual only</div>");
    }
    absl::StrAppend(&out, "</td>");
    const bool with_since = fails || (r > 0 && !shown.shown[r - 1]);
    for (size_t p = 0; p < tl.pods.size(); ++p) {
      absl::StrAppend(&out,
                      CellHtml(grid.At(r, p), row, tl.pods[p], with_since));
    }
    if (out_column) {
      if (row.out_differs) {
        absl::StrAppend(&out,
                        "<td class=\"ne\"><div class=\"exp\"><span "
                        "class=\"lbl\">expected</span><code>",
                        Line(row.expected_out),
                        "</code></div><div class=\"act\"><span "
                        "class=\"lbl\">\xE2\x89\xA0 actual</span><code>",
                        Line(row.actual_out), "</code></div></td>");
      } else {
        absl::StrAppend(&out, "<td class=\"same\"></td>");
      }
    }
    absl::StrAppend(&out, "</tr>\n");
    ++r;
  }
  absl::StrAppend(&out, "</tbody></table></div>\n<p class=\"note\">");
  if (tl.steps_run < tl.steps) {
    absl::StrAppend(&out, "The trace ended after step ", tl.steps_run, " of ",
                    tl.steps, tl.error.empty() ? "" : ": the system failed",
                    ". ");
  }
  absl::StrAppend(&out, "As text: <code>", Explain(sut, path, ""),
                  "</code></p>\n");
}

// Whether the timeline shows a row for `step` (a link to it lands).
bool RowShown(const Timeline& tl, int step) {
  const Grid grid(tl);
  const RowWindow shown = RowsShown(tl, grid);
  for (size_t r = 0; r < tl.rows.size(); ++r) {
    if (tl.rows[r].step == step) return shown.shown[r] && grid.Eventful(r);
  }
  return false;
}

// --- One failure ---

std::string KindBadge(std::string_view kind) {
  return absl::StrCat("<span class=\"kind k-", std::string(kind), "\">",
                      std::string(kind), "</span>");
}

void AppendDifferences(std::string& out, const Divergence& d) {
  std::vector<Difference> rows = d.differences;
  if (rows.empty()) {
    rows.push_back(Difference{d.path, "first", d.expected, d.actual});
  }
  absl::StrAppend(&out, "<table class=\"diffs\"><thead><tr><th>kind</th>",
                  "<th>path</th><th>expected</th><th>actual (as ",
                  "sent)</th></tr></thead>\n<tbody>\n");
  const size_t shown =
      std::min(rows.size(), Divergence::kMaxFormattedDifferences);
  for (size_t i = 0; i < shown; ++i) {
    const Difference& x = rows[i];
    std::string kind = Line(x.kind, 40);
    if (kind.empty()) kind = "changed";
    absl::StrAppend(&out, "<tr><td>", KindBadge(kind), "</td><td><code>",
                    Line(x.path), "</code></td><td class=\"exp\"><code>",
                    Line(x.expected), "</code></td><td class=\"act\"><code>",
                    Line(x.actual), "</code></td></tr>\n");
  }
  if (shown < rows.size()) {
    absl::StrAppend(&out, "<tr><td colspan=\"4\" class=\"note\">",
                    rows.size() - shown,
                    " more differences not shown: the JSON report lists "
                    "them all</td></tr>\n");
  }
  absl::StrAppend(&out, "</tbody></table>\n");
}

void AppendDivergence(std::string& out, const TraceRun& tr,
                      const std::string& trace_id) {
  const Divergence& d = *tr.result.divergence;
  const bool linked = tr.timeline && RowShown(*tr.timeline, d.step);
  std::string step = absl::StrCat("step ", d.step);
  if (linked) {
    step = absl::StrCat("<a href=\"#", RowId(trace_id, d.step), "\">", step,
                        "</a>");
  }
  absl::StrAppend(&out, "<h4>Divergence</h4>\n<table class=\"kv\">",
                  "<tr><th>at</th><td>", step, " of the trace (line ", d.line,
                  "), t=", d.t, "</td></tr>\n<tr><th>step</th><td><code>",
                  Line(d.step_summary.empty() ? d.op : d.step_summary),
                  "</code></td></tr>\n");
  if (!d.before.empty()) {
    absl::StrAppend(&out, "<tr><th>before</th><td><ol class=\"before\">");
    for (const std::string& b : d.before) {
      absl::StrAppend(&out, "<li><code>", Line(b), "</code></li>");
    }
    absl::StrAppend(&out, "</ol></td></tr>\n");
  }
  absl::StrAppend(&out, "</table>\n");
  AppendDifferences(out, d);
}

void AppendTrace(std::string& out, const SystemRun& run, const TraceRun& tr,
                 const std::string& trace_id, bool open) {
  const TraceResult& r = tr.result;
  const bool error = r.verdict == Verdict::kError;
  const std::string verdict = error ? "ERROR" : "FAIL";
  const std::string kind = KindOf(tr);
  const std::string where = WhereOf(tr);
  const std::string what = WhatOf(tr);
  const std::string filter = AsciiLower(
      absl::StrCat(SanitizeLine(run.sut), " ", verdict, " ", kind, " ",
                   SanitizeLine(DisplayOf(tr)), " ", SanitizeLine(r.name), " ",
                   LayerOf(tr), " ", where, " ", Cut(what, 300)));
  absl::StrAppend(&out, "<details class=\"trace", error ? " error" : "",
                  "\" id=\"", trace_id, "\" data-f=\"", Escape(filter), "\"",
                  open ? " open" : "", ">\n<summary><span class=\"v\">",
                  verdict, "</span> <span class=\"sys\">", Line(run.sut, 200),
                  "</span> <span class=\"nm\">", Line(DisplayOf(tr), 400),
                  "</span>");
  if (!where.empty()) {
    absl::StrAppend(&out, " <span class=\"at\">", Escape(where), "</span>");
  }
  absl::StrAppend(&out, " <span class=\"why\">", Escape(what),
                  "</span></summary>\n<div class=\"body\">\n");
  std::string description;
  if (r.divergence) description = r.divergence->description;
  if (description.empty() && tr.timeline)
    description = tr.timeline->description;
  if (!description.empty()) {
    absl::StrAppend(&out, "<p class=\"desc\">", Text(description), "</p>\n");
  }
  absl::StrAppend(&out, "<p class=\"meta\">", Escape(kind), " \xC2\xB7 ",
                  "layer ", Escape(LayerOf(tr)), " \xC2\xB7 <code>",
                  Line(r.path), "</code>");
  if (!r.name.empty()) absl::StrAppend(&out, " \xC2\xB7 trace ", Line(r.name));
  absl::StrAppend(&out, " \xC2\xB7 ", r.steps_run, " steps run \xC2\xB7 ",
                  absl::StrFormat("%.3f", CleanSeconds(tr.seconds)),
                  " s</p>\n");
  if (r.divergence) AppendDivergence(out, tr, trace_id);
  if (!r.message.empty()) {
    absl::StrAppend(&out, "<h4>", error ? "Error" : "Message",
                    "</h4>\n<pre class=\"msg\">", Text(r.message), "</pre>\n");
  }
  if (tr.timeline) {
    AppendTimeline(out, *tr.timeline, trace_id, run.sut, r.path);
  } else if (!tr.bad_input) {
    absl::StrAppend(&out,
                    "<p class=\"note\">No timeline: <code>schedtrace replay "
                    "--report=FILE.html</code> records one for each failure, "
                    "<code>schedtrace explain</code> prints it.</p>\n");
  }
  absl::StrAppend(&out, "</div>\n</details>\n");
}

// --- The page ---

constexpr char kStyle[] = R"css(
:root{--ink:#1d2433;--muted:#5c6577;--line:#d5dae3;--bg:#f6f7f9;
--fail:#c0262d;--err:#b35c00;--pass:#18794e;--skip:#6b7280;
--exp:#0b6b3a;--exp-bg:#e7f6ec;--act:#b0191f;--act-bg:#fdeaea;--hit:#fff3bf}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:14px/1.45 system-ui,-apple-system,"Segoe UI","DejaVu Sans","Liberation Sans",sans-serif}
main{max-width:1500px;margin:0 auto;padding:12px 24px 40px}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono","Liberation Mono",Menlo,Consolas,monospace;font-size:12.5px}
h1{font-size:22px;margin:6px 0 8px}
h2{font-size:17px;margin:22px 0 8px;border-bottom:1px solid var(--line);padding-bottom:3px}
h4{font-size:13px;margin:14px 0 5px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#eef0f4;font-weight:600;overflow-wrap:normal}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.zero{color:#aab0bc}
td.bad{color:var(--fail);font-weight:700}
td.good{color:var(--pass);font-weight:600}
.stats{display:flex;gap:10px;flex-wrap:wrap;margin:8px 0}
.stat{background:#fff;border:1px solid var(--line);border-radius:6px;padding:6px 14px;min-width:96px}
.stat b{display:block;font-size:22px;line-height:1.2}
.stat.pass b{color:var(--pass)}.stat.fail b{color:var(--fail)}
.stat.error b{color:var(--err)}.stat.skip b{color:var(--skip)}
.meta,.note{color:var(--muted)}
.banner{background:#fff4e5;border:1px solid #f0b35b;border-radius:6px;padding:8px 12px;font-weight:600}
#bar{position:sticky;top:0;z-index:2;background:var(--bg);padding:8px 0;display:flex;gap:8px;align-items:center;border-bottom:1px solid var(--line)}
#bar[hidden]{display:none}
#q{flex:0 1 420px;padding:5px 8px;font:inherit;border:1px solid #aab0bc;border-radius:4px}
button{font:inherit;padding:4px 10px;border:1px solid #aab0bc;border-radius:4px;background:#fff;cursor:pointer}
details.trace{background:#fff;border:1px solid var(--line);border-left:5px solid var(--fail);border-radius:4px;margin:6px 0}
details.trace.error{border-left-color:var(--err)}
details.trace>summary{cursor:pointer;padding:6px 10px;overflow-wrap:anywhere}
details.trace[open]>summary{border-bottom:1px solid var(--line);background:#fafbfc}
.v{display:inline-block;font-weight:700;font-size:11px;padding:1px 6px;border-radius:3px;color:#fff;background:var(--fail)}
details.error .v{background:var(--err)}
.sys{color:var(--muted)}
.nm{font-weight:600}
.at{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12.5px;background:#eef0f4;border-radius:3px;padding:0 4px}
.why{color:var(--muted);font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
.body{padding:4px 14px 14px}
.desc{white-space:pre-wrap;overflow-wrap:anywhere;margin:8px 0;font-style:italic}
pre.msg{white-space:pre-wrap;overflow-wrap:anywhere;background:#fbfbfc;border:1px solid var(--line);padding:8px;max-height:32em;overflow:auto;margin:4px 0}
table.kv th{width:7em;background:#f4f5f8}
table.kv,table.diffs{margin:4px 0 10px}
ol.before{margin:0;padding:0;list-style:none}
table.diffs td:nth-child(2){min-width:16em}
table.diffs td.exp,table.diffs td.act{min-width:12em}
.diffs td.exp{background:var(--exp-bg);color:var(--exp)}
.diffs td.act{background:var(--act-bg);color:var(--act)}
.kind{display:inline-block;white-space:nowrap;font-size:11px;font-weight:700;padding:0 5px;border-radius:3px;background:#e4e7ec;color:#344054}
.k-missing{background:#fde2e1;color:#9b1c1c}.k-extra{background:#e0ecff;color:#1e429f}
.k-moved{background:#efe4ff;color:#5521b5}.k-changed{background:#fff1c2;color:#8a5a00}
.tlwrap{overflow-x:auto;max-width:100%}
table.tl{font-size:12.5px}
table.tl td{font-family:ui-monospace,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:12px}
table.tl td.op{min-width:26em;max-width:40em}
table.tl th.pod{min-width:12em;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
table.tl td.n{text-align:right;color:var(--muted);white-space:nowrap}
table.tl td.same,table.tl td.na{color:#9aa1ad}
table.tl td.chg{background:#fff}
table.tl td.two{background:#f7f7f9}
table.tl td.ne{background:var(--act-bg);box-shadow:inset 0 0 0 2px #f1a5a8}
table.tl .exp{color:var(--exp)}
table.tl .act{color:var(--act)}
table.tl td.ne .act{font-weight:700}
.lbl{display:inline-block;min-width:6.2em;margin-right:.4em;font-family:system-ui,sans-serif;font-size:10.5px;font-weight:700;text-transform:uppercase;letter-spacing:.03em;opacity:.85}
.hl{background:var(--hit);border:1px solid #e8a100;padding:0 3px}
.lbl-e{color:var(--exp);font-weight:700}.lbl-a{color:var(--act);font-weight:700}
table.tl tr.hit>td{border-top:2px solid #e8a100;border-bottom:2px solid #e8a100}
table.tl tr.hit>td.n,table.tl tr.hit>td.op{background:var(--hit);color:var(--ink);font-weight:700}
table.tl tr.hit>td.n:first-child{box-shadow:inset 5px 0 0 #e8a100}
table.tl tr:target>td{outline:2px solid #1d4ed8}
.flag{display:table;margin-top:4px;font-family:system-ui,sans-serif;font-size:11px;font-weight:700;color:#fff;background:var(--fail);border-radius:3px;padding:0 6px}
.flagtext{font-family:system-ui,sans-serif;font-size:11.5px;font-weight:400;color:var(--act);margin-top:2px}
.tag{font-family:system-ui,sans-serif;font-size:11px;color:var(--muted)}
.since{font-family:system-ui,sans-serif;font-size:11px;color:var(--muted);font-weight:400;white-space:nowrap}
tr.gap>td{background:#f3f4f7;color:var(--muted);font-style:italic;font-family:system-ui,sans-serif}
ul.names{columns:22em;margin:6px 0;padding-left:1.2em;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
details.list{margin:6px 0}
details.list>summary{cursor:pointer}
)css";

// Filter box, expand / collapse all, and opening the trace a link names.
// The bar is hidden until this runs, so the page reads the same without it.
constexpr char kScript[] = R"js(
(function(){
var bar=document.getElementById('bar');if(!bar)return;
var q=document.getElementById('q'),n=document.getElementById('qn');
var ts=Array.prototype.slice.call(document.querySelectorAll('details.trace'));
bar.hidden=false;
function filter(){var s=q.value.toLowerCase().trim(),k=0;
ts.forEach(function(d){var m=!s||d.getAttribute('data-f').indexOf(s)>=0;
d.hidden=!m;if(m)k++;});
n.textContent=s?(k+' of '+ts.length+' shown'):'';}
q.addEventListener('input',filter);
document.getElementById('xa').addEventListener('click',function(){
ts.forEach(function(d){if(!d.hidden)d.open=true;});});
document.getElementById('ca').addEventListener('click',function(){
ts.forEach(function(d){d.open=false;});});
function reveal(){var id;try{id=decodeURIComponent(location.hash.slice(1));}
catch(x){return;}var e=id&&document.getElementById(id);if(!e)return;
for(var p=e;p;p=p.parentElement){if(p.tagName==='DETAILS')p.open=true;}
e.scrollIntoView();}
window.addEventListener('hashchange',reveal);reveal();
})();
)js";

void AppendHeader(std::string& out, const std::vector<SystemRun>& runs) {
  const Tally all = TallyOf(runs);
  std::string systems;
  for (size_t i = 0; i < runs.size(); ++i) {
    absl::StrAppend(&systems, i > 0 ? ", " : "", Line(runs[i].sut, 200));
  }
  absl::StrAppend(&out, "<h1>schedtrace report", systems.empty() ? "" : ": ",
                  systems, "</h1>\n");
  bool interrupted = false;
  for (const SystemRun& run : runs)
    interrupted = interrupted || run.interrupted;
  if (interrupted) {
    absl::StrAppend(&out,
                    "<p class=\"banner\" id=\"interrupted\">Interrupted: the "
                    "run was stopped (SIGINT or SIGTERM) before every trace "
                    "ran; these results cover the traces that completed",
                    runs.size() > 1 ? " (stopped on " : "");
    if (runs.size() > 1) {
      bool first = true;
      for (const SystemRun& run : runs) {
        if (!run.interrupted) continue;
        absl::StrAppend(&out, first ? "" : ", ", Line(run.sut, 200));
        first = false;
      }
      out += ")";
    }
    out += ".</p>\n";
  }
  absl::StrAppend(
      &out, "<div class=\"stats\" id=\"counts\">",
      "<div class=\"stat pass\"><b>", all.passed, "</b>passed</div>",
      "<div class=\"stat fail\"><b>", all.failed, "</b>failed</div>",
      "<div class=\"stat error\"><b>", all.errors, "</b>errors</div>",
      "<div class=\"stat skip\"><b>", all.skipped, "</b>skipped</div>",
      "<div class=\"stat\"><b>", all.Total(), "</b>traces</div>",
      "<div class=\"stat\"><b>", absl::StrFormat("%.3f", SecondsOf(runs)),
      "</b>seconds</div></div>\n");
  absl::StrAppend(&out, "<p class=\"meta\">", all.passed, " passed, ",
                  all.failed + all.errors, " failed");
  if (all.skipped > 0) absl::StrAppend(&out, ", ", all.skipped, " skipped");
  absl::StrAppend(&out,
                  " (errors count as failures, as the run's closing line "
                  "counts them).</p>\n");
}

void AppendSummaryTable(std::string& out, const std::vector<SystemRun>& runs) {
  const std::map<std::string, std::map<std::string, Tally>> tallies =
      Tallies(runs);
  absl::StrAppend(&out,
                  "<h2>Summary</h2>\n<table class=\"summary\" id=\"summary\">"
                  "<thead><tr><th>system</th><th>layer</th><th "
                  "class=\"num\">passed</th><th class=\"num\">failed</th><th "
                  "class=\"num\">errors</th><th class=\"num\">skipped</th>"
                  "</tr></thead>\n<tbody>\n");
  auto num = [](int n, const char* nonzero) {
    return absl::StrCat("<td class=\"num ", n == 0 ? "zero" : nonzero, "\">", n,
                        "</td>");
  };
  for (const auto& [sut, layers] : tallies) {
    for (const auto& [layer, t] : layers) {
      absl::StrAppend(&out, "<tr><td>", Line(sut, 200), "</td><td>",
                      Escape(layer), "</td>", num(t.passed, "good"),
                      num(t.failed, "bad"), num(t.errors, "bad"),
                      num(t.skipped, ""), "</tr>\n");
    }
  }
  absl::StrAppend(&out, "</tbody></table>\n");
  for (const SystemRun& run : runs) {
    int n = 0;
    for (const TraceRun& tr : run.traces) n += tr.result.comparisons_skipped;
    if (n > 0) {
      absl::StrAppend(&out, "<p class=\"note\">State comparisons skipped on ",
                      Line(run.sut, 200), ": ", n,
                      " (parts the system does not report).</p>\n");
    }
  }
  for (const SystemRun& run : runs) {
    if (run.properties_not_checked.empty()) continue;
    absl::StrAppend(&out,
                    "<p class=\"note not-checked\">Properties not "
                    "checked on ",
                    Line(run.sut, 200), ": ",
                    Line(NotCheckedText(run.properties_not_checked)),
                    " (state the system does not report).</p>\n");
  }
  for (const SystemRun& run : runs) {
    if (run.known_violations.empty()) continue;
    absl::StrAppend(&out, "<h2>Known upstream violations (", Line(run.sut, 200),
                    ")</h2>\n<p class=\"note\">Reported apart, not "
                    "failures.</p>\n<table class=\"known\"><thead><tr><th>id"
                    "</th><th>upstream</th><th class=\"num\">steps</th></tr>"
                    "</thead>\n<tbody>\n");
    for (const auto& [id, n] : run.known_violations) {
      absl::StrAppend(&out, "<tr><td><code>", Line(id), "</code></td><td>",
                      Line(std::string(UpstreamOf(id))),
                      "</td><td class=\"num\">", n, "</td></tr>\n");
    }
    absl::StrAppend(&out, "</tbody></table>\n");
  }
}

// Failures grouped by signature (cli/summary.h), most frequent
// first, each linking to its first trace.
void AppendSignatures(std::string& out, const std::vector<SystemRun>& runs) {
  struct Group {
    int count = 0;
    std::string first_id, first_display;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  int index = 0;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) {
      const std::string id = absl::StrCat("t", index++);
      if (!IsFailure(tr)) continue;
      Group& g = groups[{run.sut, FailureSignature(tr)}];
      if (g.count++ == 0) {
        g.first_id = id;
        g.first_display = DisplayOf(tr);
      }
    }
  }
  if (groups.size() < 2) return;
  std::vector<std::pair<std::pair<std::string, std::string>, Group>> sorted(
      groups.begin(), groups.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) {
                     return a.second.count > b.second.count;
                   });
  absl::StrAppend(&out, "<h2>Failures by signature (", sorted.size(),
                  ")</h2>\n<table class=\"sigs\"><thead><tr><th "
                  "class=\"num\">traces</th><th>system</th><th>signature</th>"
                  "<th>first</th></tr></thead>\n<tbody>\n");
  const size_t shown = std::min(sorted.size(), kMaxSignatures);
  for (size_t i = 0; i < shown; ++i) {
    const auto& [key, g] = sorted[i];
    absl::StrAppend(&out, "<tr><td class=\"num\">", g.count, "</td><td>",
                    Line(key.first, 200), "</td><td><code>", Line(key.second),
                    "</code></td><td><a href=\"#", g.first_id, "\">",
                    Line(g.first_display, 400), "</a></td></tr>\n");
  }
  if (shown < sorted.size()) {
    absl::StrAppend(&out, "<tr><td colspan=\"4\" class=\"note\">",
                    sorted.size() - shown, " more signatures</td></tr>\n");
  }
  absl::StrAppend(&out, "</tbody></table>\n");
}

void AppendFailures(std::string& out, const std::vector<SystemRun>& runs) {
  int failures = 0;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) failures += IsFailure(tr);
  }
  absl::StrAppend(&out, "<h2 id=\"failures\">Failures and errors (", failures,
                  ")</h2>\n");
  if (failures == 0) {
    absl::StrAppend(&out, "<p class=\"note\">None.</p>\n");
    return;
  }
  absl::StrAppend(&out,
                  "<div id=\"bar\" hidden><input id=\"q\" type=\"search\" "
                  "placeholder=\"filter: system, trace, op, path, kind\" "
                  "aria-label=\"filter the failures\"><button id=\"xa\" "
                  "type=\"button\">expand all</button><button id=\"ca\" "
                  "type=\"button\">collapse all</button><span id=\"qn\" "
                  "class=\"note\"></span></div>\n");
  absl::StrAppend(
      &out, "<p class=\"note\" id=\"legend\">Each failure opens to its ",
      "divergence and its timeline: a row per step, a column per pod it ",
      "involves, each cell where the pod is after the step. One place where ",
      "the trace's expectation and the system agree; ",
      "<span class=\"lbl-e\">expected</span> above ",
      "<span class=\"lbl-a\">actual</span> where they do not (red, ",
      "\xE2\x89\xA0: they differ in what the replay compares). The ",
      "<span class=\"hl\">highlighted row</span> is the step where the trace ",
      "first failed; grey cells did not change at that step.</p>\n");
  int index = 0, shown = 0;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) {
      const std::string id = absl::StrCat("t", index++);
      if (!IsFailure(tr)) continue;
      AppendTrace(out, run, tr, id, shown++ < kOpenFailures);
    }
  }
}

// Passing and skipped traces: names only, collapsed.
void AppendOthers(std::string& out, const std::vector<SystemRun>& runs) {
  for (const SystemRun& run : runs) {
    std::vector<const TraceRun*> passed;
    std::map<std::string, std::vector<const TraceRun*>> skipped;
    for (const TraceRun& tr : run.traces) {
      if (tr.result.verdict == Verdict::kPassed) passed.push_back(&tr);
      if (tr.result.verdict == Verdict::kSkipped) {
        skipped[SkipReason(tr)].push_back(&tr);
      }
    }
    if (!passed.empty()) {
      absl::StrAppend(&out,
                      "<details class=\"list passed\"><summary>Passed on ",
                      Line(run.sut, 200), " (", passed.size(),
                      ")</summary>\n<ul class=\"names\">");
      for (const TraceRun* tr : passed) {
        absl::StrAppend(&out, "<li>", Line(DisplayOf(*tr), 400), "</li>");
      }
      absl::StrAppend(&out, "</ul></details>\n");
    }
    for (const auto& [reason, traces] : skipped) {
      absl::StrAppend(&out,
                      "<details class=\"list skipped\"><summary>Skipped on ",
                      Line(run.sut, 200), " (", traces.size(),
                      "): ", Line(reason), "</summary>\n<ul class=\"names\">");
      for (const TraceRun* tr : traces) {
        absl::StrAppend(&out, "<li>", Line(DisplayOf(*tr), 400), "</li>");
      }
      absl::StrAppend(&out, "</ul></details>\n");
    }
  }
}

}  // namespace

std::string HtmlReport(const std::vector<SystemRun>& runs) {
  std::string out;
  absl::StrAppend(
      &out,
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // Nothing leaves the file: no request of any kind, even if some text
      // slipped through unescaped.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
      "base-uri 'none'; form-action 'none'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>schedtrace report</title>\n<style>",
      kStyle, "</style>\n</head>\n<body>\n<main>\n");
  AppendHeader(out, runs);
  AppendSummaryTable(out, runs);
  AppendSignatures(out, runs);
  AppendFailures(out, runs);
  bool others = false;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) others = others || !IsFailure(tr);
  }
  if (others) {
    absl::StrAppend(&out, "<h2>Passed and skipped</h2>\n");
    AppendOthers(out, runs);
  }
  absl::StrAppend(&out, "</main>\n<script>", kScript,
                  "</script>\n</body>\n</html>\n");
  return out;
}

}  // namespace schedtrace::cli
