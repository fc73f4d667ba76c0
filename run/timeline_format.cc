#include "run/timeline_format.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "run/node_place.h"
#include "run/pod_place.h"

namespace schedtrace {
namespace {

// The place of a pod or node (`key`) on one side; null where none.
template <typename Place>
const Place* Find(const std::map<std::string, Place>& places,
                  const std::string& key) {
  auto it = places.find(key);
  return it == places.end() ? nullptr : &it->second;
}

// The pod is not there yet on any side that shows it.
bool NotYet(const PodPlace* expected, const PodPlace* actual) {
  return (expected == nullptr || expected->where == kPlaceNotYet) &&
         (actual == nullptr || actual->where == kPlaceNotYet);
}

// Whether `pod`'s place `now` on one side differs from its place at row
// `before` (none: the first row) on that side.
bool Changed(const std::string& pod, const PodPlace* now,
             const TimelineRow* before, bool expected_side) {
  if (now == nullptr) return false;
  if (before == nullptr) return true;
  const PodPlace* then =
      Find(expected_side ? before->expected : before->actual, pod);
  return then == nullptr || !SamePlace(*then, *now);
}

class Formatter {
 public:
  explicit Formatter(const Timeline& tl) : tl_(tl) {
    size_t width = 0;
    for (const std::string& p : tl.pods) width = std::max(width, p.size());
    for (const std::string& n : tl.nodes) {
      width = std::max(width, NodeLabel(n).size());
    }
    width_ = width;
    for (const TimelineRow& row : tl.rows) any_expected_ |= row.has_expected;
  }

  // The lines of row `r`: the pods it changed, differing or with an out;
  // `full` (the first row shown after a gap, a failing row): every pod
  // already added.
  std::vector<std::string> Lines(size_t r, bool full) const {
    const TimelineRow& row = tl_.rows[r];
    std::vector<std::string> lines;
    bool out_shown = false;  // a pod line shows the out's difference
    for (const std::string& pod : tl_.pods) {
      const PodPlace* e = row.has_expected ? Find(row.expected, pod) : nullptr;
      const PodPlace* a = row.has_actual ? Find(row.actual, pod) : nullptr;
      const bool differs = absl::c_linear_search(row.differing, pod);
      if (!Shows(r, pod, e, a, differs, full)) continue;
      out_shown = out_shown ||
                  (differs && e != nullptr && a != nullptr && e->out != a->out);
      AppendPodLines(lines, row, pod, e, a, differs, full || RowFails(row));
    }
    for (const std::string& node : tl_.nodes)
      AppendNodeLines(lines, r, node, full);
    AppendRowNotes(lines, row, out_shown);
    return lines;
  }

  std::string Header(const TimelineRow& row) const {
    std::string s = absl::StrCat(RowFails(row) ? ">>> " : "", "step ", row.step,
                                 "  t=", row.t, "  ", row.summary);
    if (row.divergent) absl::StrAppend(&s, "   <<< first divergence");
    if (!row.violation.empty()) {
      absl::StrAppend(&s, "   <<< property violated");
    }
    if (!row.error.empty()) {
      absl::StrAppend(&s, "   <<< the system failed (system error above)");
    }
    if (row.expected_out.find("\"fatal\":true") != std::string::npos) {
      absl::StrAppend(&s, "   (upstream exits here: fatal)");
    }
    if (!row.has_expected && row.has_actual && any_expected_) {
      absl::StrAppend(&s, "   (no expected state: actual only)");
    }
    return s;
  }

 private:
  // The last row before `r` that carries an expected state, null if none.
  const TimelineRow* PreviousExpected(size_t r) const {
    for (size_t k = r; k-- > 0;) {
      if (tl_.rows[k].has_expected) return &tl_.rows[k];
    }
    return nullptr;
  }

  // Whether row `r` shows a line for `pod` (places `e` expected, `a`
  // actual): it differs (newly, or `full`), an out names it, or it moved
  // (or `full`) and has been added.
  bool Shows(size_t r, const std::string& pod, const PodPlace* e,
             const PodPlace* a, bool differs, bool full) const {
    const TimelineRow* prev = r > 0 ? &tl_.rows[r - 1] : nullptr;
    const TimelineRow* prev_expected = PreviousExpected(r);
    const bool still_differs = differs && prev != nullptr &&
                               absl::c_linear_search(prev->differing, pod) &&
                               !Changed(pod, e, prev_expected, true) &&
                               !Changed(pod, a, prev, false);
    return (differs && (!still_differs || full)) ||
           (e != nullptr && !e->out.empty()) ||
           (a != nullptr && !a->out.empty()) ||
           ((full || Changed(pod, e, prev_expected, true) ||
             Changed(pod, a, prev, false)) &&
            !NotYet(e, a));
  }

  // The pod's line (both sides agree, or one side only), or its
  // "expected:" and "actual:" lines; `stayed`: each place says since which
  // step it has held.
  void AppendPodLines(std::vector<std::string>& lines, const TimelineRow& row,
                      const std::string& pod, const PodPlace* e,
                      const PodPlace* a, bool differs, bool stayed) const {
    auto text = [&](const PodPlace& p,
                    const std::map<std::string, int>& since) {
      std::string s = FormatPlace(p);
      auto it = since.find(pod);
      if (stayed && it != since.end() && it->second < row.step) {
        absl::StrAppend(&s, "  [since step ", it->second, "]");
      }
      return s;
    };
    AppendSides(
        lines, pod,
        e == nullptr ? std::nullopt
                     : std::optional(text(*e, row.expected_since)),
        a == nullptr ? std::nullopt : std::optional(text(*a, row.actual_since)),
        differs);
  }

  // What a followed pod or node (`label`) looks like on each side (nullopt:
  // absent there): one line where the sides agree or only the actual one
  // has it, else its "expected:" and "actual:" lines, the latter marked ≠
  // when the replay sees them differ.
  void AppendSides(std::vector<std::string>& lines, const std::string& label,
                   const std::optional<std::string>& expected,
                   const std::optional<std::string>& actual,
                   bool differs) const {
    std::string key = label;
    key.resize(width_, ' ');
    if (expected && actual) {
      if (*expected == *actual && !differs) {
        lines.push_back(absl::StrCat("  ", key, "  ", *actual));
      } else {
        lines.push_back(absl::StrCat("  ", key, "  expected: ", *expected));
        lines.push_back(absl::StrCat("  ", std::string(width_, ' '),
                                     differs ? "≠ " : "  ",
                                     "actual:   ", *actual));
      }
    } else if (actual) {
      lines.push_back(absl::StrCat("  ", key, "  ", *actual));
    } else if (expected) {
      lines.push_back(absl::StrCat("  ", key, "  expected: ", *expected));
    }
  }

  static std::string NodeLabel(const std::string& node) {
    return absl::StrCat("node ", node);
  }

  // The node's line in row `r` (both sides agree, or one side only), or
  // its "expected:" and "actual:" lines: when it changed on a side since
  // the row before, differs (newly, or `full`), or `full` and it is in the
  // cache on some side.
  void AppendNodeLines(std::vector<std::string>& lines, size_t r,
                       const std::string& node, bool full) const {
    const TimelineRow& row = tl_.rows[r];
    const NodePlace* e =
        row.has_expected ? Find(row.expected_nodes, node) : nullptr;
    const NodePlace* a =
        row.has_actual ? Find(row.actual_nodes, node) : nullptr;
    if (e == nullptr && a == nullptr) return;
    const bool differs = absl::c_linear_search(row.differing_nodes, node);
    const TimelineRow* prev = r > 0 ? &tl_.rows[r - 1] : nullptr;
    const TimelineRow* prev_expected = PreviousExpected(r);
    auto changed = [&](const NodePlace* now, const TimelineRow* before,
                       bool expected_side) {
      if (now == nullptr) return false;
      if (before == nullptr) return true;
      const NodePlace* then = Find(
          expected_side ? before->expected_nodes : before->actual_nodes, node);
      return then == nullptr || !(*then == *now);
    };
    const bool moved =
        changed(e, prev_expected, true) || changed(a, prev, false);
    const bool still_differs =
        differs && prev != nullptr &&
        absl::c_linear_search(prev->differing_nodes, node) && !moved;
    const bool held = (e != nullptr && e->held) || (a != nullptr && a->held);
    const bool shown = (differs && (!still_differs || full || RowFails(row))) ||
                       ((moved || full) && (held || r > 0));
    if (!shown) return;
    AppendSides(
        lines, NodeLabel(node),
        e == nullptr ? std::nullopt : std::optional(FormatNodePlace(*e)),
        a == nullptr ? std::nullopt : std::optional(FormatNodePlace(*a)),
        differs);
  }

  // After the pods: where a divergence no followed pod shows is, and the
  // outs when they differ and no pod line showed it.
  void AppendRowNotes(std::vector<std::string>& lines, const TimelineRow& row,
                      bool out_shown) const {
    if (row.divergent && row.differing.empty() && row.differing_nodes.empty() &&
        !row.out_differs && tl_.divergence) {
      lines.push_back(absl::StrCat(
          "  (no followed pod's place differs here: the divergence is in ",
          tl_.divergence->differences.empty()
              ? tl_.divergence->path
              : tl_.divergence->differences.front().path,
          ", above)"));
    }
    for (const std::string& known : row.known) {
      lines.push_back(absl::StrCat("  known upstream violation ", known));
    }
    if (row.out_differs && !out_shown) {
      std::string key = "out";
      key.resize(width_, ' ');
      lines.push_back(
          absl::StrCat("  ", key, "  expected: ", row.expected_out));
      lines.push_back(absl::StrCat("  ", std::string(width_, ' '),
                                   "≠ actual:   ", row.actual_out));
    }
  }

  const Timeline& tl_;
  size_t width_ = 0;
  bool any_expected_ = false;  // some step carries expect.state
};

// `text` in lines of at most `width` characters (a longer word alone on
// its line), each after `indent`.
std::string Wrapped(const std::string& text, const std::string& indent,
                    size_t width) {
  std::string out, line;
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      absl::StrAppend(&out, indent, line, "\n");
      line.clear();
    }
    absl::StrAppend(&line, line.empty() ? "" : " ", std::string(word));
  }
  if (!line.empty()) absl::StrAppend(&out, indent, line, "\n");
  return out;
}

// The text's head: the verdict, the description (a divergence shows it
// itself), the divergence, the violation, the system's error, the pods
// followed.
std::string Head(const Timeline& tl) {
  std::string s;
  const std::string on = tl.sut.empty() ? "" : absl::StrCat(" on ", tl.sut);
  auto at = [&tl](int step_no) {
    for (const TimelineRow& row : tl.rows) {
      if (row.step == step_no) {
        return absl::StrCat(" at step ", step_no, " (line ", row.line, ", ",
                            row.op, ")");
      }
    }
    return absl::StrCat(" at step ", step_no);
  };
  if (tl.divergence) {
    absl::StrAppend(&s, "FAIL", on, " at step ", tl.divergence->step, " (line ",
                    tl.divergence->line, ", ", tl.divergence->op,
                    "): ", tl.trace, "\n");
  } else if (tl.violation_step > 0) {
    absl::StrAppend(&s, "FAIL", on, at(tl.violation_step), ": ", tl.trace,
                    "\n");
  } else if (!tl.error.empty()) {
    absl::StrAppend(&s, "ERROR", on, at(tl.error_step), ": ", tl.trace, "\n");
  } else {
    absl::StrAppend(&s, "PASS", on, ": ", tl.trace, " (", tl.steps_run,
                    " steps)\n");
  }
  if (!tl.description.empty() && !tl.divergence) {
    absl::StrAppend(&s, Wrapped(tl.description, "  ", 80));
  }
  if (tl.divergence) {
    std::string d = tl.divergence->Format(tl.trace);
    absl::StrAppend(&s, "first divergence:\n  ");
    for (char c : d) {
      s += c;
      if (c == '\n') s += "  ";
    }
    s += "\n";
  }
  if (tl.violation_step > 0) {
    absl::StrAppend(&s, "property violated at step ", tl.violation_step, ": ",
                    tl.violation, "\n");
  }
  if (!tl.error.empty()) absl::StrAppend(&s, "system error: ", tl.error, "\n");
  absl::StrAppend(
      &s, "pods followed (", tl.pods_chosen,
      "): ", tl.pods.empty() ? "none" : absl::StrJoin(tl.pods, ", "), "\n");
  if (!tl.nodes.empty()) {
    absl::StrAppend(&s, "nodes followed (", tl.nodes_chosen,
                    "): ", absl::StrJoin(tl.nodes, ", "), "\n");
  }
  return s;
}

// The line for rows r..last left out: after the failure (from `end` on),
// or in the middle of a long run before it.
std::string GapLine(const Timeline& tl, const Formatter& f, size_t r,
                    size_t last, size_t end) {
  const int a = tl.rows[r].step, b = tl.rows[last].step;
  if (r >= end) {
    return absl::StrCat("... ", StepRange(a, b), " not shown: --from=", a,
                        " shows them, --all every "
                        "step\n");
  }
  int changing = 0;
  for (size_t k = r; k <= last; ++k) changing += !f.Lines(k, false).empty();
  return absl::StrCat("... ", StepRange(a, b), " not shown (", changing,
                      " of them move these pods): --from=", a, " --to=", b,
                      " shows them, --all every step\n");
}

// The rows `window` shows, each as its header and lines; gaps and runs of
// rows that change nothing for the pods as one line each.
std::string Rows(const Timeline& tl, const Formatter& f,
                 const RowWindow& window) {
  std::string s;
  const size_t n = tl.rows.size();
  const std::vector<bool>& shown = window.shown;
  for (size_t r = 0; r < n;) {
    if (!shown[r]) {
      size_t last = r;
      while (last + 1 < n && !shown[last + 1]) ++last;
      absl::StrAppend(&s, GapLine(tl, f, r, last, window.end));
      r = last + 1;
      continue;
    }
    const bool full = r == 0 || !shown[r - 1];
    std::vector<std::string> lines = f.Lines(r, full || RowFails(tl.rows[r]));
    if (lines.empty() && !RowFails(tl.rows[r])) {
      size_t last = r;
      while (last + 1 < n && shown[last + 1] && !RowFails(tl.rows[last + 1]) &&
             f.Lines(last + 1, false).empty()) {
        ++last;
      }
      absl::StrAppend(&s, StepRange(tl.rows[r].step, tl.rows[last].step),
                      ": no change for these pods",
                      tl.nodes.empty() ? "" : " and nodes", "\n");
      r = last + 1;
      continue;
    }
    absl::StrAppend(&s, f.Header(tl.rows[r]), "\n");
    for (const std::string& line : lines) absl::StrAppend(&s, line, "\n");
    ++r;
  }
  return s;
}

}  // namespace

bool RowFails(const TimelineRow& row) {
  return row.divergent || !row.violation.empty() || !row.error.empty();
}

RowWindow DefaultRowWindow(const Timeline& tl,
                           const std::function<bool(size_t)>& eventful) {
  const size_t n = tl.rows.size();
  RowWindow w{std::vector<bool>(n, true), n};
  if (n == 0 || tl.from != 0 || tl.to != 0) return w;
  size_t focus = n - 1;
  bool failing = false;
  for (size_t r = 0; r < n; ++r) {
    if (RowFails(tl.rows[r])) {
      focus = r;
      failing = true;
      break;
    }
  }
  w.end = std::min(n, focus + 1 + (failing ? kStepsAfter : 0));
  std::vector<size_t> moving;  // rows before the focus that move a pod
  for (size_t r = 0; r < focus; ++r) {
    if (eventful(r)) moving.push_back(r);
  }
  if (moving.size() > static_cast<size_t>(kHeadSteps + kTailSteps)) {
    const size_t first_cut = moving[kHeadSteps - 1] + 1;
    const size_t last_cut = moving[moving.size() - kTailSteps] - 1;
    for (size_t r = first_cut; r <= last_cut; ++r) w.shown[r] = false;
  }
  for (size_t r = w.end; r < n; ++r) w.shown[r] = false;
  return w;
}

std::string StepRange(int a, int b) {
  return a == b ? absl::StrCat("step ", a) : absl::StrCat("steps ", a, "-", b);
}

std::string FormatTimeline(const Timeline& tl, const TimelineFormat& format) {
  std::string s = Head(tl);
  if (tl.rows.empty()) return s;
  absl::StrAppend(
      &s,
      Wrapped(absl::StrCat(
                  "Each step lists the pods it moved or named",
                  tl.nodes.empty() ? "" : " and the followed nodes it changed",
                  ": one line where the trace (expected) and the system "
                  "(actual) agree, expected:/actual: lines where not, ≠ "
                  "where the replay sees them differ."),
              "", 80));

  Formatter f(tl);
  if (std::none_of(tl.rows.begin(), tl.rows.end(),
                   [](const TimelineRow& row) { return row.has_expected; })) {
    absl::StrAppend(&s,
                    "The trace carries no expected state: the actual side "
                    "only.\n");
  }
  // Which rows are shown: all, or up to the failure and a few after it,
  // the middle of a long run before it left out.
  const size_t n = tl.rows.size();
  RowWindow window{std::vector<bool>(n, true), n};
  if (!format.all) {
    window = DefaultRowWindow(
        tl, [&f](size_t r) { return !f.Lines(r, r == 0).empty(); });
  }
  s += "\n";
  absl::StrAppend(&s, Rows(tl, f, window));
  if (tl.steps_run < tl.steps) {
    absl::StrAppend(&s, "(the trace ended after step ", tl.steps_run, " of ",
                    tl.steps, !tl.error.empty() ? ": the system failed" : "",
                    ")\n");
  }
  return s;
}

}  // namespace schedtrace
