#include "harness/cli/report.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "nlohmann/json.hpp"
#include "properties/known_violations.h"

namespace schedtrace::cli {
namespace {

struct Tally {
  int passed = 0, failed = 0, skipped = 0;
};

// system -> layer -> tally; traces that did not decode go under "(bad input)".
std::map<std::string, std::map<std::string, Tally>> Tallies(
    const std::vector<SystemRun>& runs) {
  std::map<std::string, std::map<std::string, Tally>> t;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) {
      std::string layer = tr.bad_input
                              ? "(bad input)"
                              : std::string(LayerName(tr.result.layer));
      Tally& tally = t[run.sut][layer];
      switch (tr.result.verdict) {
        case Verdict::kPassed:
          ++tally.passed;
          break;
        case Verdict::kSkipped:
          ++tally.skipped;
          break;
        default:
          ++tally.failed;
      }
    }
  }
  return t;
}

std::string Detail(const TraceRun& tr) {
  if (tr.result.divergence) return tr.result.divergence->Format(tr.result.path);
  return tr.result.message;
}

std::string XmlEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
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
      default:
        out += c;
    }
  }
  return out;
}

std::string_view UpstreamOf(const std::string& id) {
  for (const auto& k : properties::KnownViolations()) {
    if (k.id == id) return k.upstream;
  }
  return "";
}

}  // namespace

std::string ConformanceTable(const std::vector<SystemRun>& runs) {
  std::ostringstream out;
  int width = 8;  // the system column fits the longest name (exec:CMD)
  for (const SystemRun& run : runs) {
    width = std::max(width, static_cast<int>(run.sut.size()));
  }
  out << absl::StrFormat("%-*s %-12s %7s %7s %7s\n", width, "system", "layer",
                         "passed", "failed", "skipped");
  for (const auto& [sut, layers] : Tallies(runs)) {
    for (const auto& [layer, t] : layers) {
      out << absl::StrFormat("%-*s %-12s %7d %7d %7d\n", width, sut, layer,
                             t.passed, t.failed, t.skipped);
    }
  }
  for (const SystemRun& run : runs) {
    if (int n = run.ComparisonsSkipped(); n > 0) {
      out << run.sut << ": " << n
          << " state comparisons skipped (parts the system does not "
             "report)\n";
    }
  }
  bool any_failure = false;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) {
      if (tr.result.verdict != Verdict::kFailed &&
          tr.result.verdict != Verdict::kError) {
        continue;
      }
      if (!any_failure) out << "\nfailures (first divergence of each):\n";
      any_failure = true;
      out << "  " << run.sut << ": " << tr.result.path << "\n    "
          << absl::StrReplaceAll(Detail(tr), {{"\n", "\n    "}}) << "\n";
    }
  }
  for (const SystemRun& run : runs) {
    if (run.known_violations.empty()) continue;
    out << "\nknown upstream violations seen on " << run.sut
        << " (reported apart, not failures):\n";
    for (const auto& [id, n] : run.known_violations) {
      out << "  " << id << " (" << std::string(UpstreamOf(id)) << "): " << n
          << " steps\n";
    }
  }
  return out.str();
}

std::string MarkdownReport(const std::vector<SystemRun>& runs) {
  std::ostringstream out;
  out << "# schedtrace conformance\n\n"
      << "| system | layer | passed | failed | skipped |\n"
      << "|---|---|---:|---:|---:|\n";
  for (const auto& [sut, layers] : Tallies(runs)) {
    for (const auto& [layer, t] : layers) {
      out << "| " << sut << " | " << layer << " | " << t.passed << " | "
          << t.failed << " | " << t.skipped << " |\n";
    }
  }
  for (const SystemRun& run : runs) {
    if (int n = run.ComparisonsSkipped(); n > 0) {
      out << "\n"
          << run.sut << ": " << n
          << " state comparisons skipped (parts the system does not "
             "report).\n";
    }
  }
  bool any = false;
  for (const SystemRun& run : runs) {
    for (const TraceRun& tr : run.traces) {
      if (tr.result.verdict != Verdict::kFailed &&
          tr.result.verdict != Verdict::kError) {
        continue;
      }
      if (!any) out << "\n## Failures\n";
      any = true;
      out << "\n### " << run.sut << ": `" << tr.result.path << "`\n\n```\n"
          << Detail(tr) << "\n```\n";
    }
  }
  for (const SystemRun& run : runs) {
    if (run.known_violations.empty()) continue;
    out << "\n## Known upstream violations (" << run.sut << ")\n\n"
        << "| id | upstream | steps |\n|---|---|---:|\n";
    for (const auto& [id, n] : run.known_violations) {
      out << "| " << id << " | " << std::string(UpstreamOf(id)) << " | " << n
          << " |\n";
    }
  }
  return out.str();
}

std::string JUnitReport(const std::vector<SystemRun>& runs) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
  for (const SystemRun& run : runs) {
    int failures = run.Count(Verdict::kFailed);
    int errors = run.Count(Verdict::kError);
    out << "  <testsuite name=\"schedtrace." << XmlEscape(run.sut)
        << "\" tests=\"" << run.traces.size() << "\" failures=\"" << failures
        << "\" errors=\"" << errors << "\" skipped=\""
        << run.Count(Verdict::kSkipped) << "\">\n";
    for (const TraceRun& tr : run.traces) {
      out << "    <testcase classname=\"" << XmlEscape(run.sut) << "."
          << (tr.bad_input ? "bad-input"
                           : std::string(LayerName(tr.result.layer)))
          << "\" name=\"" << XmlEscape(tr.result.path) << "\"";
      switch (tr.result.verdict) {
        case Verdict::kPassed:
          out << "/>\n";
          break;
        case Verdict::kSkipped:
          out << "><skipped message=\"" << XmlEscape(tr.result.message)
              << "\"/></testcase>\n";
          break;
        case Verdict::kFailed:
          out << "><failure message=\"diverged\">" << XmlEscape(Detail(tr))
              << "</failure></testcase>\n";
          break;
        case Verdict::kError:
          out << "><error message=\"" << XmlEscape(tr.result.message)
              << "\"/></testcase>\n";
          break;
      }
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
  return out.str();
}

std::string JsonReport(const std::vector<SystemRun>& runs) {
  nlohmann::json j = nlohmann::json::object();
  j["systems"] = nlohmann::json::array();
  for (const SystemRun& run : runs) {
    nlohmann::json s = {
        {"sut", run.sut},
        {"passed", run.Count(Verdict::kPassed)},
        {"failed", run.Count(Verdict::kFailed) + run.Count(Verdict::kError)},
        {"skipped", run.Count(Verdict::kSkipped)},
        {"comparisonsSkipped", run.ComparisonsSkipped()},
        {"knownViolations", run.known_violations},
        {"traces", nlohmann::json::array()}};
    for (const TraceRun& tr : run.traces) {
      nlohmann::json t = {
          {"path", tr.result.path},
          {"name", tr.result.name},
          {"layer",
           tr.bad_input ? "" : std::string(LayerName(tr.result.layer))},
          {"verdict", std::string(VerdictName(tr.result.verdict))},
          {"badInput", tr.bad_input},
          {"stepsRun", tr.result.steps_run}};
      if (!tr.result.message.empty()) t["message"] = tr.result.message;
      if (tr.result.comparisons_skipped > 0) {
        t["comparisonsSkipped"] = tr.result.comparisons_skipped;
      }
      if (const auto& d = tr.result.divergence) {
        t["divergence"] = {{"step", d->step},
                           {"line", d->line},
                           {"op", d->op},
                           {"path", d->path},
                           {"expected", d->expected},
                           {"actual", d->actual}};
      }
      s["traces"].push_back(std::move(t));
    }
    j["systems"].push_back(std::move(s));
  }
  return j.dump(2) + "\n";
}

bool KnownReportExtension(const std::string& path) {
  auto ends = [&](const std::string& ext) {
    return path.size() >= ext.size() &&
           path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  return ends(".md") || ends(".xml") || ends(".json");
}

absl::Status WriteReport(const std::string& path,
                         const std::vector<SystemRun>& runs) {
  std::string text;
  if (path.ends_with(".md")) {
    text = MarkdownReport(runs);
  } else if (path.ends_with(".xml")) {
    text = JUnitReport(runs);
  } else if (path.ends_with(".json")) {
    text = JsonReport(runs);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--report=", path, ": use .md, .xml or .json"));
  }
  std::ofstream f(path);
  f << text;
  if (!f) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

}  // namespace schedtrace::cli
