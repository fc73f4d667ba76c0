// The harness self-test (docs/MUTANTS.md): with no mutant active the
// golden corpus and the generated traces all pass on impl; with each planted
// bug active, something catches it (golden replay with the properties, or a
// generated model-vs-impl trace); each mutant restoring a fixed upstream bug
// is caught by its own regression trace. Prints the mutation score.
//
//   build/mutants_test                       # all, with the score line
//   build/mutants_test --gtest_filter='*backoff*'
#include "mutants/catcher.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "impl/mutants.h"
#include "impl/system.h"
#include "model/system.h"
#include "mutants/planted.h"
#include "properties/checker.h"
#include "run/generator.h"
#include "run/replay.h"

namespace schedtrace::mutants {
namespace {

using impl::Mutant;
using impl::MutantInfo;

static_assert(impl::MutantsBuild(), "mutants_test needs SCHEDTRACE_MUTANTS");

// Loaded once per process: every case replays the same traces.
MutantCatcher& Catcher() {
  static MutantCatcher* catcher = [] {
    auto* c = new MutantCatcher(
        {.golden_dir = std::string(SCHEDTRACE_SOURCE_DIR) + "/golden"});
    absl::Status s = c->Load();
    if (!s.ok()) {
      std::fprintf(stderr, "loading the nets: %s\n", s.ToString().c_str());
      std::abort();
    }
    return c;
  }();
  return *catcher;
}

// Mutant name -> what caught it ("" = not caught), for the score line.
std::map<std::string, std::string>& Results() {
  static auto* results = new std::map<std::string, std::string>;
  return *results;
}

class ScoreReporter : public testing::Environment {
 public:
  void TearDown() override {
    if (Results().empty()) return;
    int caught = 0;
    for (const auto& [name, by] : Results()) caught += !by.empty();
    std::printf("mutation score: %d/%d mutants caught\n", caught,
                static_cast<int>(Results().size()));
  }
};
testing::Environment* const kScoreReporter =
    testing::AddGlobalTestEnvironment(new ScoreReporter);

// Restores "no mutant" whatever a test does.
class WithMutant {
 public:
  explicit WithMutant(Mutant m) { impl::SetActiveMutant(m); }
  ~WithMutant() { impl::SetActiveMutant(Mutant::kNone); }
};

TEST(MutantsTable, NamesAreUniqueKebabCaseAndResolve) {
  ASSERT_EQ(impl::AllMutants().size(), static_cast<size_t>(Mutant::kCount) - 1);
  int i = 1;
  for (const MutantInfo& info : impl::AllMutants()) {
    EXPECT_EQ(static_cast<int>(info.mutant), i++) << info.name;
    for (char c : info.name) {
      EXPECT_TRUE(islower(static_cast<unsigned char>(c)) ||
                  isdigit(static_cast<unsigned char>(c)) || c == '-')
          << info.name;
    }
    EXPECT_EQ(impl::MutantByName(info.name), info.mutant);
    EXPECT_FALSE(info.where.empty()) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_FALSE(info.caught_by.empty()) << info.name;
    EXPECT_EQ(info.upstream.empty(), info.regression.empty()) << info.name;
  }
  EXPECT_EQ(impl::MutantByName("no-such-mutant"), std::nullopt);
}

TEST(MutantsTable, SetActiveMutantSelectsExactlyOne) {
  WithMutant with(Mutant::kBackoffOffByOne);
  EXPECT_TRUE(impl::MutantActive(Mutant::kBackoffOffByOne));
  EXPECT_FALSE(impl::MutantActive(Mutant::kGatesIgnored));
  EXPECT_FALSE(impl::MutantActive(Mutant::kNone));
}

// The nets find nothing on impl as it is: the self-test can fail both ways.
TEST(Baseline, NoMutantPassesEverything) {
  WithMutant with(Mutant::kNone);
  MutantCatcher& catcher = Catcher();
  ASSERT_GT(catcher.golden_count(), 300);
  CatchResult r = catcher.Catch(/*stop_at_first=*/false);
  ASSERT_GT(catcher.generated_count(), 0);
  EXPECT_FALSE(r.caught) << r.failures.size() << " failing, first: " << r.by;
  EXPECT_EQ(r.traces_run, catcher.golden_count() + catcher.generated_count());
}

class MutantCaught : public testing::TestWithParam<MutantInfo> {};

}  // namespace
}  // namespace schedtrace::mutants

namespace schedtrace::impl {
// gtest prints a parameter with this instead of its bytes.
void PrintTo(const MutantInfo& info, std::ostream* os) { *os << info.name; }
}  // namespace schedtrace::impl

namespace schedtrace::mutants {
namespace {

TEST_P(MutantCaught, ByGoldenOrGenerated) {
  const MutantInfo& info = GetParam();
  MutantCatcher& catcher = Catcher();
  WithMutant with(info.mutant);
  CatchResult r = catcher.Catch();
  Results()[std::string(info.name)] = r.caught ? r.net : "";
  EXPECT_TRUE(r.caught) << info.name << " (" << info.where
                        << ") escaped every net: " << info.description;
  if (r.caught) {
    std::printf("[mutant] %s caught by %s after %d traces: %s\n",
                std::string(info.name).c_str(), r.net.c_str(), r.traces_run,
                r.by.substr(0, r.by.find('\n')).c_str());
  }
}

TEST_P(MutantCaught, ByItsRegressionTrace) {
  const MutantInfo& info = GetParam();
  if (info.regression.empty()) GTEST_SKIP() << "no upstream bug";
  WithMutant with(info.mutant);
  CatchResult r = Catcher().CatchWithRegression(std::string(info.regression));
  ASSERT_GT(r.traces_run, 0)
      << "no golden/regression trace named " << info.regression << "*";
  EXPECT_TRUE(r.caught) << info.name << ": its regression traces "
                        << info.regression << "* pass with the old behaviour";
}

// The liveness mutants are caught by property 11 alone, with no reference to
// compare with: generated wake-up traces of v1.37.2 (contention, and steps
// aimed at what rejected a pod), their expectations dropped, replayed on impl
// with the properties checked. A few dozen traces of 200 steps (well under a
// second) find each; with no mutant, none fails.
std::string FirstPropertyFailure(int traces) {
  for (int seed = 1; seed <= traces; ++seed) {
    GenOptions gen{.seed = static_cast<uint64_t>(seed),
                   .steps = 200,
                   .pods = 20,
                   .nodes = 2};
    gen.variety.wake_ups = 0.1;
    gen.upstream = "v1.37.2";
    std::unique_ptr<System> model = model::NewSystem();
    absl::StatusOr<Trace> trace = GenerateTrace(Layer::kScheduler, *model, gen);
    if (!trace.ok()) return "generating: " + trace.status().ToString();
    for (Step& step : trace->steps) step.expect = nullptr;
    std::unique_ptr<System> sut = impl::NewSystem();
    ReplayOptions options;
    options.check = properties::AsStepCheck(trace->header, nullptr);
    TraceResult r = Replay(*sut, *trace, options);
    if (r.verdict != Verdict::kPassed) {
      return absl::StrCat("seed ", seed, ": ", r.message);
    }
  }
  return "";
}

TEST(LivenessMutants, CaughtByPropertyElevenAlone) {
  {
    WithMutant none(Mutant::kNone);
    EXPECT_EQ(FirstPropertyFailure(40), "");
  }
  for (Mutant m :
       {Mutant::kHintSkipsTaintRemoval, Mutant::kFitDropsNodeRegistration}) {
    WithMutant with(m);
    const std::string caught = FirstPropertyFailure(40);
    EXPECT_NE(caught.find("property 11 (no lost wake-up)"), std::string::npos)
        << impl::Info(m).name << ": "
        << (caught.empty() ? "not caught" : caught);
    std::printf("[liveness] %s: %s\n", std::string(impl::Info(m).name).c_str(),
                caught.substr(0, 160).c_str());
  }
}

std::string TestName(const testing::TestParamInfo<MutantInfo>& info) {
  std::string name(info.param.name);
  for (char& c : name) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(All, MutantCaught,
                         testing::ValuesIn(impl::AllMutants()), TestName);

}  // namespace
}  // namespace schedtrace::mutants
