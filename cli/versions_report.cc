#include "cli/versions_report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/markdown.h"
#include "cli/report_file.h"
#include "nlohmann/json.hpp"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

using json = nlohmann::ordered_json;

// Differences shown per upgrade in the text; the reports show them all.
constexpr size_t kShownDifferences = 12;
// Code points of a value shown in the text.
constexpr size_t kValueWidth = 160;

// `s` sanitized to one line and cut to `max` code points, "…" when cut.
std::string Clip(std::string_view s, size_t max) {
  std::string text = SanitizeLine(s);
  size_t points = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (points++ == max) {
      text.resize(i);
      text += "\xE2\x80\xA6";
      break;
    }
  }
  return text;
}

std::string NameOf(const TraceVersions& t) {
  return t.display.empty() ? t.path : t.display;
}

std::string_view CauseName(Cause c) {
  switch (c) {
    case Cause::kAlone:
      return "alone";
    case Cause::kTogether:
      return "together";
    case Cause::kNeeded:
      return "needed";
    case Cause::kCombination:
      return "combination";
    case Cause::kHeader:
      return "header";
    case Cause::kNoSwitch:
      return "no-switch";
  }
  return "";
}

std::vector<std::string> SwitchNames(const PairChange& change) {
  std::vector<std::string> names;
  for (const model::UpstreamSwitch* s : change.switches) {
    names.push_back(std::string(s->name));
  }
  return names;
}

// The cause in a few words: what the summary counts traces by.
std::string Label(const PairChange& change) {
  const std::string names = absl::StrJoin(SwitchNames(change), ", ");
  const size_t n = change.switches.size();
  switch (change.cause) {
    case Cause::kAlone:
      return n == 1 ? names : absl::StrCat("any one of ", names);
    case Cause::kTogether:
      return absl::StrJoin(SwitchNames(change), " and ") +
             (change.other_pairs > 0 ? " (or other two)" : "");
    case Cause::kNeeded:
      return n == 1 ? absl::StrCat(names, ", with other switches")
                    : absl::StrCat("a combination of ", names);
    case Cause::kCombination:
      return absl::StrCat("a combination of ", names);
    case Cause::kHeader:
      return "the header (the versions' own config checks)";
    case Cause::kNoSwitch:
      return "no switch (the profiles do not differ)";
  }
  return "";
}

std::string SwitchText(const model::UpstreamSwitch& s) {
  return absl::StrCat(std::string(s.name), " (", std::string(s.change),
                      "): ", std::string(s.summary));
}

// "v1.25.12, v1.26.7" for the versions whose `did` equals that of `v`.
std::vector<std::vector<size_t>> Groups(const VersionDiff& d) {
  std::vector<std::vector<size_t>> groups;
  std::vector<bool> placed(d.did.size(), false);
  for (size_t i = 0; i < d.did.size(); ++i) {
    if (placed[i]) continue;
    std::vector<size_t> group;
    for (size_t j = i; j < d.did.size(); ++j) {
      if (!placed[j] && d.did[j].out == d.did[i].out) {
        placed[j] = true;
        group.push_back(j);
      }
    }
    groups.push_back(group);
  }
  return groups;
}

std::string VersionsOf(const VersionDiff& d, const std::vector<size_t>& g) {
  std::vector<std::string> names;
  for (size_t i : g) names.push_back(d.versions[i]);
  return absl::StrJoin(names, ", ");
}

std::string ShownOut(const std::string& out) {
  return out.empty() ? "(accepted)" : out;
}

struct Counts {
  int same = 0, differ = 0, stopped = 0, bad = 0, not_compared = 0;
};

Counts CountsOf(const VersionsRun& run) {
  Counts c;
  for (const TraceVersions& t : run.traces) {
    const std::string_view v = VerdictOf(t);
    c.same += v == "same";
    c.differ += v == "differs";
    c.stopped += v == "stopped";
    c.bad += v == "bad-input";
    c.not_compared += v == "not-compared";
  }
  return c;
}

// Per upgrade (older, newer), per cause label: the traces, and one change
// showing the cause.
struct CauseCount {
  int traces = 0;
  const PairChange* example = nullptr;
};
struct Upgrade {
  std::string older, newer;
  int traces = 0;
  std::map<std::string, CauseCount> causes;
};

std::vector<Upgrade> UpgradesOf(const VersionsRun& run) {
  std::vector<Upgrade> upgrades;
  for (size_t v = 0; v + 1 < run.versions.size(); ++v) {
    upgrades.push_back({run.versions[v], run.versions[v + 1], 0, {}});
  }
  for (const TraceVersions& t : run.traces) {
    for (const PairChange& c : t.diff.changes) {
      // A trace whose layer the model does not judge on some version
      // compares the versions either side of it: an upgrade of its own.
      auto u =
          std::find_if(upgrades.begin(), upgrades.end(), [&](const Upgrade& x) {
            return x.older == c.older && x.newer == c.newer;
          });
      if (u == upgrades.end()) {
        upgrades.push_back({c.older, c.newer, 0, {}});
        u = upgrades.end() - 1;
      }
      ++u->traces;
      CauseCount& cc = u->causes[Label(c)];
      if (cc.traces++ == 0) cc.example = &c;
    }
  }
  return upgrades;
}

// An upgrade's causes, most traces first (then by label).
std::vector<std::pair<std::string, CauseCount>> Sorted(const Upgrade& u) {
  std::vector<std::pair<std::string, CauseCount>> sorted(u.causes.begin(),
                                                         u.causes.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) {
                     return a.second.traces > b.second.traces;
                   });
  return sorted;
}

std::string CountLine(const VersionsRun& run) {
  const Counts c = CountsOf(run);
  std::string line = absl::StrCat(
      run.traces.size(), run.traces.size() == 1 ? " trace" : " traces", " on ",
      absl::StrJoin(run.versions, ", "), ": ", c.differ, " differ, ", c.same,
      " the same on all versions",
      run.out_only ? " (outs compared, not states: --out-only)" : "");
  if (c.stopped > 0) {
    absl::StrAppend(&line, ", ", c.stopped, " stop alike on every version");
  }
  if (c.bad > 0) absl::StrAppend(&line, ", ", c.bad, " bad input");
  if (c.not_compared > 0) {
    absl::StrAppend(&line, ", ", c.not_compared,
                    " not compared (the model judges their layer on fewer "
                    "than two of the versions)");
  }
  return line;
}

json ValueOf(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return SanitizeText(text);
  return j;
}

// Per switch (UpstreamSwitches() order), the traces whose first difference
// of some upgrade it explains: alone, with one other, or needed.
std::vector<int> Explains(const VersionsRun& run) {
  const std::vector<model::UpstreamSwitch>& all = model::UpstreamSwitches();
  std::vector<int> counts(all.size(), 0);
  for (const TraceVersions& t : run.traces) {
    std::set<size_t> named;  // once per trace
    for (const PairChange& ch : t.diff.changes) {
      if (ch.cause != Cause::kAlone && ch.cause != Cause::kTogether &&
          ch.cause != Cause::kNeeded) {
        continue;
      }
      for (const model::UpstreamSwitch* s : ch.switches) {
        named.insert(static_cast<size_t>(s - all.data()));
      }
    }
    for (size_t i : named) ++counts[i];
  }
  return counts;
}

// The switches that explain some trace, most traces first.
std::vector<std::pair<const model::UpstreamSwitch*, int>> BySwitch(
    const VersionsRun& run) {
  const std::vector<int> counts = Explains(run);
  std::vector<std::pair<const model::UpstreamSwitch*, int>> out;
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0)
      out.push_back({&model::UpstreamSwitches()[i], counts[i]});
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second > b.second;
  });
  return out;
}

// Lines joined into one: an indented line continues a list ("; ").
std::string OneLine(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    size_t next = i + 1;
    while (next < text.size() && text[next] == ' ') ++next;
    if (next == text.size()) break;
    out += next > i + 1 && !out.ends_with(":") ? "; " : " ";
    i = next - 1;
  }
  return out;
}

// Where every version stopped alike, and why.
std::string StopText(const VersionDiff& d) {
  const std::string why = Clip(d.did.front().out, 300);
  if (d.step == 0)
    return absl::StrCat("every version refuses the header: ", why);
  return absl::StrCat("same on all versions up to step ", d.step, " (line ",
                      d.line, "), where each stops: ", why);
}

double Clean(double seconds) {
  return std::isfinite(seconds) && seconds > 0 ? seconds : 0;
}

}  // namespace

std::string_view VerdictOf(const TraceVersions& t) {
  if (t.bad_input) return "bad-input";
  if (t.diff.versions.size() < 2) return "not-compared";
  if (!t.diff.same) return "differs";
  return t.diff.stopped ? "stopped" : "same";
}

std::string CauseText(const PairChange& change) {
  const size_t n = change.switches.size();
  std::vector<std::string> each;
  for (const model::UpstreamSwitch* s : change.switches) {
    each.push_back(SwitchText(*s));
  }
  switch (change.cause) {
    case Cause::kAlone:
      if (n == 1) return absl::StrCat("because of ", each[0]);
      return absl::StrCat(
          "because of any one of these (each alone does "
          "it):\n  ",
          absl::StrJoin(each, "\n  "));
    case Cause::kTogether:
      return absl::StrCat(
          "because of these two together (neither alone does it",
          change.other_pairs > 0
              ? absl::StrCat("; ", change.other_pairs,
                             change.other_pairs == 1 ? " other two do"
                                                     : " other twos do",
                             " it too")
              : "",
          "):\n  ", absl::StrJoin(each, "\n  "));
    case Cause::kNeeded:
      if (n == 1) {
        return absl::StrCat("needs ", each[0], "\n  with other switches: ",
                            "alone it does not do what ", change.newer,
                            " does, but ", change.newer,
                            " without it does what ", change.older, " does");
      }
      return absl::StrCat("a combination of these (", change.newer,
                          " without any one of them does what ", change.older,
                          " does):\n  ", absl::StrJoin(each, "\n  "));
    case Cause::kCombination:
      return absl::StrCat(
          "a combination of these (no one alone does it, "
          "none is needed alone):\n  ",
          absl::StrJoin(each, "\n  "));
    case Cause::kHeader:
      return "the header: a version's own config checks decide "
             "(model::UpstreamFor), no switch is searched";
    case Cause::kNoSwitch:
      return "no switch differs between the two profiles";
  }
  return "";
}

std::string FormatTraceVersions(const TraceVersions& t, bool quiet) {
  const std::string name = SanitizeLine(NameOf(t));
  if (t.bad_input) {
    return absl::StrCat("ERROR ", name, ": ", SanitizeText(t.message), "\n");
  }
  const VersionDiff& d = t.diff;
  if (d.versions.size() < 2) {
    if (quiet) return "";
    return absl::StrCat(name, ": not compared, the model does not judge its ",
                        t.layer, " layer on ",
                        absl::StrJoin(d.not_judged, ", "), "\n");
  }
  if (d.same && !d.stopped) {
    if (quiet) return "";
    return absl::StrCat(name, ": same on all versions (", d.steps,
                        d.steps == 1 ? " step)\n" : " steps)\n");
  }
  if (d.same) return absl::StrCat(name, ": ", StopText(d), "\n");
  std::string out =
      d.step == 0
          ? absl::StrCat(name, ": differs at the header (line ", d.line, ")\n")
          : absl::StrCat(name, ": differs at step ", d.step, " (line ", d.line,
                         "): ", Clip(d.summary, 300), "\n");
  const std::vector<std::vector<size_t>> groups = Groups(d);
  const char* what = d.step == 0 ? "header" : "out";
  if (groups.size() == 1) {
    absl::StrAppend(&out, "  ", what, ", every version: ",
                    Clip(ShownOut(d.did.front().out), kValueWidth), "\n");
  } else {
    for (const std::vector<size_t>& g : groups) {
      absl::StrAppend(&out, "  ", what, ", ", VersionsOf(d, g), ": ",
                      Clip(ShownOut(d.did[g.front()].out), kValueWidth), "\n");
    }
  }
  for (const PairChange& c : d.changes) {
    absl::StrAppend(&out, "  ", c.older, " -> ", c.newer);
    if (c.step != d.step) {  // a later step: its own, and what each did
      absl::StrAppend(&out, ", first at step ", c.step, " (line ", c.line,
                      "): ", Clip(c.summary, 300), "\n");
      if (c.older_did.out == c.newer_did.out) {
        absl::StrAppend(&out, "    out, both: ",
                        Clip(ShownOut(c.older_did.out), kValueWidth), "\n");
      } else {
        for (const VersionStep* v : {&c.older_did, &c.newer_did}) {
          absl::StrAppend(&out, "    out, ", v->version, ": ",
                          Clip(ShownOut(v->out), kValueWidth), "\n");
        }
      }
      out += "   ";
    } else {
      out += ",";
    }
    absl::StrAppend(
        &out, " ", c.differences.size(),
        c.differences.size() == 1 ? " difference:\n" : " differences:\n");
    for (size_t i = 0; i < c.differences.size() && i < kShownDifferences; ++i) {
      const Difference& x = c.differences[i];
      absl::StrAppendFormat(&out, "    %-7s %s: %s -> %s\n", x.kind,
                            Clip(x.path, 200), Clip(x.expected, kValueWidth),
                            Clip(x.actual, kValueWidth));
    }
    if (c.differences.size() > kShownDifferences) {
      absl::StrAppend(&out, "    ... and ",
                      c.differences.size() - kShownDifferences,
                      " more (--report=FILE.json has them all)\n");
    }
    std::string cause = CauseText(c);
    for (size_t at = cause.find('\n'); at != std::string::npos;
         at = cause.find('\n', at + 1)) {
      cause.insert(at + 1, "    ");
    }
    absl::StrAppend(&out, "    ", SanitizeText(cause), "\n");
  }
  for (size_t v = 0; v + 1 < d.versions.size(); ++v) {
    const bool changed = std::any_of(
        d.changes.begin(), d.changes.end(),
        [&](const PairChange& c) { return c.older == d.versions[v]; });
    if (!changed) {
      absl::StrAppend(&out, "  ", d.versions[v], " -> ", d.versions[v + 1],
                      ": no difference\n");
    }
  }
  return out;
}

std::string VersionsSummary(const VersionsRun& run) {
  std::string out = CountLine(run) + "\n";
  bool any = false;
  for (const Upgrade& u : UpgradesOf(run)) {
    if (u.traces == 0) continue;
    if (!any) out += "what the first differences come from, by upgrade:\n";
    any = true;
    absl::StrAppend(&out, "  ", u.older, " -> ", u.newer, ", ", u.traces,
                    u.traces == 1 ? " trace:\n" : " traces:\n");
    for (const auto& [label, cc] : Sorted(u)) {
      std::string where;
      if (cc.example->cause == Cause::kAlone &&
          cc.example->switches.size() == 1) {
        where = absl::StrCat(" (", std::string(cc.example->switches[0]->change),
                             ")");
      }
      absl::StrAppendFormat(&out, "    %5d  %s%s\n", cc.traces, label, where);
    }
  }
  const auto by_switch = BySwitch(run);
  if (!by_switch.empty()) {
    out += "traces each switch explains (alone, with one other, or needed):\n";
    for (const auto& [sw, n] : by_switch) {
      absl::StrAppendFormat(&out, "  %5d  %s: %s\n", n, std::string(sw->name),
                            std::string(sw->summary));
    }
  }
  return out;
}

std::string VersionsMarkdown(const VersionsRun& run) {
  std::ostringstream out;
  out << "# schedtrace versions\n\n";
  if (run.interrupted) {
    out << "**Interrupted**: the run was stopped (SIGINT or SIGTERM) before "
           "every trace was compared; these results cover the traces that "
           "completed.\n\n";
  }
  out << "**" << MdText(CountLine(run)) << "** in "
      << absl::StrFormat("%.3f", Clean(run.seconds))
      << " s, on the model, each trace's own expectations ignored.\n";
  bool any = false;
  for (const Upgrade& u : UpgradesOf(run)) {
    if (u.traces == 0) continue;
    if (!any) {
      out << "\n## What the first differences come from\n\n"
          << "| upgrade | traces | cause | change | what the newer version "
             "does |\n|---|---:|---|---|---|\n";
    }
    any = true;
    for (const auto& [label, cc] : Sorted(u)) {
      std::string change, summary;
      if (cc.example->switches.size() == 1 &&
          (cc.example->cause == Cause::kAlone ||
           cc.example->cause == Cause::kNeeded)) {
        change = std::string(cc.example->switches[0]->change);
        summary = std::string(cc.example->switches[0]->summary);
      }
      out << "| " << MdText(u.older) << " \xE2\x86\x92 " << MdText(u.newer)
          << " | " << cc.traces << " | " << MdText(label) << " | "
          << MdText(change) << " | " << MdText(summary) << " |\n";
    }
  }
  const auto by_switch = BySwitch(run);
  if (!by_switch.empty()) {
    out << "\n## Traces each switch explains\n\nAlone, with one other, or "
           "needed (a trace counts once per switch).\n\n"
        << "| switch | change | traces | what the newer version does |\n"
        << "|---|---|---:|---|\n";
    for (const auto& [sw, n] : by_switch) {
      out << "| " << MdCode(sw->name) << " | " << MdText(sw->change) << " | "
          << n << " | " << MdText(sw->summary) << " |\n";
    }
  }
  bool differing = false;
  for (const TraceVersions& t : run.traces) {
    if (VerdictOf(t) != "differs") continue;
    if (!differing) out << "\n## Traces that differ\n";
    differing = true;
    const VersionDiff& d = t.diff;
    out << "\n### " << MdCode(NameOf(t)) << "\n\n";
    if (d.step == 0) {
      out << "At the header (line " << d.line << ").\n\n";
    } else {
      out << "First difference at step " << d.step << " (line " << d.line
          << "): " << MdCode(d.summary) << "\n\n";
    }
    out << "| versions | " << (d.step == 0 ? "header" : "out") << " |\n"
        << "|---|---|\n";
    for (const std::vector<size_t>& g : Groups(d)) {
      out << "| " << MdText(VersionsOf(d, g)) << " | "
          << MdCode(ShownOut(d.did[g.front()].out)) << " |\n";
    }
    for (const PairChange& c : d.changes) {
      out << "\n**" << MdText(c.older) << " \xE2\x86\x92 " << MdText(c.newer)
          << "**";
      if (c.step != d.step) {
        out << ", first at step " << c.step << " (line " << c.line
            << "): " << MdCode(c.summary) << "; out "
            << MdCode(ShownOut(c.older_did.out)) << " \xE2\x86\x92 "
            << MdCode(ShownOut(c.newer_did.out));
      }
      out << ": " << MdText(OneLine(CauseText(c))) << "\n\n"
          << "| difference | path | " << MdText(c.older) << " | "
          << MdText(c.newer) << " |\n|---|---|---|---|\n";
      for (const Difference& x : c.differences) {
        out << "| " << MdText(x.kind) << " | " << MdCode(x.path) << " | "
            << MdCode(x.expected) << " | " << MdCode(x.actual) << " |\n";
      }
    }
  }
  bool stopped = false;
  for (const TraceVersions& t : run.traces) {
    const std::string_view v = VerdictOf(t);
    if (v != "stopped" && v != "bad-input") continue;
    if (!stopped) out << "\n## Traces that stop alike or do not decode\n\n";
    stopped = true;
    out << "- " << MdCode(NameOf(t)) << ": "
        << MdText(t.bad_input ? OneLine(t.message) : StopText(t.diff)) << "\n";
  }
  bool same = false;
  for (const TraceVersions& t : run.traces) {
    if (VerdictOf(t) != "same") continue;
    if (!same) out << "\n## The same on all versions\n\n";
    same = true;
    out << "- " << MdCode(NameOf(t)) << " (" << t.diff.steps << " steps)\n";
  }
  bool not_compared = false;
  for (const TraceVersions& t : run.traces) {
    if (VerdictOf(t) != "not-compared") continue;
    if (!not_compared) {
      out << "\n## Not compared: the model does not judge their layer "
             "there\n\n";
    }
    not_compared = true;
    out << "- " << MdCode(NameOf(t)) << " (" << MdText(t.layer) << " on "
        << MdText(absl::StrJoin(t.diff.not_judged, ", ")) << ")\n";
  }
  return out.str();
}

std::string VersionsJson(const VersionsRun& run) {
  const Counts c = CountsOf(run);
  json j = json::object();
  j["schema"] = "schedtrace-versions/1";
  j["versions"] = run.versions;
  j["outOnly"] = run.out_only;
  j["interrupted"] = run.interrupted;
  j["seconds"] = Clean(run.seconds);
  j["summary"] = {{"traces", run.traces.size()},
                  {"differ", c.differ},
                  {"same", c.same},
                  {"stopped", c.stopped},
                  {"badInput", c.bad},
                  {"notCompared", c.not_compared}};
  j["upgrades"] = json::array();
  for (const Upgrade& u : UpgradesOf(run)) {
    json causes = json::array();
    for (const auto& [label, cc] : Sorted(u)) {
      causes.push_back({{"cause", std::string(CauseName(cc.example->cause))},
                        {"switches", SwitchNames(*cc.example)},
                        {"label", label},
                        {"traces", cc.traces}});
    }
    j["upgrades"].push_back({{"older", u.older},
                             {"newer", u.newer},
                             {"traces", u.traces},
                             {"causes", std::move(causes)}});
  }
  const std::vector<int> explains = Explains(run);
  j["switches"] = json::array();
  for (size_t i = 0; i < explains.size(); ++i) {
    const model::UpstreamSwitch& s = model::UpstreamSwitches()[i];
    j["switches"].push_back({{"name", std::string(s.name)},
                             {"change", std::string(s.change)},
                             {"summary", std::string(s.summary)},
                             {"traces", explains[i]}});
  }
  j["traces"] = json::array();
  for (const TraceVersions& t : run.traces) {
    const VersionDiff& d = t.diff;
    const std::string_view verdict = VerdictOf(t);
    json tj = {{"path", SanitizeLine(t.path)},
               {"display", SanitizeLine(NameOf(t))},
               {"name", SanitizeLine(t.name)},
               {"layer", SanitizeLine(t.layer)},
               {"steps", d.steps},
               {"stepsRun", d.steps_run},
               {"verdict", std::string(verdict)},
               {"seconds", Clean(t.seconds)}};
    if (t.bad_input) tj["message"] = SanitizeText(t.message);
    if (!d.not_judged.empty()) tj["notJudged"] = d.not_judged;
    if (verdict == "differs" || verdict == "stopped") {
      tj["at"] = {{"step", d.step},
                  {"line", d.line},
                  {"op", d.op},
                  {"summary", SanitizeLine(d.summary)}};
      json did = json::array();
      for (const VersionStep& v : d.did) {
        did.push_back({{"version", v.version}, {"out", ValueOf(v.out)}});
      }
      tj["did"] = std::move(did);
    }
    if (verdict == "differs") {
      json changes = json::array();
      for (const PairChange& ch : d.changes) {
        json switches = json::array();
        for (const model::UpstreamSwitch* s : ch.switches) {
          switches.push_back({{"name", std::string(s->name)},
                              {"change", std::string(s->change)},
                              {"summary", std::string(s->summary)}});
        }
        json differences = json::array();
        for (const Difference& x : ch.differences) {
          differences.push_back({{"path", SanitizeLine(x.path)},
                                 {"kind", x.kind},
                                 {"older", ValueOf(x.expected)},
                                 {"newer", ValueOf(x.actual)}});
        }
        changes.push_back(
            {{"older", ch.older},
             {"newer", ch.newer},
             {"at",
              {{"step", ch.step},
               {"line", ch.line},
               {"op", ch.op},
               {"summary", SanitizeLine(ch.summary)}}},
             {"outs", {ValueOf(ch.older_did.out), ValueOf(ch.newer_did.out)}},
             {"cause", std::string(CauseName(ch.cause))},
             {"label", Label(ch)},
             {"switches", std::move(switches)},
             {"differences", std::move(differences)}});
      }
      tj["changes"] = std::move(changes);
    }
    j["traces"].push_back(std::move(tj));
  }
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

bool KnownVersionsReportExtension(const std::string& path) {
  return path.ends_with(".md") || path.ends_with(".json");
}

absl::Status WriteVersionsReport(const std::string& path,
                                 const VersionsRun& run) {
  std::string (*build)(const VersionsRun&) = nullptr;
  if (path.ends_with(".md")) {
    build = &VersionsMarkdown;
  } else if (path.ends_with(".json")) {
    build = &VersionsJson;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--report=", path, ": use .md or .json"));
  }
  return WriteReportFile(path, [&] { return build(run); });
}

}  // namespace schedtrace::cli
