#include "cli/report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/html_report.h"
#include "cli/markdown.h"
#include "cli/report_file.h"
#include "cli/run_tally.h"
#include "cli/summary.h"
#include "nlohmann/json.hpp"
#include "properties/known_violations.h"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

int ComparisonsSkippedOf(const SystemRun& run) {
  int n = 0;
  for (const TraceRun& tr : run.traces) n += tr.result.comparisons_skipped;
  return n;
}

bool AnyInterrupted(const std::vector<SystemRun>& runs) {
  return std::any_of(runs.begin(), runs.end(),
                     [](const SystemRun& r) { return r.interrupted; });
}

std::string Seconds3(double seconds) {
  return absl::StrFormat("%.3f", CleanSeconds(seconds));
}

// `N passed, M failed[, K skipped]`, errors counted as failures (as the
// closing line of a run counts them).
std::string Counts(const Tally& t) {
  std::string s =
      absl::StrCat(t.passed, " passed, ", t.failed + t.errors, " failed");
  if (t.skipped > 0) absl::StrAppend(&s, ", ", t.skipped, " skipped");
  return s;
}

// Everything a failure or error says, unsanitized: the divergence with its
// place, or the message.
std::string Detail(const TraceRun& tr) {
  std::string text;
  if (tr.result.divergence) text = tr.result.divergence->Format(tr.result.path);
  if (!tr.result.message.empty()) {
    if (!text.empty()) text += "\n";
    text += tr.result.message;
  }
  return text;
}

// `s` (sanitized) cut to `max` code points, with an ellipsis when cut.
std::string Clip(std::string s, size_t max) {
  size_t points = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (points++ == max) {
      s.resize(i);
      s += "\xE2\x80\xA6";  // U+2026
      break;
    }
  }
  return s;
}

// One sanitized line saying what happened, for a JUnit message attribute:
// where and what differs, or the message's first line without the trace's
// path (the testcase names it).
std::string Summary(const TraceRun& tr) {
  if (const auto& d = tr.result.divergence) {
    std::string more;
    if (d->differences.size() > 1) {
      more = absl::StrCat(" (", d->differences.size(), " differences)");
    }
    return Clip(SanitizeLine(absl::StrCat(
                    "step ", d->step, " (", d->op, "): ", d->path,
                    ": expected ", Clip(SanitizeLine(d->expected), 80),
                    ", actual ", Clip(SanitizeLine(d->actual), 80), more)),
                300);
  }
  std::string_view m = tr.result.message;
  m = m.substr(0, m.find('\n'));
  if (!tr.result.path.empty() && m.starts_with(tr.result.path + ":")) {
    m.remove_prefix(tr.result.path.size() + 1);
    size_t digits = 0;
    while (digits < m.size() && absl::ascii_isdigit(m[digits])) ++digits;
    if (digits > 0 && m.substr(digits).starts_with(": ")) {
      m.remove_prefix(digits + 2);
    }
  }
  while (!m.empty() && absl::ascii_isspace(m.back())) m.remove_suffix(1);
  return Clip(SanitizeLine(m), 300);
}

// Code points of sanitized text (for padding columns).
size_t Width(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string Pad(std::string s, size_t width) {
  size_t w = Width(s);
  if (w < width) s.append(width - w, ' ');
  return s;
}

// --- XML ---

// Sanitized text escaped for XML 1.0 element content or an attribute value.
// Sanitizing leaves only characters XML 1.0 allows: no control character
// but tab and newline, no U+FFFE or U+FFFF, no surrogates.
std::string XmlEscaped(const std::string& sanitized) {
  std::string out;
  out.reserve(sanitized.size());
  for (char c : sanitized) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// For an attribute: one line (a newline in an attribute would be read back
// as a space).
std::string XmlAttr(std::string_view s) { return XmlEscaped(SanitizeLine(s)); }
std::string XmlText(std::string_view s) { return XmlEscaped(SanitizeText(s)); }

// A system's name as one segment of a dotted classname.
std::string ClassSegment(std::string_view sut) {
  std::string out;
  for (char c : sut) {
    out += absl::ascii_isalnum(c) || c == '_' || c == ':' || c == '-' ? c : '_';
  }
  return out.empty() ? "_" : out;
}

std::string_view FailureType(const TraceRun& tr) {
  return tr.result.divergence ? "divergence" : "property";
}

std::string_view ErrorType(const TraceRun& tr) {
  if (tr.bad_input) return "bad-input";
  return tr.result.at_step == 0 ? "configure" : "apply";
}

std::string WhereOf(const TraceRun& tr) {
  if (tr.bad_input) return "";
  const TraceResult& r = tr.result;
  if (r.at_step == 0 && r.at_line == 0) return "";
  std::string where = r.at_step == 0 ? "header"
                                     : absl::StrCat("step ", r.at_step, " (",
                                                    SanitizeLine(r.at_op), ")");
  if (r.at_line > 0) absl::StrAppend(&where, ", line ", r.at_line);
  return where;
}

// --- JSON ---

// Keys in the order written (schema first), values as parsed.
using json = nlohmann::ordered_json;

// A JSON text as its value; text that is not JSON as a string.
json JsonValueOf(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return SanitizeText(text);
  return j;
}

}  // namespace

std::string MarkdownReport(const std::vector<SystemRun>& runs) {
  std::ostringstream out;
  out << "# schedtrace conformance\n\n";
  if (AnyInterrupted(runs)) {
    out << "**Interrupted**: the run was stopped (SIGINT or SIGTERM) before "
           "every trace ran; these results cover the traces that completed";
    std::vector<std::string> which;
    for (const SystemRun& run : runs) {
      if (run.interrupted) which.push_back(MdText(run.sut));
    }
    if (runs.size() > 1) {
      out << " (stopped on " << absl::StrJoin(which, ", ") << ")";
    }
    out << ".\n\n";
  }
  out << "**" << Counts(TallyOf(runs)) << "** in " << Seconds3(SecondsOf(runs))
      << " s.\n\n";
  for (const SystemRun& run : runs) {
    if (run.upstream_override) {
      out << "Every trace ran on " << MdText(run.sut) << " as "
          << MdText(*run.upstream_override)
          << " (`--upstream`), with its own expectations.\n\n";
    }
    if (std::string line = DeclaredUpstreamLine(run); !line.empty()) {
      line.pop_back();  // its newline
      out << MdText(line) << ".\n\n";
    }
  }
  out << "| system | version | layer | passed | failed | skipped |\n"
      << "|---|---|---|---:|---:|---:|\n";
  for (const TallyRow& row : Tallies(runs)) {
    const Tally& t = row.tally;
    out << "| " << MdText(row.sut) << " | " << MdText(row.version) << " | "
        << MdText(row.layer) << " | " << t.passed << " | "
        << t.failed + t.errors << " | " << t.skipped << " |\n";
  }
  for (const SystemRun& run : runs) {
    if (int n = ComparisonsSkippedOf(run); n > 0) {
      out << "\nState comparisons skipped on " << MdText(run.sut) << ": " << n
          << " (parts the system does not report).\n";
    }
  }
  for (const SystemRun& run : runs) {
    if (run.properties_not_checked.empty()) continue;
    out << "\nProperties not checked on " << MdText(run.sut) << ": "
        << MdText(NotCheckedText(run.properties_not_checked))
        << " (state the system does not report).\n";
  }
  bool any = false;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) {
      if (!IsFailure(tr)) continue;
      if (!any) out << "\n## Failures\n";
      any = true;
      out << "\n### " << VerdictName(tr.result.verdict) << " "
          << MdCode(DisplayOf(tr)) << " on " << MdText(run.sut) << " ("
          << MdText(VersionOf(tr)) << ")\n\n";
      std::string where = WhereOf(tr);
      out << (where.empty() ? "" : MdText(where) + ", ") << Seconds3(tr.seconds)
          << " s\n\n"
          << MdFence(Detail(tr));
    }
  }
  for (const SystemRun& run : runs) {
    if (run.known_violations.empty()) continue;
    out << "\n## Known upstream violations (" << MdText(run.sut) << ")\n\n"
        << MdText(KnownViolationsLead(run.sut)) << ".\n\n"
        << "| id | upstream | steps |\n|---|---|---:|\n";
    for (const auto& [id, n] : run.known_violations) {
      out << "| " << MdText(id) << " | " << MdText(UpstreamOf(id)) << " | " << n
          << " |\n";
    }
  }
  return out.str();
}

std::string JUnitReport(const std::vector<SystemRun>& runs) {
  std::ostringstream out;
  const Tally all = TallyOf(runs);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"schedtrace\" tests=\"" << all.Total()
      << "\" failures=\"" << all.failed << "\" errors=\"" << all.errors
      << "\" skipped=\"" << all.skipped << "\" time=\""
      << Seconds3(SecondsOf(runs)) << "\">\n";
  for (const SystemRun& run : runs) {
    const Tally t = TallyOf(run);
    const std::string segment = ClassSegment(run.sut);
    out << "  <testsuite name=\"schedtrace." << XmlAttr(run.sut)
        << "\" tests=\"" << t.Total() << "\" failures=\"" << t.failed
        << "\" errors=\"" << t.errors << "\" skipped=\"" << t.skipped
        << "\" time=\"" << Seconds3(SecondsOf(run)) << "\">\n"
        << "    <properties>\n"
        << "      <property name=\"system\" value=\"" << XmlAttr(run.sut)
        << "\"/>\n";
    if (run.interrupted) {
      out << "      <property name=\"interrupted\" value=\"true\"/>\n";
    }
    if (run.upstream_override) {
      out << "      <property name=\"upstreamOverride\" value=\""
          << XmlAttr(*run.upstream_override) << "\"/>\n";
    }
    if (!run.declared_upstreams.empty()) {
      out << "      <property name=\"declaredUpstream\" value=\""
          << XmlAttr(absl::StrJoin(run.declared_upstreams, ", ")) << "\"/>\n";
    }
    if (int n = ComparisonsSkippedOf(run); n > 0) {
      out << "      <property name=\"comparisonsSkipped\" value=\"" << n
          << "\"/>\n";
    }
    if (!run.properties_not_checked.empty()) {
      out << "      <property name=\"propertiesNotChecked\" value=\""
          << XmlAttr(NotCheckedText(run.properties_not_checked)) << "\"/>\n";
    }
    for (const auto& [id, n] : run.known_violations) {
      out << "      <property name=\"knownViolation." << XmlAttr(id)
          << "\" value=\"" << n << "\"/>\n";
    }
    out << "    </properties>\n";
    for (const TraceRun& tr : run.traces) {
      out << "    <testcase classname=\"schedtrace." << segment << "."
          << LayerOf(tr, "bad-input") << "\" name=\"" << XmlAttr(DisplayOf(tr))
          << "\" time=\"" << Seconds3(tr.seconds) << "\">\n"
          << "      <properties><property name=\"upstream\" value=\""
          << XmlAttr(VersionOf(tr, "")) << "\"/></properties>\n";
      switch (tr.result.verdict) {
        case Verdict::kPassed:
          break;
        case Verdict::kSkipped:
          out << "      <skipped message=\"" << XmlAttr(Summary(tr))
              << "\"/>\n";
          break;
        case Verdict::kFailed:
          out << "      <failure message=\"" << XmlAttr(Summary(tr))
              << "\" type=\"" << FailureType(tr) << "\">" << XmlText(Detail(tr))
              << "</failure>\n";
          break;
        case Verdict::kError:
          out << "      <error message=\"" << XmlAttr(Summary(tr))
              << "\" type=\"" << ErrorType(tr) << "\">" << XmlText(Detail(tr))
              << "</error>\n";
          break;
      }
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

std::string JsonReport(const std::vector<SystemRun>& runs) {
  const Tally all = TallyOf(runs);
  json j = json::object();
  j["schema"] = "schedtrace-report/1";
  j["interrupted"] = AnyInterrupted(runs);
  j["seconds"] = SecondsOf(runs);
  j["summary"] = {{"passed", all.passed},
                  {"failed", all.failed + all.errors},
                  {"skipped", all.skipped}};
  j["systems"] = json::array();
  for (const SystemRun& run : runs) {
    const Tally t = TallyOf(run);
    json known = json::object();
    for (const auto& [id, n] : run.known_violations)
      known[SanitizeLine(id)] = n;
    json not_checked = json::array();
    for (const properties::Unchecked& u : run.properties_not_checked) {
      not_checked.push_back({{"property", u.property}, {"needs", u.needs}});
    }
    json table = json::array();
    for (const TallyRow& row : Tallies({run})) {
      table.push_back({{"upstream", SanitizeLine(row.version)},
                       {"layer", SanitizeLine(row.layer)},
                       {"passed", row.tally.passed},
                       {"failed", row.tally.failed + row.tally.errors},
                       {"skipped", row.tally.skipped}});
    }
    json declared = json::array();
    for (const std::string& v : run.declared_upstreams) {
      declared.push_back(SanitizeLine(v));
    }
    json s = {
        {"sut", SanitizeLine(run.sut)},
        {"upstreamOverride", run.upstream_override
                                 ? json(SanitizeLine(*run.upstream_override))
                                 : json(nullptr)},
        {"declaredUpstreams", std::move(declared)},
        {"interrupted", run.interrupted},
        {"seconds", SecondsOf(run)},
        {"passed", t.passed},
        {"failed", t.failed + t.errors},
        {"skipped", t.skipped},
        {"comparisonsSkipped", ComparisonsSkippedOf(run)},
        {"knownViolations", std::move(known)},
        {"propertiesNotChecked", std::move(not_checked)},
        {"table", std::move(table)},
        {"traces", json::array()}};
    for (const TraceRun& tr : run.traces) {
      const TraceResult& r = tr.result;
      json t = {{"path", SanitizeLine(r.path)},
                {"display", SanitizeLine(DisplayOf(tr))},
                {"name", SanitizeLine(r.name)},
                {"layer", tr.bad_input ? "" : std::string(LayerName(r.layer))},
                {"upstream", SanitizeLine(tr.upstream)},
                {"verdict", std::string(VerdictName(r.verdict))},
                {"badInput", tr.bad_input},
                {"seconds", CleanSeconds(tr.seconds)},
                {"stepsRun", r.steps_run}};
      if (!r.message.empty()) t["message"] = SanitizeText(r.message);
      if (r.verdict != Verdict::kPassed) {
        t["at"] = tr.bad_input ? json(nullptr)
                               : json{{"step", r.at_step},
                                      {"line", r.at_line},
                                      {"op", SanitizeLine(r.at_op)}};
      }
      if (r.comparisons_skipped > 0) {
        t["comparisonsSkipped"] = r.comparisons_skipped;
      }
      if (const auto& d = r.divergence) {
        json before = json::array();
        for (const std::string& b : d->before)
          before.push_back(SanitizeLine(b));
        json differences = json::array();
        for (const Difference& x : d->differences) {
          differences.push_back({{"path", SanitizeLine(x.path)},
                                 {"kind", SanitizeLine(x.kind)},
                                 {"expected", JsonValueOf(x.expected)},
                                 {"actual", JsonValueOf(x.actual)}});
        }
        t["divergence"] = {{"step", d->step},
                           {"line", d->line},
                           {"op", SanitizeLine(d->op)},
                           {"t", d->t},
                           {"summary", SanitizeLine(d->step_summary)},
                           {"description", SanitizeText(d->description)},
                           {"before", std::move(before)},
                           {"path", SanitizeLine(d->path)},
                           {"expected", JsonValueOf(d->expected)},
                           {"actual", JsonValueOf(d->actual)},
                           {"differences", std::move(differences)}};
      }
      s["traces"].push_back(std::move(t));
    }
    j["systems"].push_back(std::move(s));
  }
  // Everything above is sanitized; replace is the last line of defence.
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string ConformanceTable(const std::vector<SystemRun>& runs) {
  std::ostringstream out;
  size_t width = 8;  // the system column fits the longest name (exec:CMD)
  for (const SystemRun& run : runs) {
    width = std::max(width, Width(SanitizeLine(run.sut)));
  }
  const std::vector<TallyRow> rows = Tallies(runs);
  size_t version_width = 8;  // "v1.30.12"
  for (const TallyRow& row : rows) {
    version_width = std::max(version_width, Width(SanitizeLine(row.version)));
  }
  out << Pad("system", width) << " " << Pad("version", version_width) << " "
      << absl::StrFormat("%-12s %7s %7s %7s\n", "layer", "passed", "failed",
                         "skipped");
  for (const TallyRow& row : rows) {
    const Tally& t = row.tally;
    out << Pad(SanitizeLine(row.sut), width) << " "
        << Pad(SanitizeLine(row.version), version_width) << " "
        << absl::StrFormat("%-12s %7d %7d %7d\n", row.layer, t.passed,
                           t.failed + t.errors, t.skipped);
  }
  for (const SystemRun& run : runs) {
    if (run.upstream_override) {
      out << "every trace ran on " << SanitizeLine(run.sut) << " as "
          << SanitizeLine(*run.upstream_override)
          << " (--upstream), with its own expectations\n";
    }
  }
  for (const SystemRun& run : runs) {
    if (int n = ComparisonsSkippedOf(run); n > 0) {
      out << SanitizeLine(run.sut) << ": " << n
          << " state comparisons skipped (parts the system does not "
             "report)\n";
    }
  }
  for (const SystemRun& run : runs) {
    if (run.known_violations.empty()) continue;
    out << "\n" << KnownViolationsLead(run.sut) << ":\n";
    for (const auto& [id, n] : run.known_violations) {
      out << "  " << SanitizeLine(id) << " (" << SanitizeLine(UpstreamOf(id))
          << "): " << n << " steps\n";
    }
  }
  return out.str();
}

bool KnownReportExtension(const std::string& path) {
  return path.ends_with(".md") || path.ends_with(".xml") ||
         path.ends_with(".json") || path.ends_with(".html");
}

absl::Status WriteReport(const std::string& path,
                         const std::vector<SystemRun>& runs) {
  std::string (*build)(const std::vector<SystemRun>&) = nullptr;
  if (path.ends_with(".md")) {
    build = &MarkdownReport;
  } else if (path.ends_with(".xml")) {
    build = &JUnitReport;
  } else if (path.ends_with(".json")) {
    build = &JsonReport;
  } else if (path.ends_with(".html")) {
    build = &HtmlReport;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--report=", path, ": use .md, .xml, .json or .html"));
  }
  return WriteReportFile(path, [&] { return build(runs); });
}

}  // namespace schedtrace::cli
