// Every trace writer writes Kubernetes JSON: the traces
// `schedtrace gen` makes (every layer, plain, --hostile and --perturb), the
// traces `record` and `minimize` write, and those `schedtrace_fuzz_tool
// decode` writes from the corpus pass testkit/k8s_json_check.h, and their
// step lines read t, op, the op's arguments, expect.
//
// GoDecodeTest also runs them, and every golden trace, through
// tools/k8sdecode, a Go program, when `go` is installed.
//
// It lives with the fuzz tests because this is the one test binary that
// links the generator's model, the decoder and the minimizer together.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/codec.h"
#include "core/go_rfc3339.h"
#include "fuzz/decoder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "run/differential.h"
#include "run/generator.h"
#include "run/minimize.h"
#include "run/record.h"
#include "testkit/k8s_json_check.h"

namespace schedtrace {
namespace {

using ::testing::IsEmpty;

// What the checker finds in `text`, plus every step line whose keys are out
// of order: t, op first, expect (if any) last, and out before state.
std::vector<std::string> Problems(const std::string& text,
                                  const std::string& name) {
  std::vector<std::string> problems = CheckTraceK8sJson(text, name);
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    if (line_no == 1 || line.empty()) continue;
    std::vector<std::string> keys;
    nlohmann::ordered_json step =
        nlohmann::ordered_json::parse(line.begin(), line.end());
    for (const auto& [key, value] : step.items()) keys.push_back(key);
    const bool ordered =
        keys.size() >= 2 && keys[0] == "t" && keys[1] == "op" &&
        std::find(keys.begin(), keys.end(), "expect") >= keys.end() - 1;
    std::vector<std::string> expect_keys;
    if (step.contains("expect")) {
      for (const auto& [key, value] : step["expect"].items()) {
        expect_keys.push_back(key);
      }
    }
    if (!ordered || (expect_keys.size() == 2 && expect_keys[0] != "out")) {
      problems.push_back(
          absl::StrCat(name, ":", line_no, ": keys out of order"));
    }
  }
  return problems;
}

std::vector<Trace> Generated(Layer layer) {
  std::vector<Trace> traces;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    for (int mode = 0; mode < 3; ++mode) {
      GenOptions options;
      options.seed = seed;
      options.steps = 120;
      options.hostile = mode == 1;
      if (mode == 2) options.perturb = Perturbations::All(0.3);
      std::unique_ptr<System> model = model::NewSystem();
      absl::StatusOr<Trace> trace = GenerateTrace(layer, *model, options);
      EXPECT_TRUE(trace.ok()) << trace.status();
      if (trace.ok()) traces.push_back(*std::move(trace));
    }
  }
  return traces;
}

class GeneratedK8sJsonTest : public ::testing::TestWithParam<Layer> {};

TEST_P(GeneratedK8sJsonTest, GenWritesKubernetesJson) {
  int objects = 0;
  for (const Trace& trace : Generated(GetParam())) {
    const std::string text = EncodeTrace(trace);
    EXPECT_THAT(Problems(text, trace.header.name), IsEmpty());
    for (size_t at = 0;
         (at = text.find("\"metadata\"", at)) != std::string::npos; ++at) {
      ++objects;
    }
  }
  EXPECT_GT(objects, 1000);
}

INSTANTIATE_TEST_SUITE_P(AllLayers, GeneratedK8sJsonTest,
                         ::testing::Values(Layer::kQueue, Layer::kCache,
                                           Layer::kScheduler),
                         [](const auto& info) {
                           return std::string(LayerName(info.param));
                         });

// The scheduler layer's pod updates set deletionTimestamp (once written
// as "2026", not a time), written as upstream's recordings write it (the
// trace's start 2023-01-01T00:00:00Z plus the trace clock).
TEST(GeneratedK8sJsonTest, DeletionTimestampsAreTheTraceClock) {
  int deleting = 0;
  for (const Trace& trace : Generated(Layer::kScheduler)) {
    for (const Step& step : trace.steps) {
      if (step.op != Op::kPodUpdate || !step.new_pod ||
          !step.new_pod->deletion_timestamp ||
          (step.old_pod && step.old_pod->deletion_timestamp)) {
        continue;
      }
      ++deleting;
      // The second is the trace's clock; the step source may spell it in
      // any form Go's RFC 3339 parser reads, a fraction of it included.
      absl::StatusOr<GoInstant> written =
          ParseGoRfc3339(*step.new_pod->deletion_timestamp);
      absl::StatusOr<GoInstant> clock =
          ParseGoRfc3339(K8sTime(kTraceEpochSeconds + step.t / 1000));
      ASSERT_TRUE(written.ok()) << written.status();
      ASSERT_TRUE(clock.ok()) << clock.status();
      EXPECT_EQ(written->unix_seconds, clock->unix_seconds)
          << *step.new_pod->deletion_timestamp;
    }
  }
  EXPECT_GT(deleting, 5);
}

TEST(WrittenK8sJsonTest, RecordAndMinimizeWriteKubernetesJson) {
  GenOptions options;
  options.seed = 4;
  options.steps = 150;
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> generated =
      GenerateTrace(Layer::kScheduler, *model, options);
  ASSERT_TRUE(generated.ok()) << generated.status();

  // record: the trace re-recorded from a fresh model.
  std::unique_ptr<System> recorder = model::NewSystem();
  absl::StatusOr<Trace> recorded = RecordTrace(*recorder, *generated);
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  EXPECT_THAT(Problems(EncodeTrace(*recorded), "recorded"), IsEmpty());

  // minimize: down to a deleted pod's update, as cmd_minimize writes it
  // (expectations recorded from the model).
  auto deleting = [](const Trace& t) -> std::optional<std::string> {
    for (const Step& step : t.steps) {
      if (step.op == Op::kPodUpdate && step.new_pod &&
          step.new_pod->deletion_timestamp) {
        return "a pod is deleted";
      }
    }
    return std::nullopt;
  };
  absl::StatusOr<MinimizeResult> m = Minimize(*generated, deleting);
  ASSERT_TRUE(m.ok()) << m.status();
  std::unique_ptr<System> again = model::NewSystem();
  const std::string text = EncodeTrace(WithExpectationsFrom(*again, m->trace));
  EXPECT_THAT(text, ::testing::HasSubstr("\"deletionTimestamp\":\"2023-"));
  EXPECT_THAT(Problems(text, "minimized"), IsEmpty());
}

std::string CorpusDir() {
  const char* env = std::getenv("SCHEDTRACE_SOURCE_DIR");
  return std::string(env != nullptr ? env : SCHEDTRACE_SOURCE_DIR) + "/corpus";
}

// As `schedtrace_fuzz_tool decode TARGET INPUT` decodes and writes.
std::string Decoded(const std::string& target, std::string_view data) {
  Layer layer = target == "queue"   ? Layer::kQueue
                : target == "cache" ? Layer::kCache
                                    : Layer::kScheduler;
  fuzz::Mode mode = fuzz::Mode::kValid;
  if (target == "hostile") {
    if (data.empty()) return "";
    layer = fuzz::HostileLayer(static_cast<uint8_t>(data[0]));
    mode = fuzz::Mode::kHostile;
    data.remove_prefix(1);
  }
  const bool valid = mode == fuzz::Mode::kValid;
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> trace = fuzz::DecodeTrace(
      layer, mode, data, valid ? model.get() : nullptr, /*record=*/valid);
  EXPECT_TRUE(trace.ok()) << trace.status();
  return trace.ok() ? EncodeTrace(*trace) : "";
}

TEST(WrittenK8sJsonTest, FuzzToolDecodeWritesKubernetesJson) {
  int inputs = 0;
  for (const std::string target : {"queue", "cache", "scheduler", "hostile"}) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry :
         std::filesystem::directory_iterator(CorpusDir() + "/" + target)) {
      files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path& file : files) {
      std::ifstream in(file, std::ios::binary);
      std::stringstream data;
      data << in.rdbuf();
      const std::string text = Decoded(target, data.str());
      if (text.empty()) continue;
      ++inputs;
      EXPECT_THAT(Problems(text, file.string()), IsEmpty());
    }
  }
  EXPECT_GT(inputs, 500);
}

// `go` on the PATH, or "".
std::string GoBinary() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  for (absl::string_view dir : absl::StrSplit(path, ':')) {
    std::filesystem::path go = std::filesystem::path(std::string(dir)) / "go";
    std::error_code ec;
    if (!dir.empty() && std::filesystem::is_regular_file(go, ec)) {
      return go.string();
    }
  }
  return "";
}

void WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// tools/k8sdecode (Go, standard library only) decodes the pods and nodes of
// what gen, record, minimize and the fuzz tool's decode write with mirrors of
// upstream's Go types, and of every golden trace; and refuses a pod whose
// deletionTimestamp is not an RFC 3339 time. Skipped where Go is not installed:
// the C++ checker above is the test that always runs.
TEST(GoDecodeTest, GoDecodesEveryWrittenTrace) {
  const std::string go = GoBinary();
  if (go.empty()) GTEST_SKIP() << "no go on the PATH";
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "schedtrace-k8sdecode";
  std::filesystem::remove_all(dir);
  const char* env = std::getenv("SCHEDTRACE_SOURCE_DIR");
  const std::string source = env != nullptr ? env : SCHEDTRACE_SOURCE_DIR;
  // GOCACHE in the temporary directory when the environment gives none (a
  // test environment may have no HOME); GOTOOLCHAIN=local and GOPROXY=off:
  // the tool has no dependencies, nothing is downloaded.
  const std::string go_env = absl::StrCat(
      std::getenv("GOCACHE") == nullptr && std::getenv("HOME") == nullptr
          ? absl::StrCat("GOCACHE='", (dir / "gocache").string(), "' ")
          : "",
      "GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod ");
  const std::string tool = (dir / "k8sdecode").string();
  ASSERT_EQ(
      std::system(absl::StrCat("cd '", source, "/tools/k8sdecode' && ", go_env,
                               "'", go, "' build -o '", tool, "' .")
                      .c_str()),
      0);

  int n = 0;
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (const Trace& trace : Generated(layer)) {
      WriteFile(dir / "written" / absl::StrCat("gen-", n++, ".jsonl"),
                EncodeTrace(trace));
    }
  }
  for (const std::string target : {"queue", "cache", "scheduler", "hostile"}) {
    int i = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(CorpusDir() + "/" + target)) {
      if (i++ == 40) break;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream data;
      data << in.rdbuf();
      WriteFile(dir / "written" / absl::StrCat("decode-", n++, ".jsonl"),
                Decoded(target, data.str()));
    }
  }
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> recorded =
      RecordTrace(*model, Generated(Layer::kScheduler).back());
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  WriteFile(dir / "written" / "recorded.jsonl", EncodeTrace(*recorded));
  EXPECT_EQ(
      std::system(absl::StrCat("'", tool, "' '", (dir / "written").string(),
                               "' '", source, "/golden'")
                      .c_str()),
      0);

  // The control: a pod with deletionTimestamp "2026" does not decode.
  WriteFile(dir / "bad" / "bad.jsonl",
            R"({"schedtrace":1,"name":"bad","layer":"scheduler"}
{"t":1,"op":"pod_add","pod":{"metadata":{"name":"p","deletionTimestamp":"2026"}}}
)");
  EXPECT_NE(
      std::system(
          absl::StrCat("'", tool, "' '", (dir / "bad").string(), "'").c_str()),
      0);
}

}  // namespace
}  // namespace schedtrace
