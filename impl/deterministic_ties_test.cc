// impl's outputs depend on its input alone: not on hash iteration order
// (absl's hash seed changes from process to process) nor on addresses. On
// traces full of equal timestamps, where the order in which pods are moved
// decides the order activeQ pops them, `schedtrace record --sut=impl` gives
// the same bytes in several processes, and the same bytes as the model's
// recording: impl resolves ties as the model does (pods moved in key order).
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/codec.h"
#include "gtest/gtest.h"
#include "model/system.h"
#include "run/gen_options.h"
#include "run/generator.h"

namespace schedtrace {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `schedtrace record --sut=SUT IN OUT` in a process of its own; OUT's bytes.
std::string Record(const std::string& sut, const fs::path& in,
                   const fs::path& out) {
  const std::string cmd =
      absl::StrCat(SCHEDTRACE_BINARY_DIR, "/schedtrace record --sut=", sut, " ",
                   in.string(), " ", out.string(), " 2>&1");
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return "popen failed";
  std::array<char, 256> buf;
  std::string said;
  while (fgets(buf.data(), buf.size(), p) != nullptr) said += buf.data();
  if (pclose(p) != 0) return "record failed: " + said;
  return ReadAll(out);
}

// "" when equal, else the first line where `a` and `b` differ.
std::string FirstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(sa, la));
    const bool more_b = static_cast<bool>(std::getline(sb, lb));
    if (!more_a && !more_b) return "";
    if (!more_a || !more_b || la != lb) {
      return absl::StrCat("line ", line, ":\n  model: ", la.substr(0, 300),
                          "\n  impl:  ", lb.substr(0, 300));
    }
  }
}

// A generated trace with its clock cut to 30-second steps: many steps share
// a timestamp, so pods queued together tie in activeQ. A tie can pop another
// pod than the generator saw, so the trace ends before the first step the
// model then refuses (a pod given back that was never popped).
Trace TieHeavy(Layer layer, uint64_t seed) {
  GenOptions o;
  o.seed = seed;
  o.steps = 200;
  o.pods = 12;
  o.queue_pool = 12;
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> t = GenerateTrace(layer, *model, o);
  EXPECT_TRUE(t.ok()) << t.status();
  if (!t.ok()) return {};
  t->header.name += "-ties";
  std::unique_ptr<System> check = model::NewSystem();
  EXPECT_TRUE(check->Configure(t->header).ok());
  for (size_t i = 0; i < t->steps.size(); ++i) {
    Step& s = t->steps[i];
    s.t = s.t / 30000 * 30000;
    s.expect = nullptr;
    absl::StatusOr<StepOut> out = check->Apply(s);
    if (!out.ok() || out->fatal) {
      t->steps.resize(i);
      break;
    }
  }
  return *std::move(t);
}

TEST(DeterministicTiesTest, ImplRecordsTheSameBytesInEveryProcessAsTheModel) {
  const fs::path dir = fs::path(testing::TempDir()) / "deterministic-ties";
  fs::create_directories(dir);
  int traces = 0;
  for (Layer layer : {Layer::kQueue, Layer::kScheduler}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      const Trace t = TieHeavy(layer, seed);
      ASSERT_GT(t.steps.size(), 20u);
      const fs::path in =
          dir / absl::StrCat(std::string(LayerName(layer)), seed, ".jsonl");
      std::ofstream(in) << EncodeTrace(t);
      const std::string model = Record("model", in, dir / "model.jsonl");
      ASSERT_NE(model.find("\"expect\""), std::string::npos) << model;
      for (int run = 0; run < 3; ++run) {
        EXPECT_EQ(
            FirstDifference(model, Record("impl", in, dir / "impl.jsonl")), "")
            << in << ", impl process " << run;
      }
      ++traces;
    }
  }
  EXPECT_EQ(traces, 12);
}

}  // namespace
}  // namespace schedtrace
