// A timeline (run/timeline.h) as text, and which of its steps a
// default view shows: `schedtrace explain` prints the text, `minimize`
// writes it beside a minimized trace; the HTML report cuts the same steps
// (DefaultRowWindow).
//
//   std::cout << FormatTimeline(*timeline, {.all = true});
#ifndef SCHEDTRACE_RUN_TIMELINE_FORMAT_H_
#define SCHEDTRACE_RUN_TIMELINE_FORMAT_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "run/timeline.h"

namespace schedtrace {

struct TimelineFormat {
  // Every step of the timeline. Otherwise, unless the timeline was made
  // for a range (ExplainOptions::from/to), the text shows the steps up to
  // the first failure and kStepsAfter after it (a passing trace: to its
  // end), and when more than kHeadSteps + kTailSteps steps before that
  // change a followed pod, only the first kHeadSteps and the last
  // kTailSteps of them; a line says which steps are left out and how to
  // see them (--from/--to, --all).
  bool all = false;
};
inline constexpr int kStepsAfter = 3;
inline constexpr int kHeadSteps = 6;
inline constexpr int kTailSteps = 18;

// Whether the trace failed at this row: the first divergence, a property
// violated, or the system failed.
bool RowFails(const TimelineRow& row);

// The rows the default view shows (TimelineFormat, not `all`): `shown[r]`
// for each row, and `end`, the first row left out after the failure (the
// rows from there on are hidden; rows.size() when none). `eventful(r)`:
// whether row r (before the failure) changes a followed pod, as the view
// counts it. A timeline made for a range shows every row. Shared by the
// text (FormatTimeline) and the HTML report, so both cut the same steps.
struct RowWindow {
  std::vector<bool> shown;
  size_t end = 0;
};
RowWindow DefaultRowWindow(const Timeline& timeline,
                           const std::function<bool(size_t)>& eventful);

// "step 4" or "steps 4–9".
std::string StepRange(int first, int last);

// The timeline as text: the verdict, the description, the divergence
// (Divergence::Format), the pods followed, then one block per step that
// changed a followed pod, each pod's place in one line where the two sides
// agree, an "expected:" line and a "≠ actual:" line where they differ; the
// failing step marked ">>> ... <<<"; runs of steps that change nothing for
// these pods collapsed into one line.
std::string FormatTimeline(const Timeline& timeline,
                           const TimelineFormat& format = {});

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_TIMELINE_FORMAT_H_
