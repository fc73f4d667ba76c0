// The harness self-test (docs/MUTANTS.md): with no mutant active the
// golden corpus and the generated traces all pass on impl and on the model's
// mutant copy; with each planted bug active, something catches it on the
// system it is planted in (golden replay with the properties, or a trace
// generated from the unmutated model); each mutant restoring a fixed
// upstream bug is caught by its own regression trace. Prints the mutation
// score.
//
//   build/mutants_test                       # all, with the score line
//   build/mutants_test --gtest_filter='*backoff*'
#include "mutants/catcher.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "impl/mutants.h"
#include "impl/system.h"
#include "model/queueing_hints.h"
#include "model/system.h"
#include "model/upstream.h"
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
    // A model mutant says so in its name and names its model/ file.
    const bool in_model = info.planted_in == impl::PlantedIn::kModel;
    EXPECT_EQ(info.name.starts_with("model-"), in_model) << info.name;
    EXPECT_EQ(info.where.find("(model/") != std::string_view::npos, in_model)
        << info.name;
  }
  EXPECT_EQ(impl::MutantByName("no-such-mutant"), std::nullopt);
}

// Whether NodeResourcesFit registers a Node event in the model's v1.37.2
// hint map: the model code this binary links answers.
bool FitRegistersNode() {
  absl::StatusOr<model::Upstream> up = model::UpstreamProfile("v1.37.2");
  EXPECT_TRUE(up.ok()) << up.status();
  if (!up.ok()) return false;
  for (const model::QueueingHintMapEntry& e :
       model::BuildQueueingHintMap(Config{}, *up)) {
    if (e.event.resource != "Node") continue;
    for (const model::QueueingHintFunction& f : e.fns) {
      if (f.plugin == "NodeResourcesFit") return true;
    }
  }
  return false;
}

// The binary runs the model's mutant copy, not schedtrace_model (which the
// properties link too): a model mutant switches the model's code.
TEST(MutantsTable, ModelMutantsReachTheLinkedModel) {
  {
    ScopedMutant none(Mutant::kNone);
    EXPECT_TRUE(FitRegistersNode());
  }
  ScopedMutant with(Mutant::kModelFitDropsNodeRegistration);
  EXPECT_FALSE(FitRegistersNode());
}

TEST(MutantsTable, SetActiveMutantSelectsExactlyOne) {
  ScopedMutant with(Mutant::kBackoffOffByOne);
  EXPECT_TRUE(impl::MutantActive(Mutant::kBackoffOffByOne));
  EXPECT_FALSE(impl::MutantActive(Mutant::kGatesIgnored));
  EXPECT_FALSE(impl::MutantActive(Mutant::kNone));
}

// The nets find nothing on impl as it is: the self-test can fail both ways.
TEST(Baseline, NoMutantPassesEverything) {
  ScopedMutant with(Mutant::kNone);
  MutantCatcher& catcher = Catcher();
  ASSERT_GT(catcher.golden_count(), 300);
  CatchResult r = catcher.Catch(/*stop_at_first=*/false);
  ASSERT_GT(catcher.generated_count(), 0);
  EXPECT_FALSE(r.caught) << r.failures.size() << " failing, first: " << r.by;
  EXPECT_EQ(r.traces_run, catcher.golden_count() + catcher.generated_count());
}

// Nor on the model's mutant copy with no mutant active: its patches change
// nothing but the planted branches.
TEST(Baseline, NoMutantPassesEverythingOnTheModel) {
  ScopedMutant with(Mutant::kNone);
  MutantCatcher& catcher = Catcher();
  CatchResult r = catcher.CatchOn(impl::PlantedIn::kModel,
                                  /*stop_at_first=*/false);
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
  ScopedMutant with(info.mutant);
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
  ScopedMutant with(info.mutant);
  CatchResult r = Catcher().CatchWithRegression(std::string(info.regression));
  ASSERT_GT(r.traces_run, 0)
      << "no golden/regression trace named " << info.regression << "*";
  EXPECT_TRUE(r.caught) << info.name << ": its regression traces "
                        << info.regression << "* pass with the old behaviour";
}

// The liveness mutants are caught by property 11 alone, with no reference to
// compare with: generated wake-up traces of v1.37.2 (contention, and steps
// aimed at what rejected a pod), recorded from the model with no mutant
// active, their expectations dropped, replayed with the properties checked
// on the system the mutant is planted in (impl or the model). A few dozen
// traces of 200 steps (well under a second) find each; with no mutant, none
// fails on either system.
const std::vector<Trace>& WakeUpTraces() {
  static const std::vector<Trace>* traces = [] {
    ScopedMutant none(Mutant::kNone);
    auto* out = new std::vector<Trace>;
    for (int seed = 1; seed <= 40; ++seed) {
      GenOptions gen{.seed = static_cast<uint64_t>(seed),
                     .steps = 200,
                     .pods = 20,
                     .nodes = 2};
      gen.variety.wake_ups = 0.1;
      gen.upstream = "v1.37.2";
      std::unique_ptr<System> model = model::NewSystem();
      absl::StatusOr<Trace> trace =
          GenerateTrace(Layer::kScheduler, *model, gen);
      EXPECT_TRUE(trace.ok()) << "seed " << seed << ": " << trace.status();
      if (!trace.ok()) break;
      for (Step& step : trace->steps) step.expect = nullptr;
      out->push_back(*std::move(trace));
    }
    return out;
  }();
  return *traces;
}

// The first wake-up trace whose replay on `system` fails ("seed N: ..."),
// or "".
std::string FirstPropertyFailure(impl::PlantedIn system) {
  const std::vector<Trace>& traces = WakeUpTraces();
  for (size_t i = 0; i < traces.size(); ++i) {
    std::unique_ptr<System> sut = NewSystemOf(system);
    ReplayOptions options;
    options.check = properties::AsStepCheck(traces[i].header, nullptr);
    TraceResult r = Replay(*sut, traces[i], options);
    if (r.verdict != Verdict::kPassed) {
      return absl::StrCat("seed ", i + 1, ": ", r.message);
    }
  }
  return "";
}

TEST(LivenessMutants, CaughtByPropertyElevenAlone) {
  ASSERT_EQ(WakeUpTraces().size(), 40u);
  {
    ScopedMutant none(Mutant::kNone);
    EXPECT_EQ(FirstPropertyFailure(impl::PlantedIn::kImpl), "");
    EXPECT_EQ(FirstPropertyFailure(impl::PlantedIn::kModel), "");
  }
  for (Mutant m :
       {Mutant::kHintSkipsTaintRemoval, Mutant::kFitDropsNodeRegistration,
        Mutant::kModelHintSkipsTaintRemoval,
        Mutant::kModelFitDropsNodeRegistration}) {
    ScopedMutant with(m);
    const auto start = std::chrono::steady_clock::now();
    const std::string caught = FirstPropertyFailure(impl::Info(m).planted_in);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    EXPECT_NE(caught.find("property 11 (no lost wake-up)"), std::string::npos)
        << impl::Info(m).name << ": "
        << (caught.empty() ? "not caught" : caught);
    std::printf(
        "[liveness] %s (%s) in %lld ms: %s\n",
        std::string(impl::Info(m).name).c_str(),
        std::string(impl::PlantedInName(impl::Info(m).planted_in)).c_str(),
        static_cast<long long>(ms), caught.substr(0, 160).c_str());
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
