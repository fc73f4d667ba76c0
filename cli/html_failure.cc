#include "cli/html_failure.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/html_text.h"
#include "cli/html_timeline.h"
#include "cli/run_tally.h"
#include "run/text_sanitize.h"

namespace schedtrace::cli::html {
namespace {

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

}  // namespace

void AppendTrace(std::string& out, const SystemRun& run, const TraceRun& tr,
                 const std::string& trace_id, bool open) {
  const TraceResult& r = tr.result;
  const bool error = r.verdict == Verdict::kError;
  const std::string verdict = error ? "ERROR" : "FAIL";
  const std::string kind = KindOf(tr);
  const std::string where = WhereOf(tr);
  const std::string what = WhatOf(tr);
  const std::string filter = AsciiLower(absl::StrCat(
      SanitizeLine(run.sut), " ", verdict, " ", kind, " ",
      SanitizeLine(DisplayOf(tr)), " ", SanitizeLine(r.name), " ", LayerOf(tr),
      " ", SanitizeLine(VersionOf(tr)), " ", where, " ", Cut(what, 300)));
  absl::StrAppend(&out, "<details class=\"trace", error ? " error" : "",
                  "\" id=\"", trace_id, "\" data-f=\"", Escape(filter), "\"",
                  open ? " open" : "", ">\n<summary><span class=\"v\">",
                  verdict, "</span> <span class=\"sys\">", Line(run.sut, 200),
                  "</span> <span class=\"ver\">", Line(VersionOf(tr), 40),
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
                  "layer ", Escape(LayerOf(tr)), " \xC2\xB7 upstream ",
                  Line(VersionOf(tr), 40), " \xC2\xB7 <code>", Line(r.path),
                  "</code>");
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

}  // namespace schedtrace::cli::html
