// TraceStream: reads a trace file one step at a time, so a benchmark or a
// long replay never holds the whole parsed trace in memory.
//
// Same rules as ParseTrace (codec.h): blank and `#` lines are skipped, the
// first other line is the header, every error is an InvalidArgument (or
// NotFound for a file that cannot be opened) naming the file, the line and
// the field.
//
//   absl::StatusOr<std::unique_ptr<TraceStream>> s = TraceStream::Open(path);
//   if (!s.ok()) return s.status();
//   sut->Configure((*s)->header());
//   while (true) {
//     absl::StatusOr<std::optional<Step>> step = (*s)->Next();
//     if (!step.ok()) return step.status();
//     if (!step->has_value()) break;  // end of file
//     sut->Apply(**step);
//   }
#ifndef SCHEDTRACE_RUN_BENCH_STREAM_H_
#define SCHEDTRACE_RUN_BENCH_STREAM_H_

#include <istream>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "core/codec.h"
#include "core/trace.h"

namespace schedtrace {

class TraceStream {
 public:
  // Opens `path` and decodes its header.
  static absl::StatusOr<std::unique_ptr<TraceStream>> Open(
      const std::string& path);
  // Reads from `in`; `path` names it in error messages.
  static absl::StatusOr<std::unique_ptr<TraceStream>> FromStream(
      std::unique_ptr<std::istream> in, std::string path);

  const TraceHeader& header() const { return header_; }
  const std::string& path() const { return path_; }

  // The next step, or nullopt at the end of the input. After an error the
  // stream stays at the failed line; further calls repeat nothing useful.
  absl::StatusOr<std::optional<Step>> Next();

 private:
  TraceStream(std::unique_ptr<std::istream> in, std::string path);
  // The next line that is neither blank nor a `#` comment, into `line_`;
  // false at the end of the input.
  bool NextContentLine();

  std::unique_ptr<std::istream> in_;
  std::string path_;
  TraceDecoder decoder_;
  TraceHeader header_;
  std::string line_;
  int line_no_ = 0;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_BENCH_STREAM_H_
