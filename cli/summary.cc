#include "cli/summary.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "run/state_diff.h"
#include "run/text_sanitize.h"

namespace schedtrace::cli {
namespace {

// The message without the `PATH:LINE: step N (op): ` prefix replay.cc puts
// before what went wrong at a step.
std::string WithoutStepPrefix(const TraceRun& t) {
  const std::string& m = t.result.message;
  if (!t.result.path.empty() && m.rfind(t.result.path + ":", 0) == 0) {
    if (size_t p = m.find("): "); p != std::string::npos)
      return m.substr(p + 3);
  }
  return m;
}

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// The length of the version number (`v1.30.12`) at `i` in `s`, 0 when
// none starts there: a `v` that does not end a word, then numbers joined by
// dots (at least two).
size_t VersionAt(const std::string& s, size_t i) {
  if (s[i] != 'v' || i + 1 >= s.size() || !IsDigit(s[i + 1])) return 0;
  if (i > 0 && std::isalnum(static_cast<unsigned char>(s[i - 1]))) return 0;
  size_t end = i + 1;
  bool dotted = false;
  while (end < s.size() &&
         (IsDigit(s[end]) ||
          (s[end] == '.' && end + 1 < s.size() && IsDigit(s[end + 1])))) {
    dotted = dotted || s[end] == '.';
    ++end;
  }
  return dotted ? end - i : 0;
}

// The first line, with every run of digits written N (line numbers, steps,
// timeouts, pids differ between traces that fail alike), but for upstream
// versions (`v1.30.12`: a child implementing one version skips the traces
// of each other version for a reason of its own).
std::string Kind(const std::string& message) {
  std::string first = message.substr(0, message.find('\n'));
  std::string out;
  for (size_t i = 0; i < first.size(); ++i) {
    if (size_t n = VersionAt(first, i); n > 0) {
      out.append(first, i, n);
      i += n - 1;
    } else if (IsDigit(first[i])) {
      while (i + 1 < first.size() &&
             std::isdigit(static_cast<unsigned char>(first[i + 1]))) {
        ++i;
      }
      out += 'N';
    } else {
      out += first[i];
    }
  }
  return ShortenAtWord(out, 120);
}

std::string NameOf(const TraceRun& t) {
  return t.display.empty() ? t.result.path : t.display;
}

}  // namespace

std::string ShortenAtWord(const std::string& text, size_t max) {
  if (text.size() <= max || max < 4) return text;
  // The last blank before the cut, so that no word is split; a first word
  // longer than the cut (a path, say) is kept whole.
  size_t cut = text.rfind(' ', max - 3);
  if (cut == std::string::npos || cut == 0) {
    cut = text.find(' ');
    if (cut == std::string::npos) return text;
  }
  while (cut > 0 && (text[cut - 1] == ' ' || text[cut - 1] == ',' ||
                     text[cut - 1] == ':' || text[cut - 1] == '(')) {
    --cut;
  }
  return text.substr(0, cut) + "...";
}

std::string KnownViolationsLead(std::string_view sut) {
  return absl::StrCat(
      "known upstream violations: at these steps ", SanitizeLine(sut),
      " does what upstream's own code does, and upstream breaks an invariant "
      "there. Matching upstream is what these count; they are not failures");
}

std::string VersionSplitHint(const SystemRun& run) {
  // Children only (exec:, upstream:); model and impl run every version.
  if (run.sut.rfind("exec:", 0) != 0 || !run.declared_upstreams.empty() ||
      run.upstream_override) {
    return "";
  }
  std::map<std::string, std::pair<int, int>> by_version;  // failed, ran
  for (const TraceRun& t : run.traces) {
    if (t.upstream.empty() || t.result.verdict == Verdict::kSkipped) continue;
    auto& [failed, ran] = by_version[t.upstream];
    ++ran;
    failed += t.result.verdict == Verdict::kFailed ||
              t.result.verdict == Verdict::kError;
  }
  int failing_versions = 0;
  std::string best;  // the version it fails least, as the example
  double best_share = 2;
  std::vector<std::string> parts;
  for (const auto& [version, counts] : by_version) {
    const auto& [failed, ran] = counts;
    failing_versions += failed > 0;
    parts.push_back(absl::StrCat(version, " ", failed, " of ", ran));
    const double share = static_cast<double>(failed) / ran;
    if (share < best_share) {
      best_share = share;
      best = version;
    }
  }
  if (by_version.size() < 2 || failing_versions == 0) return "";
  return absl::StrCat(
      SanitizeLine(run.sut),
      " failed traces of these upstream versions: ", absl::StrJoin(parts, ", "),
      ".\n  It declares no version, so it is judged on the traces of every "
      "one. If it implements one, its header reply says which ({\"ok\": "
      "true, \"upstream\": \"",
      best,
      "\"}) and it is judged on that version's traces only "
      "(docs/ADAPTERS.md, \"Versions\").\n");
}

std::string SkipReason(const TraceRun& trace, std::string_view sut) {
  std::string why = WithoutStepPrefix(trace);
  std::string name = std::string(sut) + ": ";
  if (!sut.empty() && why.rfind(name, 0) == 0) {
    return SanitizeLine(name + Kind(why.substr(name.size())));
  }
  return SanitizeLine(Kind(why));
}

std::string SkipSummary(const SystemRun& run) {
  std::map<std::string, int> reasons;
  for (const TraceRun& t : run.traces) {
    if (t.result.verdict == Verdict::kSkipped)
      ++reasons[SkipReason(t, run.sut)];
  }
  std::vector<std::pair<std::string, int>> sorted(reasons.begin(),
                                                  reasons.end());
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [reason, n] : sorted) {
    absl::StrAppend(&out, "SKIP ", n, n == 1 ? " trace: " : " traces: ", reason,
                    "\n");
  }
  return out;
}

std::string FailureSignature(const TraceRun& trace) {
  const TraceResult& r = trace.result;
  if (trace.bad_input) return "bad input: " + SanitizeLine(Kind(r.message));
  if (r.divergence) {
    return SanitizeLine(absl::StrCat(r.divergence->op, " ",
                                     PathWithoutKeys(r.divergence->path)));
  }
  std::string kind = SanitizeLine(Kind(WithoutStepPrefix(trace)));
  return r.at_op.empty() ? kind : absl::StrCat(r.at_op, " ", kind);
}

std::string FailureGroups(const std::vector<SystemRun>& runs) {
  struct Group {
    int count = 0;
    size_t first = 0;  // order of first appearance, for ties
    std::string example;
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  size_t order = 0;
  for (const SystemRun& run : runs) {
    for (const TraceRun& t : run.traces) {
      if (t.result.verdict != Verdict::kFailed &&
          t.result.verdict != Verdict::kError) {
        continue;
      }
      Group& g = groups[{run.sut, FailureSignature(t)}];
      if (g.count++ == 0) {
        g.first = order++;
        const int line =
            t.result.divergence ? t.result.divergence->line : t.result.at_line;
        g.example = line > 0 ? absl::StrCat(NameOf(t), ":", line) : NameOf(t);
      }
    }
  }
  if (groups.empty()) return "";
  using Entry = std::tuple<int, size_t, std::string, std::string, std::string>;
  std::vector<Entry> sorted;
  for (const auto& [key, g] : groups) {
    sorted.emplace_back(-g.count, g.first, key.first, key.second, g.example);
  }
  std::sort(sorted.begin(), sorted.end());
  std::string out =
      absl::StrCat("failures by signature (", sorted.size(),
                   sorted.size() == 1 ? " kind):\n" : " kinds):\n");
  for (const auto& [neg, first, sut, sig, example] : sorted) {
    absl::StrAppendFormat(&out, "  %4d  %s  %s\n        e.g. %s\n", -neg,
                          SanitizeLine(sut), sig, SanitizeLine(example));
  }
  return out;
}

}  // namespace schedtrace::cli
