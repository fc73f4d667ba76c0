// The trace codec: schedtrace JSONL <-> the typed Trace, Step, StepOut and
// State of trace.h and state.h.
//
// Decoding is strict where the spec is strict and lenient where it says to be:
// unknown header, config, step and object keys are ignored; a malformed line,
// an unknown op, a missing or mistyped field, a decreasing `t`, an invalid
// quantity or a `$ref` to a pod no earlier step carried is an
// InvalidArgument error whose message names the file, the line and the field:
//
//   golden/q.jsonl:12: field "pod.spec.containers[0].resources.requests.cpu":
//   invalid quantity "12x"
//
//   absl::StatusOr<Trace> trace = ReadTraceFile("golden/q.jsonl");
//
// Encoding writes the spec's JSON (pods and nodes as v1.Pod / v1.Node with
// empty fields omitted); decode(encode(x)) == x for every typed value.
#ifndef SCHEDTRACE_CORE_CODEC_H_
#define SCHEDTRACE_CORE_CODEC_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "core/state.h"
#include "core/trace.h"

namespace schedtrace {

// Decodes a trace line by line, keeping what `$ref`, `q_activate` and the
// `t` check need. Used by ParseTrace and by `schedtrace serve`, which reads
// one line at a time.
class TraceDecoder {
 public:
  // `path` is used in error messages only.
  explicit TraceDecoder(std::string path);

  // Line 1. Errors name `path:line`.
  absl::StatusOr<TraceHeader> DecodeHeader(std::string_view line, int line_no);
  // A step line, after the header. Resolves `$ref` and `q_activate` keys,
  // checks `t` never decreases and that the op belongs to the header's layer.
  // `expect` is kept when present.
  absl::StatusOr<Step> DecodeStep(std::string_view line, int line_no);

 private:
  std::string path_;
  bool have_header_ = false;
  Layer layer_ = Layer::kQueue;
  int64_t last_t_ = 0;
  std::map<std::string, PodPtr> latest_pods_;  // key -> latest carried
};

// Whole files: skips blank and `#` lines, decodes the header and every step.
absl::StatusOr<Trace> ParseTrace(std::string_view text, std::string path);
absl::StatusOr<Trace> ReadTraceFile(const std::string& path);

// One JSON line each, no trailing newline. A header's keys are written
// schedtrace, name, layer, upstream, source, description, seed, config; a
// step's t, op, the op's arguments, expect (json_codec.h, StepMembers).
std::string EncodeHeader(const TraceHeader& header);
// With `with_expect` false the `expect` key is left out (the child-process
// protocol sends steps that way). `$ref`s are never written: pods are written
// in full.
std::string EncodeStep(const Step& step, bool with_expect = true);
std::string EncodeOut(const StepOut& out);
std::string EncodeState(const State& state);
std::string EncodeTrace(const Trace& trace);  // the whole file, '\n' ended

// Inverse of EncodeOut / EncodeState (the child-process protocol reads them).
absl::StatusOr<StepOut> DecodeOut(std::string_view json);
absl::StatusOr<State> DecodeState(std::string_view json);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_CODEC_H_
