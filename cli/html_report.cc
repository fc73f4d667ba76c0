#include "cli/html_report.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli/html_assets.h"
#include "cli/html_failure.h"
#include "cli/html_text.h"
#include "cli/run_tally.h"
#include "cli/summary.h"

namespace schedtrace::cli {
namespace html {
namespace {

// Failures shown open when the page loads; the others are one line each.
constexpr int kOpenFailures = 3;
// Rows of the failures-by-signature table.
constexpr size_t kMaxSignatures = 100;

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
  absl::StrAppend(&out, "<h2>Summary</h2>\n");
  for (const SystemRun& run : runs) {
    if (run.upstream_override) {
      absl::StrAppend(&out, "<p class=\"note upstream\">Every trace ran on ",
                      Line(run.sut, 200), " as ",
                      Line(*run.upstream_override, 40),
                      " (<code>--upstream</code>), with its own "
                      "expectations.</p>\n");
    }
    if (!run.declared_upstreams.empty()) {
      std::string line = DeclaredUpstreamLine(run);
      line.pop_back();  // its newline
      absl::StrAppend(&out, "<p class=\"note declared\">", Line(line),
                      ".</p>\n");
    }
  }
  absl::StrAppend(&out,
                  "<table class=\"summary\" id=\"summary\">"
                  "<thead><tr><th>system</th><th>version</th><th>layer</th><th "
                  "class=\"num\">passed</th><th class=\"num\">failed</th><th "
                  "class=\"num\">errors</th><th class=\"num\">skipped</th>"
                  "</tr></thead>\n<tbody>\n");
  auto num = [](int n, const char* nonzero) {
    return absl::StrCat("<td class=\"num ", n == 0 ? "zero" : nonzero, "\">", n,
                        "</td>");
  };
  for (const TallyRow& row : Tallies(runs)) {
    const Tally& t = row.tally;
    absl::StrAppend(&out, "<tr><td>", Line(row.sut, 200), "</td><td>",
                    Line(row.version, 40), "</td><td>", Escape(row.layer),
                    "</td>", num(t.passed, "good"), num(t.failed, "bad"),
                    num(t.errors, "bad"), num(t.skipped, ""), "</tr>\n");
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
                    ")</h2>\n<p class=\"note\">",
                    Line(KnownViolationsLead(run.sut), 400),
                    ".</p>\n<table class=\"known\"><thead><tr><th>id"
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
      "involves, each cell where the pod is after the step, and for a ",
      "failure about a cache node a column per node (present or a ",
      "placeholder, requested, its pods). One place where ",
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
    // Passed traces by the version they ran as, in the table's order.
    std::map<std::string, std::vector<const TraceRun*>> passed;
    std::map<std::string, std::vector<const TraceRun*>> skipped;
    for (const TraceRun& tr : run.traces) {
      if (tr.result.verdict == Verdict::kPassed) {
        passed[VersionOf(tr)].push_back(&tr);
      }
      if (tr.result.verdict == Verdict::kSkipped) {
        skipped[SkipReason(tr, run.sut)].push_back(&tr);
      }
    }
    std::vector<std::string> versions;  // as Tallies orders them
    for (const TallyRow& row : Tallies({run})) {
      if (versions.empty() || versions.back() != row.version) {
        versions.push_back(row.version);
      }
    }
    for (const std::string& version : versions) {
      auto it = passed.find(version);
      if (it == passed.end()) continue;
      absl::StrAppend(&out,
                      "<details class=\"list passed\"><summary>Passed on ",
                      Line(run.sut, 200), ", ", Line(version, 40), " (",
                      it->second.size(), ")</summary>\n<ul class=\"names\">");
      for (const TraceRun* tr : it->second) {
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
}  // namespace html

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
      html::kStyle, "</style>\n</head>\n<body>\n<main>\n");
  html::AppendHeader(out, runs);
  html::AppendSummaryTable(out, runs);
  html::AppendSignatures(out, runs);
  html::AppendFailures(out, runs);
  bool others = false;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) others = others || !IsFailure(tr);
  }
  if (others) {
    absl::StrAppend(&out, "<h2>Passed and skipped</h2>\n");
    html::AppendOthers(out, runs);
  }
  absl::StrAppend(&out, "</main>\n<script>", html::kScript,
                  "</script>\n</body>\n</html>\n");
  return out;
}

}  // namespace schedtrace::cli
