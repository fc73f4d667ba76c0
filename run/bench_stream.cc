#include "run/bench_stream.h"

#include <fstream>
#include <utility>

#include "absl/strings/str_cat.h"

namespace schedtrace {

TraceStream::TraceStream(std::unique_ptr<std::istream> in, std::string path)
    : in_(std::move(in)), path_(path), decoder_(std::move(path)) {}

absl::StatusOr<std::unique_ptr<TraceStream>> TraceStream::Open(
    const std::string& path) {
  auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*in) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open the file"));
  }
  return FromStream(std::move(in), path);
}

absl::StatusOr<std::unique_ptr<TraceStream>> TraceStream::FromStream(
    std::unique_ptr<std::istream> in, std::string path) {
  std::unique_ptr<TraceStream> s(new TraceStream(std::move(in), path));
  if (!s->NextContentLine()) {
    if (s->in_->bad()) {
      return absl::DataLossError(absl::StrCat(path, ": read error"));
    }
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", s->line_no_ + 1,
                     ": field \"schedtrace\": missing: the trace is empty "
                     "(no header line)"));
  }
  absl::StatusOr<TraceHeader> header =
      s->decoder_.DecodeHeader(s->line_, s->line_no_);
  if (!header.ok()) return header.status();
  s->header_ = *std::move(header);
  return s;
}

bool TraceStream::NextContentLine() {
  while (std::getline(*in_, line_)) {
    ++line_no_;
    if (!line_.empty() && line_.back() == '\r') line_.pop_back();
    size_t first = line_.find_first_not_of(" \t\r\f\v");
    if (first == std::string::npos || line_[first] == '#') continue;
    return true;
  }
  return false;
}

absl::StatusOr<std::optional<Step>> TraceStream::Next() {
  if (!NextContentLine()) {
    if (in_->bad()) {
      return absl::DataLossError(absl::StrCat(path_, ": read error"));
    }
    return std::optional<Step>();
  }
  absl::StatusOr<Step> step = decoder_.DecodeStep(line_, line_no_);
  if (!step.ok()) return step.status();
  return std::optional<Step>(*std::move(step));
}

}  // namespace schedtrace
