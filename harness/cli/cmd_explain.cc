// schedtrace explain: a per-pod timeline of one trace on one system
// (harness/timeline.h): after every step, where each pod of interest is on
// the expected side (the trace's expect.state) and on the actual side (the
// system's snapshot), the first divergence marked.
//
//   schedtrace explain --sut=impl --pod=default/p --from=3 --to=9 TRACE
//
// Without --pod it follows the pods of the first divergence (every pod the
// trace mentions, up to 8, on a passing trace). Exits 0 when it explained,
// pass or fail; 1 when the system refused the trace's header; 2 on bad input.
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/cli/command.h"
#include "harness/cli/flags.h"
#include "harness/cli/suts.h"
#include "harness/codec.h"
#include "harness/timeline.h"

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
  if (cl.paths.size() != 1) return UsageError("explain takes one TRACE");
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  ExplainOptions options;
  options.sut = cl.Last("sut", "model");
  absl::StatusOr<std::unique_ptr<System>> sut = MakeSystem(options.sut);
  if (!sut.ok()) return UsageError(std::string(sut.status().message()));
  absl::StatusOr<int> from = StepFlag(cl, "from");
  if (!from.ok()) return UsageError(std::string(from.status().message()));
  absl::StatusOr<int> to = StepFlag(cl, "to");
  if (!to.ok()) return UsageError(std::string(to.status().message()));
  if (*from != 0 && *to != 0 && *from > *to) {
    return UsageError(absl::StrCat("--from=", *from, " is after --to=", *to));
  }
  options.from = *from;
  options.to = *to;
  for (const std::string& pod : cl.All("pod")) {
    if (pod.find('/') == std::string::npos) {
      return UsageError(absl::StrCat(
          "--pod takes a pod key namespace/name, not '", pod, "'"));
    }
    options.pods.push_back(pod);
  }
  absl::StatusOr<Trace> trace = ReadTraceFile(cl.paths[0]);
  if (!trace.ok()) {
    std::cerr << "schedtrace explain: " << trace.status().message() << "\n";
    return 2;
  }
  options.reports = ReportsOf(**sut);
  absl::StatusOr<Timeline> timeline = ExplainTrace(**sut, *trace, options);
  if (!timeline.ok()) {
    std::cerr << "schedtrace explain: " << options.sut << ": "
              << timeline.status().message() << "\n";
    return 1;
  }
  std::cout << FormatTimeline(*timeline);
  return 0;
}

const CommandRegistrar kExplain({
    .name = "explain",
    .order = 48,
    .synopsis = "[--sut=S] [--pod=NS/NAME]... [--from=N] [--to=M] TRACE",
    .summary = "show, step by step, where each pod is on the expected and "
               "the actual side, the first divergence marked",
    .flags = {{"sut", "the system to replay on (default model)"},
              {"pod",
               "follow this pod (repeatable; default: the pods of the first "
               "divergence, or every pod of a passing trace, up to 8)"},
              {"from", "the first step shown (default 1)"},
              {"to", "the last step shown (default the last run)"},
              kTimeoutFlag},
    .run = &Explain,
});

}  // namespace
}  // namespace schedtrace::cli
