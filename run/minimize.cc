#include "run/minimize.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/json_codec.h"
#include "run/driver.h"
#include "run/interrupt.h"
#include "run/record.h"

namespace schedtrace {
namespace {

Trace WithoutExpectations(Trace trace) {
  for (Step& step : trace.steps) step.expect = nullptr;
  return trace;
}

// "state.queue.active[d/p].attempts" -> "state.queue.active[].attempts" (a
// key or an index alike).
std::string WithoutIndices(const std::string& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    out += path[i];
    if (path[i] == '[') {
      while (i + 1 < path.size() && path[i + 1] != ']') ++i;
    }
  }
  return out;
}

// The op named in a Replay message "file:line: step N (op): ...", or "".
std::string OpOfMessage(const std::string& message) {
  size_t step = message.find(": step ");
  if (step == std::string::npos) return "";
  size_t open = message.find(" (", step);
  size_t close = message.find("): ", step);
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return "";
  }
  return message.substr(open + 2, close - open - 2);
}

// What kind of error a system's failure at a step was, the same for every
// trace it happens on: a child's failure by the phrase that names it (the
// rest of its message quotes the child's varying bytes and stderr), any
// other error by its first line with numbers written N.
std::string ErrorKind(const std::string& message) {
  for (const char* phrase :
       {"closed its stdout", "no reply to", "is not a JSON object",
        "more than one line", "is longer than", "stopped reading its stdin",
        "could not apply", "is not {"}) {
    if (message.find(phrase) != std::string::npos) return phrase;
  }
  std::string kind;
  for (size_t i = 0; i < message.size() && message[i] != '\n'; ++i) {
    const bool digit = message[i] >= '0' && message[i] <= '9';
    if (!digit) {
      kind += message[i];
    } else if (kind.empty() || kind.back() != 'N') {
      kind += 'N';
    }
  }
  return kind;
}

class Shrinker {
 public:
  Shrinker(const FailureOf& failure, std::string signature, int max_runs)
      : failure_(failure),
        signature_(std::move(signature)),
        max_runs_(max_runs) {}

  bool Fails(const Trace& candidate) {
    // Interrupted (SIGINT/SIGTERM): no candidate fails any more, so the
    // smallest trace found so far is the result.
    if (runs_ >= max_runs_ || Interrupted()) return false;
    ++runs_;
    std::optional<std::string> s = failure_(candidate);
    return s && *s == signature_;
  }

  // ddmin, complements only: drops chunks of size/n steps, n doubling
  // when nothing could go. Returns whether anything went.
  bool Steps(Trace& cur) {
    bool any = false;
    size_t n = 2;
    while (!cur.steps.empty() && runs_ < max_runs_) {
      const size_t size = cur.steps.size();
      n = std::min(n, size);
      const size_t chunk = (size + n - 1) / n;
      bool reduced = false;
      for (size_t start = 0; start < size; start += chunk) {
        Trace candidate = cur;
        candidate.steps.erase(
            candidate.steps.begin() + start,
            candidate.steps.begin() + std::min(size, start + chunk));
        if (Fails(candidate)) {
          cur = std::move(candidate);
          any = reduced = true;
          n = std::max<size_t>(n - 1, 2);
          break;
        }
      }
      if (!reduced) {
        if (n >= size) break;
        n = std::min(size, n * 2);
      }
    }
    return any;
  }

  // Drops every name `names_of` finds, one at a time, while it still fails.
  bool Names(Trace& cur, std::vector<std::string> (*names_of)(const Step&),
             Trace (*without)(const Trace&, const std::string&)) {
    std::set<std::string> names;
    for (const Step& step : cur.steps) {
      for (std::string& name : names_of(step)) names.insert(std::move(name));
    }
    bool any = false;
    for (const std::string& name : names) {
      Trace candidate = without(cur, name);
      if (Fails(candidate)) {
        cur = std::move(candidate);
        any = true;
      }
    }
    return any;
  }

  int runs() const { return runs_; }

 private:
  const FailureOf& failure_;
  std::string signature_;
  int max_runs_;
  int runs_ = 1;  // the original
};

}  // namespace

std::vector<std::string> PodsNamed(const Step& step) {
  std::vector<std::string> keys;
  for (const PodPtr& p : {step.pod, step.old_pod, step.new_pod}) {
    if (p) keys.push_back(p->Key());
  }
  if (!step.pod_key.empty()) keys.push_back(step.pod_key);
  for (const std::string& k : step.pod_keys) keys.push_back(k);
  if (step.precheck) {
    for (const std::string& k : *step.precheck) keys.push_back(k);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::vector<std::string> NodesNamed(const Step& step) {
  std::vector<std::string> names;
  for (const NodePtr& n : {step.node, step.old_node, step.new_node}) {
    if (n) names.push_back(n->name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Trace WithoutPod(const Trace& trace, const std::string& key) {
  Trace out = trace;
  out.steps.clear();
  for (Step step : trace.steps) {
    step.expect = nullptr;
    if (step.op == Op::kQActivate) {
      std::vector<std::string> keys;
      std::vector<PodPtr> pods;
      for (size_t i = 0; i < step.pod_keys.size(); ++i) {
        if (step.pod_keys[i] == key) continue;
        keys.push_back(step.pod_keys[i]);
        if (i < step.pods.size()) pods.push_back(step.pods[i]);
      }
      if (keys.empty()) continue;
      step.pod_keys = std::move(keys);
      step.pods = std::move(pods);
      out.steps.push_back(std::move(step));
      continue;
    }
    if (step.precheck) {
      std::erase(*step.precheck, key);
    }
    bool names_it = false;
    for (const PodPtr& p : {step.pod, step.old_pod, step.new_pod}) {
      names_it |= p && p->Key() == key;
    }
    names_it |= step.pod_key == key;
    if (!names_it) out.steps.push_back(std::move(step));
  }
  return out;
}

Trace WithoutNode(const Trace& trace, const std::string& name) {
  Trace out = trace;
  out.steps.clear();
  for (Step step : trace.steps) {
    step.expect = nullptr;
    std::vector<std::string> nodes = NodesNamed(step);
    if (std::find(nodes.begin(), nodes.end(), name) == nodes.end()) {
      out.steps.push_back(std::move(step));
    }
  }
  return out;
}

absl::StatusOr<MinimizeResult> Minimize(const Trace& trace,
                                        const FailureOf& failure,
                                        const MinimizeOptions& options) {
  Trace cur = WithoutExpectations(trace);
  std::optional<std::string> signature = failure(cur);
  if (!signature) {
    return absl::FailedPreconditionError(absl::StrCat(
        trace.path, ": the trace does not fail, nothing to minimize"));
  }
  Shrinker shrink(failure, *signature, options.max_runs);
  bool changed = true;
  while (changed && shrink.runs() < options.max_runs) {
    changed = shrink.Steps(cur);
    changed |= shrink.Names(cur, &PodsNamed, &WithoutPod);
    changed |= shrink.Names(cur, &NodesNamed, &WithoutNode);
  }
  return MinimizeResult{std::move(cur), *signature, shrink.runs()};
}

std::optional<std::string> FailureSignature(const TraceResult& result) {
  return FailureSignature(result.verdict, result.divergence, result.message);
}

std::optional<std::string> FailureSignature(
    Verdict verdict, const std::optional<Divergence>& divergence,
    const std::string& message) {
  switch (verdict) {
    case Verdict::kPassed:
    case Verdict::kSkipped:
      return std::nullopt;
    case Verdict::kFailed:
      if (divergence) {
        return absl::StrCat("FAIL ", divergence->op, " ",
                            WithoutIndices(divergence->path));
      }
      if (size_t p = message.find("): property "); p != std::string::npos) {
        size_t end = message.find(')', p + 3);
        return absl::StrCat(
            "FAIL ",
            message.substr(p + 3, end == std::string::npos ? std::string::npos
                                                           : end - p - 2));
      }
      return absl::StrCat("FAIL ", OpOfMessage(message));
    case Verdict::kError: {
      std::string op = OpOfMessage(message);
      if (op.empty()) return "ERROR header";
      size_t p = message.find("): ");
      return absl::StrCat("ERROR ", op, " ", ErrorKind(message.substr(p + 3)));
    }
  }
  return std::nullopt;
}

Trace WithExpectationsFrom(System& system, const Trace& trace) {
  Trace out = WithoutExpectations(trace);
  Driver driver(system, nullptr, {.record = true});
  if (driver.Configure(trace.header)) return out;
  for (size_t i = 0; i < out.steps.size(); ++i) {
    Step& step = out.steps[i];
    if (driver.Apply(step)) break;  // refused: the rest keeps no expectation
    step.expect = RecordedExpect(driver.a());
    if (driver.ended()) {  // a fatal step is the trace's last
      out.steps.resize(i + 1);
      break;
    }
  }
  return out;
}

}  // namespace schedtrace
