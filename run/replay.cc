#include "run/replay.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "run/driver.h"
#include "run/state_diff.h"
#include "run/step_summary.h"

namespace schedtrace {
namespace {

using nlohmann::json;

constexpr std::string_view kAbsent = "(absent)";

std::string Show(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// What a divergence shows as actual: what the system sent when that is known
// (`sent` null: it sent nothing there), else the actual value.
std::string ShowActual(const json& actual, const json* sent, bool use_sent) {
  if (!use_sent) return Show(actual);
  return sent == nullptr ? std::string(kAbsent) : Show(*sent);
}

const json* SentKey(const json* sent, const std::string& key) {
  if (sent == nullptr || !sent->is_object()) return nullptr;
  auto it = sent->find(key);
  return it == sent->end() ? nullptr : &*it;
}

struct Found {
  std::string path;
  std::string expected;
  std::string actual;
};

// Finds the first place where `expected` and `actual` differ, descending
// into objects key by key (expected's keys, then keys only `actual` has) and
// into arrays of equal length element by element; arrays of different length
// are reported whole. `sent` walks alongside `actual` (when `use_sent`).
std::optional<Found> FirstDifference(const json& expected, const json& actual,
                                     const json* sent, bool use_sent,
                                     const std::string& path) {
  if (expected == actual) return std::nullopt;
  if (expected.is_object() && actual.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      std::string sub = absl::StrCat(path, ".", key);
      const json* s = use_sent ? SentKey(sent, key) : nullptr;
      auto it = actual.find(key);
      if (it == actual.end()) {
        return Found{
            std::move(sub), Show(value),
            use_sent && s != nullptr ? Show(*s) : std::string(kAbsent)};
      }
      if (auto d = FirstDifference(value, *it, s, use_sent, sub)) return d;
    }
    for (const auto& [key, value] : actual.items()) {
      if (!expected.contains(key)) {
        return Found{absl::StrCat(path, ".", key), std::string(kAbsent),
                     ShowActual(value, SentKey(sent, key), use_sent)};
      }
    }
  } else if (expected.is_array() && actual.is_array() &&
             expected.size() == actual.size()) {
    // A list matched by key (run/state_diff.h ListKeys) names its element
    // by that key, as every Difference does: `state.cache.nodes[n1]`. Where
    // the two lists hold different keys at a position (an element missing,
    // extra or moved), the list is reported whole.
    std::optional<std::vector<std::string>> want = ListKeys(expected, path);
    std::optional<std::vector<std::string>> got =
        want ? ListKeys(actual, path) : std::nullopt;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (got && (*want)[i] != (*got)[i]) break;
      const json* s =
          use_sent && sent != nullptr && sent->is_array() && i < sent->size()
              ? &(*sent)[i]
              : nullptr;
      const std::string sub = got ? absl::StrCat(path, "[", (*want)[i], "]")
                                  : absl::StrCat(path, "[", i, "]");
      if (auto d = FirstDifference(expected[i], actual[i], s, use_sent, sub)) {
        return d;
      }
    }
  }
  return Found{path, Show(expected), ShowActual(actual, sent, use_sent)};
}

Divergence At(const Step& step, int step_no, std::string path,
              std::string expected, std::string actual) {
  Divergence d;
  d.step = step_no;
  d.line = step.line;
  d.op = std::string(OpName(step.op));
  d.path = std::move(path);
  d.expected = std::move(expected);
  d.actual = std::move(actual);
  return d;
}

std::optional<Divergence> Diverge(const Step& step, int step_no,
                                  const json& expected, const json& actual,
                                  const json* sent, bool use_sent,
                                  const std::string& root) {
  std::optional<Found> f =
      FirstDifference(expected, actual, sent, use_sent, root);
  if (!f) return std::nullopt;
  return At(step, step_no, std::move(f->path), std::move(f->expected),
            std::move(f->actual));
}

// `expect.out` against the system's out. That is the canonical encoding of
// the StepOut (OutToJson), unless the system's out crossed a wire
// (System::OutAsSent): then it is what the system wrote, compared as JSON
// values (key order aside), and that must also be exactly the canonical
// encoding of what it decodes to, or `{"error": false}` would pass as `{}`.
// `differences`, when not null, gets every difference on a mismatch.
std::optional<Divergence> CompareOut(const Step& step, int step_no,
                                     const json& expected, const StepOut& out,
                                     std::optional<std::string_view> sent,
                                     std::vector<Difference>* differences) {
  json canonical = OutToJson(out);
  if (!sent) {
    std::optional<Divergence> d =
        Diverge(step, step_no, expected, canonical, nullptr, false, "out");
    if (d && differences != nullptr) DiffOut(expected, canonical, *differences);
    return d;
  }
  json actual = json::parse(sent->begin(), sent->end(), nullptr,
                            /*allow_exceptions=*/false);
  if (actual.is_discarded()) {
    std::optional<Divergence> d =
        At(step, step_no, "out", Show(expected), std::string(*sent));
    if (differences != nullptr) {
      differences->push_back({"out", "changed", d->expected, d->actual});
    }
    return d;
  }
  if (auto d =
          Diverge(step, step_no, expected, actual, nullptr, false, "out")) {
    if (differences != nullptr) DiffOut(expected, actual, *differences);
    return d;
  }
  // What was sent is the expectation, yet not canonical: the trace's
  // expect.out is not canonical either, and no system can match it.
  std::optional<Divergence> d =
      Diverge(step, step_no, canonical, actual, nullptr, false, "out");
  if (d) {
    absl::StrAppend(&d->expected,
                    " (the canonical out; this expect.out is not canonical)");
    if (differences != nullptr) DiffOut(canonical, actual, *differences);
  }
  return d;
}

// The parts of a snapshot whose keys are compared one by one (the spec lets
// an expectation leave keys out); below them values compare exactly.
bool ComparedKeyByKey(const std::string& part) {
  return part == "queue" || part == "cache";
}

// The first difference of `expect.state` against `actual` (the canonical
// encoding of the system's state), `sent` walking alongside when not null.
std::optional<Divergence> CompareState(const Step& step, int step_no,
                                       const json& expected, const json& actual,
                                       const json* sent,
                                       const ReportsState& reports,
                                       int* skipped) {
  const bool use_sent = sent != nullptr;
  auto unreported = [&](const std::string& path) {
    if (!reports || reports(path)) return false;
    if (skipped != nullptr) ++*skipped;
    return true;
  };
  if (!expected.is_object()) {
    return Diverge(step, step_no, expected, actual, sent, use_sent, "state");
  }
  for (const auto& [part, want] : expected.items()) {
    if (unreported(part)) continue;
    std::string root = absl::StrCat("state.", part);
    const json* sent_part = use_sent ? SentKey(sent, part) : nullptr;
    auto it = actual.find(part);
    if (it == actual.end()) {
      return At(step, step_no, std::move(root), Show(want),
                use_sent && sent_part != nullptr ? Show(*sent_part)
                                                 : std::string(kAbsent));
    }
    const json& got = *it;
    if (ComparedKeyByKey(part) && want.is_object() && got.is_object()) {
      for (const auto& [key, value] : want.items()) {
        if (unreported(absl::StrCat(part, ".", key))) continue;
        std::string sub = absl::StrCat(root, ".", key);
        const json* s = use_sent ? SentKey(sent_part, key) : nullptr;
        auto k = got.find(key);
        if (k == got.end()) {
          return At(step, step_no, std::move(sub), Show(value),
                    use_sent && s != nullptr ? Show(*s) : std::string(kAbsent));
        }
        if (auto d = Diverge(step, step_no, value, *k, s, use_sent, sub)) {
          return d;
        }
      }
    } else if (auto d = Diverge(step, step_no, want, got, sent_part, use_sent,
                                root)) {
      return d;
    }
  }
  return std::nullopt;
}

// `s` cut to `max` code points, with an ellipsis (and how long `s` was, with
// `say_size`) when cut; on one line.
std::string Clip(std::string_view s, size_t max, bool say_size = true) {
  std::string out;
  size_t points = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80 && points++ == max) {
      out += "\xE2\x80\xA6";  // U+2026
      if (say_size) absl::StrAppend(&out, " (", s.size(), " bytes)");
      break;
    }
    out += c == '\n' || c == '\r' || c == '\t' ? ' ' : s[i];
  }
  return out;
}

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// `text` in lines of at most `width` code points, words kept whole (a word
// longer than a line is cut), at most `max_lines`: the last one ends with an
// ellipsis when the text goes on.
std::vector<std::string> Wrap(std::string_view text, size_t width,
                              size_t max_lines) {
  std::vector<std::string> lines;
  std::string line;
  size_t i = 0;
  bool cut = false;
  while (i < text.size()) {
    while (i < text.size() && absl::ascii_isspace(text[i])) ++i;
    size_t end = i;
    while (end < text.size() && !absl::ascii_isspace(text[end])) ++end;
    if (end == i) break;
    std::string word = Clip(text.substr(i, end - i), width, false);
    i = end;
    if (!line.empty() && CodePoints(line) + 1 + CodePoints(word) > width) {
      if (lines.size() + 1 == max_lines) {
        cut = true;
        break;
      }
      lines.push_back(std::move(line));
      line.clear();
    }
    absl::StrAppend(&line, line.empty() ? "" : " ", word);
  }
  if (!line.empty()) lines.push_back(std::move(line));
  if (cut) lines.back() += " \xE2\x80\xA6";  // U+2026
  return lines;
}

constexpr size_t kMaxValue = 300;  // code points of a value shown
// The trace's description: at most 3 lines of 72 code points.
constexpr size_t kDescriptionWidth = 72;
constexpr size_t kDescriptionLines = 3;

}  // namespace

std::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPassed:
      return "PASS";
    case Verdict::kFailed:
      return "FAIL";
    case Verdict::kSkipped:
      return "SKIP";
    case Verdict::kError:
      return "ERROR";
  }
  return "?";
}

std::string Divergence::Format(const std::string& trace_path) const {
  return absl::StrCat(trace_path, ":", line, ": step ", step, " (", op,
                      ") t=", t, ": ", path, FormatBody("expected", "actual"));
}

std::string Divergence::FormatBody(const std::string& expected_label,
                                   const std::string& actual_label) const {
  const size_t width = std::max({expected_label.size(), actual_label.size(),
                                 std::string_view("before").size()}) +
                       1;
  auto label = [width](const std::string& name) {
    return absl::StrCat("\n    ", name, ":",
                        std::string(width - name.size(), ' '));
  };
  std::string s = absl::StrCat(label(expected_label), Clip(expected, kMaxValue),
                               label(actual_label), Clip(actual, kMaxValue));
  if (!step_summary.empty()) {
    absl::StrAppend(&s, label("step"), Clip(step_summary, 2 * kMaxValue));
  }
  const std::string indent =
      absl::StrCat("\n    ", std::string(width + 1, ' '));
  std::vector<std::string> trace =
      Wrap(description, kDescriptionWidth, kDescriptionLines);
  for (size_t i = 0; i < trace.size(); ++i) {
    absl::StrAppend(&s, i == 0 ? label("trace") : indent, trace[i]);
  }
  for (size_t i = 0; i < before.size(); ++i) {
    absl::StrAppend(&s, i == 0 ? label("before") : indent,
                    Clip(before[i], 2 * kMaxValue));
  }
  if (differences.empty()) return s;
  absl::StrAppend(&s, "\n    differences (", differences.size(), "):");
  size_t shown = 0;
  for (const std::string kind : {"missing", "extra", "moved", "changed", ""}) {
    for (const Difference& d : differences) {
      const bool known = d.kind == "missing" || d.kind == "extra" ||
                         d.kind == "moved" || d.kind == "changed";
      if (kind.empty() ? known : d.kind != kind) continue;
      if (shown == kMaxFormattedDifferences) break;
      ++shown;
      absl::StrAppend(
          &s, "\n      ", d.kind,
          std::string(d.kind.size() < 8 ? 8 - d.kind.size() : 1, ' '),
          Clip(d.path, kMaxValue), ": ", expected_label, " ",
          Clip(d.expected, kMaxValue), ", ", actual_label, " ",
          Clip(d.actual, kMaxValue));
    }
  }
  if (differences.size() > kMaxFormattedDifferences) {
    absl::StrAppend(&s, "\n      \xE2\x80\xA6 and ",
                    differences.size() - kMaxFormattedDifferences,
                    " more (the JSON report lists every one)");
  }
  return s;
}

void AddTraceContext(Divergence& d, const Trace& trace, size_t index) {
  d.description = trace.header.description;
  d.before.clear();
  const size_t first = index > static_cast<size_t>(kStepsBefore)
                           ? index - static_cast<size_t>(kStepsBefore)
                           : 0;
  for (size_t i = first; i < index && i < trace.steps.size(); ++i) {
    d.before.push_back(StepLine(trace.steps[i], static_cast<int>(i) + 1));
  }
}

std::optional<Divergence> CompareStep(
    const Step& step, int step_no, const StepOut& out, const State& state,
    const ReportsState& reports, int* skipped,
    std::optional<std::string_view> out_sent,
    std::optional<std::string_view> state_sent) {
  if (step.expect == nullptr) return std::nullopt;
  // The fast check: the first difference only, for every step that matches.
  std::optional<Divergence> d;
  if (step.expect->out) {
    d = CompareOut(step, step_no, *step.expect->out, out, out_sent, nullptr);
  }
  json actual_state;
  if (step.expect->state) {
    actual_state = StateToJson(state);
    std::optional<Divergence> s =
        CompareState(step, step_no, *step.expect->state, actual_state, nullptr,
                     reports, d ? nullptr : skipped);
    if (!d) d = std::move(s);
  }
  if (!d) return std::nullopt;
  // A mismatch: everything about it. The state as sent, when the system
  // wrote one, is what `actual` shows.
  json sent;
  if (state_sent) {
    sent = json::parse(state_sent->begin(), state_sent->end(), nullptr,
                       /*allow_exceptions=*/false);
  }
  const json* sent_state = state_sent && !sent.is_discarded() ? &sent : nullptr;
  if (sent_state != nullptr && d->path.starts_with("state")) {
    if (std::optional<Divergence> shown =
            CompareState(step, step_no, *step.expect->state, actual_state,
                         sent_state, reports, nullptr)) {
      d = std::move(shown);
    }
  }
  if (step.expect->out) {
    CompareOut(step, step_no, *step.expect->out, out, out_sent,
               &d->differences);
  }
  if (step.expect->state) {
    DiffState(*step.expect->state, actual_state, sent_state, reports,
              d->differences);
  }
  if (d->differences.empty()) {  // cannot happen; never show none
    d->differences.push_back({d->path, "changed", d->expected, d->actual});
  }
  d->t = step.t;
  d->step_summary = StepSummary(step);
  return d;
}

TraceResult Replay(System& sut, const Trace& trace,
                   const ReplayOptions& options) {
  TraceResult result;
  result.path = trace.path;
  result.name = trace.header.name;
  result.layer = trace.header.layer;
  DriveOptions drive;
  if (options.check) {
    drive.make_check = [&options](const TraceHeader&) { return options.check; };
  }
  drive.reports = options.reports;
  drive.observer = options.observer;
  drive.keep_going = options.keep_going;
  Driver driver(sut, nullptr, std::move(drive));
  if (std::optional<DriveEnd> end =
          driver.Configure(trace.header, trace.path)) {
    result.verdict = end->verdict;
    result.message = std::move(end->message);
    // The header: step 0, no op, its line in the file (1 for a trace built
    // in code).
    result.at_line = trace.header_line > 0 ? trace.header_line : 1;
    return result;
  }
  std::optional<DriveEnd> end;
  for (const Step& step : trace.steps) {
    const bool failed_before = driver.first_failure().has_value();
    end = driver.Apply(step);
    // What the result counts stops at the first failure (keep_going runs
    // on past it).
    if (!failed_before) {
      result.steps_run = driver.steps_run();
      result.comparisons_skipped = driver.comparisons_skipped();
    }
    if (end || driver.ended()) break;
  }
  if (!end) end = driver.first_failure();
  if (!end) return result;
  result.verdict = end->verdict;
  result.at_step = end->step_no;
  result.at_line = end->line;
  result.at_op = end->op;
  if (end->divergence) {
    result.divergence = std::move(end->divergence);
  } else {
    result.message =
        absl::StrCat(trace.path, ":", end->line, ": step ", end->step_no, " (",
                     end->op, "): ", end->message);
  }
  return result;
}

}  // namespace schedtrace
