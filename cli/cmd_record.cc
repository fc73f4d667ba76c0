// schedtrace record: fill a trace's expectations from a system.
//
//   schedtrace record --sut=model in.jsonl out.jsonl
//
// Every step's `expect` becomes what the system emitted and showed (the
// trace ends at a fatal step); the header and the steps are kept, but for
// the header's `upstream` with --upstream=V:
//
//   schedtrace record --upstream=v1.30.12 in.jsonl out-v1.30.12.jsonl
#include <fstream>
#include <iostream>

#include "cli/command.h"
#include "cli/flags.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "core/codec.h"
#include "run/differential.h"
#include "run/record.h"

namespace schedtrace::cli {
namespace {

int Record(const CommandLine& cl) {
  if (cl.paths.size() != 2) return UsageError("record takes IN and OUT");
  if (absl::Status s = ApplySutFlags(cl); !s.ok()) {
    return UsageError(std::string(s.message()));
  }
  absl::StatusOr<std::unique_ptr<System>> sut =
      MakeSystem(cl.Last("sut", "model"));
  if (!sut.ok()) return UsageError(std::string(sut.status().message()));
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  absl::StatusOr<Trace> in = ReadTraceFile(cl.paths[0]);
  if (!in.ok()) {
    std::cerr << "schedtrace record: " << in.status().message() << "\n";
    return 2;
  }
  OverrideUpstream(*upstream, in->header);
  absl::StatusOr<Trace> recorded = RecordTrace(**sut, *in);
  if (!recorded.ok()) {
    std::cerr << "schedtrace record: " << recorded.status().message() << "\n";
    return 1;
  }
  std::ofstream out(cl.paths[1]);
  out << EncodeTrace(*recorded);
  if (!out) {
    std::cerr << "schedtrace record: cannot write " << cl.paths[1] << "\n";
    return 2;
  }
  return 0;
}

const CommandRegistrar kRecord({
    .name = "record",
    .order = 45,
    .synopsis = "--sut=S [--upstream=V] IN OUT",
    .summary = "write IN to OUT with every step's expectations recorded "
               "from S (default model)",
    .flags = {{"sut", "the system to record from (default model)"},
              {"upstream",
               "record IN as this upstream version (" + KnownUpstreamsText() +
                   "): OUT's header names it and its expectations are what "
                   "S does as that version"},
              kTimeoutFlag},
    .run = &Record,
});

}  // namespace
}  // namespace schedtrace::cli
