#include "cli/html_timeline.h"

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "cli/html_text.h"
#include "run/node_place.h"
#include "run/timeline_format.h"

namespace schedtrace::cli::html {
namespace {

// SamePlace (run/pod_place.h), each place compared too.
bool SameInEveryPlace(const PodPlace& a, const PodPlace& b) {
  return a.where == b.where && a.attempts == b.attempts &&
         a.nominated == b.nominated && a.places == b.places && a.note == b.note;
}

// The place of a pod or node (`key`) on one side; null where none.
template <typename Place>
const Place* Find(const std::map<std::string, Place>& places,
                  const std::string& key) {
  auto it = places.find(key);
  return it == places.end() ? nullptr : &it->second;
}

bool NotYet(const PodPlace* p) {
  return p == nullptr || p->where == "not added yet";
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

// One followed node at one step (the node view): where it stands on each
// side (null: the side shows none) and how it relates to the step before.
struct NodeCell {
  const NodePlace* expected = nullptr;
  const NodePlace* actual = nullptr;
  bool differs = false;  // the replay compares the two and they differ
  bool changed = false;  // the step changed the node (either side)
};

// The timeline's cells, and which rows say something about the pods and
// nodes followed.
class Grid {
 public:
  explicit Grid(const Timeline& tl) {
    const size_t n = tl.rows.size();
    cells_.resize(n);
    node_cells_.resize(n);
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
        c.differs = absl::c_linear_search(row.differing, pod);
        auto moved = [&pod](const PodPlace* now, const TimelineRow* before,
                            bool expected_side) {
          if (now == nullptr) return false;
          if (before == nullptr) return !NotYet(now);
          const PodPlace* then =
              Find(expected_side ? before->expected : before->actual, pod);
          return then == nullptr || !SameInEveryPlace(*then, *now);
        };
        c.changed = moved(c.expected, last_expected, true) ||
                    moved(c.actual, last_actual, false);
        c.out = (c.expected != nullptr && !c.expected->out.empty()) ||
                (c.actual != nullptr && !c.actual->out.empty());
        const bool newly_differs =
            c.differs &&
            (prev == nullptr || !absl::c_linear_search(prev->differing, pod));
        eventful = eventful || c.changed || c.out || newly_differs;
        cells_[r].push_back(c);
      }
      for (const std::string& node : tl.nodes) {
        NodeCell c;
        c.expected =
            row.has_expected ? Find(row.expected_nodes, node) : nullptr;
        c.actual = row.has_actual ? Find(row.actual_nodes, node) : nullptr;
        c.differs = absl::c_linear_search(row.differing_nodes, node);
        auto changed = [&node](const NodePlace* now, const TimelineRow* before,
                               bool expected_side) {
          if (now == nullptr) return false;
          if (before == nullptr) return now->held;
          const NodePlace* then = Find(
              expected_side ? before->expected_nodes : before->actual_nodes,
              node);
          return then == nullptr || !(*then == *now);
        };
        c.changed = changed(c.expected, last_expected, true) ||
                    changed(c.actual, last_actual, false);
        const bool newly_differs =
            c.differs && (prev == nullptr ||
                          !absl::c_linear_search(prev->differing_nodes, node));
        eventful = eventful || c.changed || newly_differs;
        node_cells_[r].push_back(c);
      }
      eventful_[r] = eventful;
      if (row.has_expected) last_expected = &row;
      if (row.has_actual) last_actual = &row;
      prev = &row;
    }
  }

  const Cell& At(size_t row, size_t pod) const { return cells_[row][pod]; }
  const NodeCell& NodeAt(size_t row, size_t node) const {
    return node_cells_[row][node];
  }
  bool Eventful(size_t row) const { return eventful_[row]; }

 private:
  std::vector<std::vector<Cell>> cells_;
  std::vector<std::vector<NodeCell>> node_cells_;
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

// One side's node in a cell.
std::string NodeDiv(std::string_view cls, std::string_view label,
                    const NodePlace& p) {
  std::string s = absl::StrCat("<div class=\"", std::string(cls), "\">");
  if (!label.empty()) {
    absl::StrAppend(&s, "<span class=\"lbl\">", std::string(label), "</span>");
  }
  absl::StrAppend(&s, Line(FormatNodePlace(p)), "</div>");
  return s;
}

// A node's cell: one place where the sides agree, expected above actual
// where they do not.
std::string NodeCellHtml(const NodeCell& c) {
  std::string cls = c.changed ? "chg" : "same";
  std::string body;
  if (c.expected != nullptr && c.actual != nullptr) {
    if (!c.differs &&
        FormatNodePlace(*c.expected) == FormatNodePlace(*c.actual)) {
      body = NodeDiv("both", "", *c.actual);
      if (!c.actual->held) cls = "na";
    } else {
      body = NodeDiv("exp", "expected", *c.expected) +
             NodeDiv("act", c.differs ? "\xE2\x89\xA0 actual" : "actual",
                     *c.actual);
      cls = c.differs ? "ne" : "chg two";
    }
  } else if (c.actual != nullptr) {
    body = NodeDiv("both", "", *c.actual);
    if (!c.actual->held) cls = "na";
  } else if (c.expected != nullptr) {
    body = NodeDiv("exp", "expected", *c.expected) +
           "<div class=\"act\"><span class=\"lbl\">actual</span>"
           "(none)</div>";
    cls = c.differs ? "ne" : "chg two";
  }
  return absl::StrCat("<td class=\"", cls, " node\">", body, "</td>");
}

// The paragraph naming the pods the timeline follows, and the nodes.
void AppendPodsFollowed(std::string& out, const Timeline& tl) {
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
  if (tl.nodes.empty()) return;
  absl::StrAppend(&out, "<p class=\"note nodes\">Nodes followed");
  if (!tl.nodes_chosen.empty()) {
    absl::StrAppend(&out, " (", Line(tl.nodes_chosen), ")");
  }
  absl::StrAppend(&out, ": ");
  for (size_t i = 0; i < tl.nodes.size(); ++i) {
    absl::StrAppend(&out, i > 0 ? ", " : "", "<code>", Line(tl.nodes[i]),
                    "</code>");
  }
  absl::StrAppend(&out,
                  " (each: present or a placeholder, requested, its pods; "
                  "an assumed pod with its binding and deadline).</p>\n");
}

// What the rows of one timeline's table are written from.
struct Table {
  const Timeline& tl;
  const Grid& grid;
  const RowWindow& shown;
  size_t columns;   // step, t, op, the pods, the nodes, out when out_column
  bool out_column;  // a row shown has outs that differ
  const std::string& trace_id;
  const std::string& sut;
  const std::string& path;
};

void AppendTableHead(std::string& out, const Table& t) {
  absl::StrAppend(&out,
                  "<div class=\"tlwrap\"><table class=\"tl\">\n<thead><tr>"
                  "<th>step</th><th>t</th><th>op</th>");
  for (const std::string& pod : t.tl.pods) {
    absl::StrAppend(&out, "<th class=\"pod\">", Line(pod), "</th>");
  }
  for (const std::string& node : t.tl.nodes) {
    absl::StrAppend(&out, "<th class=\"node\">node ", Line(node), "</th>");
  }
  if (t.out_column) absl::StrAppend(&out, "<th>out</th>");
  absl::StrAppend(&out, "</tr></thead>\n<tbody>\n");
}

// A row across the table standing for rows not shown.
void AppendGap(std::string& out, const Table& t, const std::string& text) {
  absl::StrAppend(&out, "<tr class=\"gap\"><td colspan=\"", t.columns, "\">",
                  text, "</td></tr>\n");
}

// The rows from `r` on that the window leaves out, as one gap row naming
// the command that shows them; returns the row after them.
size_t AppendLeftOut(std::string& out, const Table& t, size_t r) {
  const size_t n = t.tl.rows.size();
  size_t last = r;
  while (last + 1 < n && !t.shown.shown[last + 1]) ++last;
  const int a = t.tl.rows[r].step, b = t.tl.rows[last].step;
  if (r >= t.shown.end) {
    AppendGap(out, t,
              absl::StrCat(StepRange(a, b), " not shown: <code>",
                           Explain(t.sut, t.path, absl::StrCat(" --from=", a)),
                           "</code> shows them"));
  } else {
    int moving = 0;
    for (size_t k = r; k <= last; ++k) moving += t.grid.Eventful(k);
    AppendGap(out, t,
              absl::StrCat(StepRange(a, b), " not shown (", moving,
                           " of them move these pods): <code>",
                           Explain(t.sut, t.path,
                                   absl::StrCat(" --from=", a, " --to=", b)),
                           "</code> shows them"));
  }
  return last + 1;
}

// The rows shown from `r` on that move none of the pods, as one gap row;
// returns the row after them.
size_t AppendQuiet(std::string& out, const Table& t, size_t r) {
  const size_t n = t.tl.rows.size();
  size_t last = r;
  while (last + 1 < n && t.shown.shown[last + 1] &&
         !t.grid.Eventful(last + 1)) {
    ++last;
  }
  AppendGap(out, t,
            absl::StrCat(StepRange(t.tl.rows[r].step, t.tl.rows[last].step),
                         ": no change for these pods",
                         t.tl.nodes.empty() ? "" : " and nodes"));
  return last + 1;
}

// A row's opening and its step, t and op cells, with the row's flags.
void AppendStepCells(std::string& out, const TimelineRow& row,
                     const std::string& trace_id) {
  absl::StrAppend(&out, "<tr id=\"", RowId(trace_id, row.step), "\"",
                  RowFails(row) ? " class=\"hit\"" : "", "><td class=\"n\">",
                  row.step, "</td><td class=\"n\">", row.t,
                  "</td><td class=\"op\"><code>", Line(row.summary), "</code>");
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
    absl::StrAppend(&out,
                    "<div class=\"tag\">no expected state: actual only</div>");
  }
  absl::StrAppend(&out, "</td>");
}

// Row `r`, shown and moving a pod: its step cells, a cell per pod, the out
// column.
void AppendStepRow(std::string& out, const Table& t, size_t r) {
  const TimelineRow& row = t.tl.rows[r];
  AppendStepCells(out, row, t.trace_id);
  const bool with_since = RowFails(row) || (r > 0 && !t.shown.shown[r - 1]);
  for (size_t p = 0; p < t.tl.pods.size(); ++p) {
    absl::StrAppend(&out,
                    CellHtml(t.grid.At(r, p), row, t.tl.pods[p], with_since));
  }
  for (size_t k = 0; k < t.tl.nodes.size(); ++k) {
    absl::StrAppend(&out, NodeCellHtml(t.grid.NodeAt(r, k)));
  }
  if (t.out_column) {
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
}

}  // namespace

std::string RowId(const std::string& trace_id, int step) {
  return absl::StrCat(trace_id, "-s", step);
}

void AppendTimeline(std::string& out, const Timeline& tl,
                    const std::string& trace_id, const std::string& sut,
                    const std::string& path) {
  AppendPodsFollowed(out, tl);
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
  const size_t columns =
      3 + tl.pods.size() + tl.nodes.size() + (out_column ? 1 : 0);
  const Table t{tl, grid, shown, columns, out_column, trace_id, sut, path};
  AppendTableHead(out, t);
  for (size_t r = 0; r < n;) {
    if (!shown.shown[r]) {
      r = AppendLeftOut(out, t, r);
    } else if (!grid.Eventful(r)) {
      r = AppendQuiet(out, t, r);
    } else {
      AppendStepRow(out, t, r++);
    }
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

bool RowShown(const Timeline& tl, int step) {
  const Grid grid(tl);
  const RowWindow shown = RowsShown(tl, grid);
  for (size_t r = 0; r < tl.rows.size(); ++r) {
    if (tl.rows[r].step == step) return shown.shown[r] && grid.Eventful(r);
  }
  return false;
}

}  // namespace schedtrace::cli::html
