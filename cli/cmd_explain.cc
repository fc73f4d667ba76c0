// schedtrace explain: a per-pod timeline of one trace on one system
// (run/timeline.h): after every step, where each pod of interest is on
// the expected side (the trace's expect.state) and on the actual side (the
// system's snapshot), the first failure marked; in the cache and scheduler
// layers each node of interest too (its requested resources, its pods,
// present or a placeholder, an assumed pod's binding and deadline).
//
//   schedtrace explain --sut=impl --pod=default/p --from=3 --to=9 TRACE
//   schedtrace explain --sut=impl --node=n1 TRACE
//
// Without --pod it follows the pods of the first failure (a divergence, a
// property violation, the step the system failed on); on a passing trace
// every pod the trace mentions, up to 8. Without --node it follows the
// nodes the first divergence's differences name (up to 4), else none. By
// default the text shows the steps up to the failure and a few after it (the
// middle of a long run before it left out, with a line saying how to see it);
// --from/--to show a range,
// --all every step. Exits 0 when it explained, pass or fail; 1 when the
// system refused the trace's header; 2 on bad input or a bad command line.
#include <algorithm>
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cli/command.h"
#include "cli/explanation.h"
#include "cli/flags.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "core/codec.h"
#include "run/text_sanitize.h"
#include "run/timeline.h"
#include "run/timeline_format.h"

namespace schedtrace::cli {
namespace {

// --from / --to: a step number from 1, or absent (0).
absl::StatusOr<int> StepFlag(const CommandLine& cl, const std::string& name) {
  if (!cl.Has(name)) return 0;
  int n = 0;
  if (!absl::SimpleAtoi(cl.Last(name, ""), &n) || n < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " takes a step number from 1, not '",
                     cl.Last(name, ""), "'"));
  }
  return n;
}

int Explain(const CommandLine& cl) {
  if (cl.paths.size() != 1) {
    return UsageError(
        cl.paths.empty()
            ? "explain takes one TRACE"
            : absl::StrCat("explain takes one TRACE, not ", cl.paths.size()));
  }
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  const std::string sut_name = cl.Last("sut", "model");
  absl::StatusOr<std::unique_ptr<System>> sut = MakeSystem(sut_name);
  if (!sut.ok()) return UsageError(std::string(sut.status().message()));
  absl::StatusOr<int> from = StepFlag(cl, "from");
  if (!from.ok()) return UsageError(std::string(from.status().message()));
  absl::StatusOr<int> to = StepFlag(cl, "to");
  if (!to.ok()) return UsageError(std::string(to.status().message()));
  if (*from != 0 && *to != 0 && *from > *to) {
    return UsageError(absl::StrCat("--from=", *from, " is after --to=", *to));
  }
  if (cl.Has("all") && (*from != 0 || *to != 0)) {
    return UsageError("--all shows every step: give it without --from/--to");
  }
  ExplainOptions options =
      ExplainOptionsFor(**sut, sut_name, !cl.Has("no-properties"));
  options.from = *from;
  options.to = *to;
  for (const std::string& pod : cl.All("pod")) {
    const size_t slash = pod.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == pod.size()) {
      return UsageError(absl::StrCat(
          "--pod takes a pod key namespace/name, not '", pod, "'"));
    }
    if (std::find(options.pods.begin(), options.pods.end(), pod) ==
        options.pods.end()) {
      options.pods.push_back(pod);
    }
  }
  for (const std::string& node : cl.All("node")) {
    if (node.empty() || node.find('/') != std::string::npos) {
      return UsageError(
          absl::StrCat("--node takes a node name, not '", node, "'"));
    }
    if (std::find(options.nodes.begin(), options.nodes.end(), node) ==
        options.nodes.end()) {
      options.nodes.push_back(node);
    }
  }
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  absl::StatusOr<Trace> trace = ReadTraceFile(cl.paths[0]);
  if (!trace.ok()) {
    std::cerr << "schedtrace explain: "
              << SanitizeText(std::string(trace.status().message())) << "\n";
    return 2;
  }
  OverrideUpstream(*upstream, trace->header);
  if (!options.nodes.empty() && trace->header.layer == Layer::kQueue) {
    return UsageError(absl::StrCat("--node: ", cl.paths[0],
                                   " is a queue-layer trace, which has no "
                                   "cache nodes"));
  }
  if (*from > static_cast<int>(trace->steps.size())) {
    return UsageError(absl::StrCat("--from=", *from, ": ", cl.paths[0], " has ",
                                   trace->steps.size(), " steps"));
  }
  absl::StatusOr<Timeline> timeline = ExplainTrace(**sut, *trace, options);
  if (!timeline.ok()) {
    std::cerr << "schedtrace explain: " << sut_name << ": "
              << SanitizeText(std::string(timeline.status().message())) << "\n";
    return 1;
  }
  std::cout << SanitizeText(FormatTimeline(*timeline, {.all = cl.Has("all")}));
  return 0;
}

const CommandRegistrar kExplain({
    .name = "explain",
    .order = 48,
    .synopsis = "[--sut=S] [--pod=NS/NAME]... [--node=NAME]... [--from=N] "
                "[--to=M] [--all] [--no-properties] [--upstream=V] TRACE",
    .summary = "why a trace fails, or how upstream treats it: step by step, "
               "where each pod is on the expected side (the trace) and the "
               "actual side (S), every place it is in, and each followed "
               "node (cache and scheduler layers: present or a placeholder, "
               "requested, its pods), differences marked ≠",
    .flags = {{"sut",
               "the system to replay on: model, impl, exec:CMD or "
               "upstream:VERSION (default "
               "model)"},
              {"pod",
               "follow this pod (repeatable; default: the pods the first "
               "failure names, or on a passing trace every pod, up to 8)"},
              {"node",
               "follow this node, cache and scheduler layers (repeatable; "
               "default: the nodes the first divergence names, up to 4): "
               "whether the cache holds it or only a placeholder, its "
               "requested resources, its pods, each assumed one's binding "
               "and deadline"},
              {"from",
               "the first step shown; with --from and/or --to exactly that "
               "range is shown, each followed pod's place on its first step"},
              {"to", "the last step shown"},
              {.name = "all",
               .help = "show every step (runs of steps that move no followed "
                       "pod still collapse into one line); by default the "
                       "steps up to the first failure and 3 after it, a long "
                       "run before it cut to the first 6 and the last 18 "
                       "steps that move these pods, with a line saying how "
                       "to see the rest",
               .boolean = true},
              {.name = "no-properties",
               .help = "do not check the invariants (checked as replay does, "
                       "so a property violation is a failure)",
               .boolean = true},
              kUpstreamFlag,
              kTimeoutFlag},
    .run = &Explain,
});

}  // namespace
}  // namespace schedtrace::cli
