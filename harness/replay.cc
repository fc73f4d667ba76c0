#include "harness/replay.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/json_codec.h"

namespace schedtrace {
namespace {

using nlohmann::json;

std::string Show(const json& j) { return j.dump(); }

// Finds the first place where `expected` and `actual` differ, descending
// into objects key by key (expected's keys, then keys only `actual` has) and
// into arrays of equal length element by element; arrays of different length
// are reported whole.
std::optional<std::string> FirstDifference(const json& expected,
                                           const json& actual,
                                           const std::string& path) {
  if (expected == actual) return std::nullopt;
  if (expected.is_object() && actual.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      std::string sub = absl::StrCat(path, ".", key);
      if (!actual.contains(key)) return sub;
      if (auto d = FirstDifference(value, actual[key], sub)) return d;
    }
    for (const auto& [key, value] : actual.items()) {
      if (!expected.contains(key)) return absl::StrCat(path, ".", key);
    }
    return path;
  }
  if (expected.is_array() && actual.is_array() &&
      expected.size() == actual.size()) {
    for (size_t i = 0; i < expected.size(); ++i) {
      std::string sub = absl::StrCat(path, "[", i, "]");
      if (auto d = FirstDifference(expected[i], actual[i], sub)) return d;
    }
  }
  return path;
}

// The value at a path FirstDifference produced ("out.result.node",
// "state.queue.active[1].attempts"), or a string saying it is absent.
std::string ValueAt(const json& root, const std::string& path) {
  const json* cur = &root;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      size_t end = path.find_first_of(".[", i + 1);
      std::string key = path.substr(
          i + 1, end == std::string::npos ? std::string::npos : end - i - 1);
      if (!cur->is_object() || !cur->contains(key)) return "(absent)";
      cur = &(*cur)[key];
      i = end == std::string::npos ? path.size() : end;
    } else if (path[i] == '[') {
      size_t end = path.find(']', i);
      size_t index = std::stoul(path.substr(i + 1, end - i - 1));
      if (!cur->is_array() || index >= cur->size()) return "(absent)";
      cur = &(*cur)[index];
      i = end + 1;
    } else {
      ++i;
    }
  }
  return Show(*cur);
}

std::optional<Divergence> Diverge(const Step& step, int step_no,
                                  const json& expected, const json& actual,
                                  const std::string& root) {
  std::optional<std::string> where = FirstDifference(expected, actual, "");
  if (!where) return std::nullopt;
  Divergence d;
  d.step = step_no;
  d.line = step.line;
  d.op = std::string(OpName(step.op));
  d.path = root + *where;
  d.expected = ValueAt(expected, *where);
  d.actual = ValueAt(actual, *where);
  return d;
}

// `expect.out` against the system's out. That is the canonical encoding of
// the StepOut (OutToJson), unless the system's out crossed a wire
// (System::OutAsSent): then it is what the system wrote, compared as JSON
// values (key order aside), and that must also be exactly the canonical
// encoding of what it decodes to, or `{"error": false}` would pass as `{}`.
std::optional<Divergence> CompareOut(const Step& step, int step_no,
                                     const json& expected, const StepOut& out,
                                     std::optional<std::string_view> sent) {
  json canonical = OutToJson(out);
  if (!sent) return Diverge(step, step_no, expected, canonical, "out");
  json actual = json::parse(sent->begin(), sent->end(), nullptr,
                            /*allow_exceptions=*/false);
  if (actual.is_discarded()) {
    return Divergence{step_no, step.line,      std::string(OpName(step.op)),
                      "out",   Show(expected), std::string(*sent)};
  }
  if (auto d = Diverge(step, step_no, expected, actual, "out")) return d;
  // What was sent is the expectation, yet not canonical: the trace's
  // expect.out is not canonical either, and no system can match it.
  std::optional<Divergence> d =
      Diverge(step, step_no, canonical, actual, "out");
  if (d) {
    absl::StrAppend(&d->expected,
                    " (the canonical out; this expect.out is not canonical)");
  }
  return d;
}

// The parts of a snapshot whose keys are compared one by one (the spec lets
// an expectation leave keys out); below them values compare exactly.
bool ComparedKeyByKey(const std::string& part) {
  return part == "queue" || part == "cache";
}

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
                      "): ", path, "\n    expected: ", expected,
                      "\n    actual:   ", actual);
}

std::optional<Divergence> CompareStep(
    const Step& step, int step_no, const StepOut& out, const State& state,
    const ReportsState& reports, int* skipped,
    std::optional<std::string_view> out_sent) {
  auto unreported = [&](const std::string& path) {
    if (!reports || reports(path)) return false;
    if (skipped != nullptr) ++*skipped;
    return true;
  };
  if (step.expect == nullptr) return std::nullopt;
  if (step.expect->out) {
    if (auto d = CompareOut(step, step_no, *step.expect->out, out, out_sent)) {
      return d;
    }
  }
  if (!step.expect->state) return std::nullopt;
  const json& expected = *step.expect->state;
  json actual = StateToJson(state);
  if (!expected.is_object()) {
    return Diverge(step, step_no, expected, actual, "state");
  }
  for (const auto& [part, want] : expected.items()) {
    if (unreported(part)) continue;
    std::string root = absl::StrCat("state.", part);
    if (!actual.contains(part)) {
      return Divergence{step_no, step.line,  std::string(OpName(step.op)),
                        root,    Show(want), "(absent)"};
    }
    const json& got = actual[part];
    if (ComparedKeyByKey(part) && want.is_object() && got.is_object()) {
      for (const auto& [key, value] : want.items()) {
        if (unreported(absl::StrCat(part, ".", key))) continue;
        std::string sub = absl::StrCat(root, ".", key);
        if (!got.contains(key)) {
          return Divergence{step_no, step.line,   std::string(OpName(step.op)),
                            sub,     Show(value), "(absent)"};
        }
        if (auto d = Diverge(step, step_no, value, got[key], sub)) return d;
      }
    } else if (auto d = Diverge(step, step_no, want, got, root)) {
      return d;
    }
  }
  return std::nullopt;
}

TraceResult Replay(System& sut, const Trace& trace,
                   const ReplayOptions& options) {
  TraceResult result;
  result.path = trace.path;
  result.name = trace.header.name;
  result.layer = trace.header.layer;
  // Where the verdict is decided (TraceResult::at_*), when it is not a pass.
  auto decided_at = [&result](int step_no, int line, Op op) {
    result.at_step = step_no;
    result.at_line = line;
    result.at_op = std::string(OpName(op));
  };
  if (absl::Status s = sut.Configure(trace.header); !s.ok()) {
    result.verdict = s.code() == absl::StatusCode::kUnimplemented
                         ? Verdict::kSkipped
                         : Verdict::kError;
    result.message = std::string(s.message());
    // The header: step 0, no op. TraceHeader keeps no line; it is the first
    // line of every trace but one that opens with comments or blank lines.
    result.at_step = 0;
    result.at_line = 1;
    return result;
  }
  State before;
  if (options.check) before = sut.Snapshot();
  for (size_t i = 0; i < trace.steps.size(); ++i) {
    const Step& step = trace.steps[i];
    const int step_no = static_cast<int>(i) + 1;
    absl::StatusOr<StepOut> out = sut.Apply(step);
    result.steps_run = step_no;
    if (!out.ok()) {
      result.verdict = out.status().code() == absl::StatusCode::kUnimplemented
                           ? Verdict::kSkipped
                           : Verdict::kError;
      result.message = absl::StrCat(trace.path, ":", step.line, ": step ",
                                    step_no, " (", std::string(OpName(step.op)),
                                    "): ", out.status().message());
      decided_at(step_no, step.line, step.op);
      return result;
    }
    // A snapshot costs as much as the state is large (20,000 pods: tens of
    // ms): take one only when the step's expectations or the check read it.
    const bool reads_state =
        options.check || (step.expect != nullptr && step.expect->state);
    State after = reads_state ? sut.Snapshot() : State{};
    if (auto d = CompareStep(step, step_no, *out, after, options.reports,
                             &result.comparisons_skipped, sut.OutAsSent())) {
      result.verdict = Verdict::kFailed;
      result.divergence = std::move(d);
      decided_at(step_no, step.line, step.op);
      return result;
    }
    if (options.check) {
      std::string violation = options.check(before, step, *out, after);
      if (!violation.empty()) {
        result.verdict = Verdict::kFailed;
        result.message =
            absl::StrCat(trace.path, ":", step.line, ": step ", step_no, " (",
                         std::string(OpName(step.op)), "): ", violation);
        decided_at(step_no, step.line, step.op);
        return result;
      }
      before = std::move(after);
    }
    if (out->fatal) break;  // upstream exited: the trace ends here
  }
  return result;
}

}  // namespace schedtrace
