// Verdicts are a function of what a system shows: golden traces
// (GoldenSample(): every op, out, argument and known violation of the
// corpus) and a few generated ones, with and without their expectations, give
// the same verdicts on model, impl and `exec:schedtrace serve` with the
// whole state, with every part declared explicitly, with declared subsets
// and with spec-exact fatal replies (`{"out": {"fatal": true}}`, no state).
// A violation planted in a shown part (a sed-wrapped child) is caught
// whatever else the child hides, and the run says which properties it could
// not check, once, and so do the reports.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "properties/known_violations.h"
#include "testkit/golden_test_util.h"

namespace schedtrace::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kAllParts[] = "queue,nominated,cache,waiting,parked";

// Copies every .jsonl under `from` to `to` (same relative paths) with each
// step's `expect` removed: only the properties judge them.
void CopyStripped(const fs::path& from, const fs::path& to) {
  for (const auto& e : fs::recursive_directory_iterator(from)) {
    if (!e.is_regular_file() || e.path().extension() != ".jsonl") continue;
    const fs::path out = to / fs::relative(e.path(), from);
    fs::create_directories(out.parent_path());
    std::ifstream in(e.path());
    std::ofstream o(out);
    std::string line;
    while (std::getline(in, line)) {
      nlohmann::json j =
          nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (j.is_object() && j.contains("expect")) {
        j.erase("expect");
        line = j.dump();
      }
      o << line << "\n";
    }
  }
}

class ShownVerdictsTest : public ::testing::Test {
 protected:
  // The traces are shared by the tests: made once.
  static void SetUpTestSuite() {
    dir_ = new fs::path(MakeScratchDir("shown"));
    fs::create_directories(*dir_ / "gen");
    const std::string golden = CopyGoldenSample((*dir_ / "golden").string());
    for (const char* layer : {"queue", "cache", "scheduler"}) {
      for (int seed = 1; seed <= 3; ++seed) {
        const std::string out =
            (*dir_ / "gen" /
             (std::string(layer) + "-" + std::to_string(seed) + ".jsonl"))
                .string();
        CliResult r = RunSchedtrace(std::string("gen --layer=") + layer +
                                    " --steps=80 --perturb=all:0.1 --seed=" +
                                    std::to_string(seed) + " --out=" + out);
        ASSERT_EQ(r.status, 0) << r.output;
      }
    }
    CopyStripped(golden, *dir_ / "stripped-golden");
    CopyStripped(*dir_ / "gen", *dir_ / "stripped-gen");
    // A child that plants a violation in one part of every step's state.
    Script("plant8.sh",  // property 8: moveRequestCycle after schedulingCycle
           R"(s/"moveRequestCycle":-*[0-9]*/"moveRequestCycle":999999999/)");
    Script("plant9.sh",  // property 9: a nomination of a pod never added
           R"(s/"nominated":{}/"nominated":{"n-ghost":["default\/ghost"]}/)");
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
  }
  static void Script(const std::string& name, const std::string& sed) {
    std::ofstream(*dir_ / name) << "#!/bin/sh\n"
                                << SCHEDTRACE_BIN << " serve --sut=impl \"$@\""
                                << " | sed -u -e '" << sed << "'\n";
  }

  static std::string Traces() {
    return (*dir_ / "golden").string() + " " + (*dir_ / "gen").string() + " " +
           (*dir_ / "stripped-golden").string() + " " +
           (*dir_ / "stripped-gen").string();
  }
  static std::string StrippedTraces() {
    return (*dir_ / "stripped-golden").string() + " " +
           (*dir_ / "stripped-gen").string();
  }

  struct Run {
    CliResult cli;
    nlohmann::json system;  // the JSON report's only system
    // path -> "VERDICT step N: message" (the message names the property)
    std::map<std::string, std::string> verdicts;
  };
  // `replay --sut=SUT PATHS` with a JSON report.
  static Run Replay(const std::string& sut, const std::string& paths) {
    static int n = 0;
    const std::string report =
        (*dir_ / ("r" + std::to_string(++n) + ".json")).string();
    Run run;
    run.cli = RunSchedtrace("replay -q \"--sut=" + sut +
                            "\" --report=" + report + " " + paths);
    nlohmann::json j = nlohmann::json::parse(std::ifstream(report), nullptr,
                                             /*allow_exceptions=*/false);
    if (!j.is_object()) return run;
    run.system = j["systems"][0];
    for (const auto& t : run.system["traces"]) {
      std::string v = t["verdict"].get<std::string>();
      if (t.contains("at") && t["at"].is_object()) {
        v += " step " + t["at"]["step"].dump();
      }
      if (t.contains("message")) v += ": " + t["message"].get<std::string>();
      run.verdicts[t["path"].get<std::string>()] = v;
    }
    return run;
  }
  static std::string Serve(const std::string& args) {
    return "exec:" + std::string(SCHEDTRACE_BIN) + " serve --sut=impl " + args;
  }
  static std::string Planted(int property, const std::string& args) {
    return "exec:sh " +
           (*dir_ / ("plant" + std::to_string(property) + ".sh")).string() +
           " " + args;
  }
  // The traces of `run` whose verdict names property `p`.
  static int Firing(const Run& run, int p) {
    int n = 0;
    for (const auto& [path, v] : run.verdicts) {
      n += v.find("property " + std::to_string(p) + " (") != std::string::npos;
    }
    return n;
  }

  // The known violations a run counted, less those of properties some trace
  // did not check (and those of any property, when one was not checked).
  // `judged`'s report says which properties it did not check.
  static std::map<std::string, int> KnownOfChecked(
      const nlohmann::json& system, const nlohmann::json& judged) {
    std::set<int> unchecked;
    for (const auto& u : judged["propertiesNotChecked"]) {
      unchecked.insert(u["property"].get<int>());
    }
    std::map<std::string, int> known;
    for (const properties::KnownViolation& k : properties::KnownViolations()) {
      const std::string id(k.id);
      // Property 0: one that matches violations of any property.
      const bool of_unchecked =
          k.property == 0 ? !unchecked.empty() : unchecked.contains(k.property);
      if (of_unchecked || !system["knownViolations"].contains(id)) {
        continue;
      }
      known[id] = system["knownViolations"][id].get<int>();
    }
    return known;
  }

  // The traces whose verdicts differ, one line each (empty: none).
  static std::string Differences(const Run& a, const Run& b) {
    std::string out;
    for (const auto& [path, v] : a.verdicts) {
      auto it = b.verdicts.find(path);
      const std::string w = it == b.verdicts.end() ? "(absent)" : it->second;
      if (v != w) out += path + ": " + v + " | " + w + "\n";
    }
    if (a.verdicts.size() != b.verdicts.size()) out += "(counts differ)\n";
    return out;
  }

  static fs::path* dir_;
};

fs::path* ShownVerdictsTest::dir_ = nullptr;

TEST_F(ShownVerdictsTest, SameShownDataSameVerdicts) {
  const Run model = Replay("model", Traces());
  ASSERT_GT(model.verdicts.size(), 60u) << model.cli.output;
  for (const std::string& sut :
       {std::string("impl"), Serve(""), Serve("--fatal-reply=exact"),
        Serve(std::string("--state=") + kAllParts),
        Serve(std::string("--state=") + kAllParts + " --fatal-reply=exact"),
        Serve("--state=queue --fatal-reply=exact"),
        Serve("--state=cache,waiting,parked"),
        Serve("--state=queue.active,queue.backoff,queue.unschedulable,"
              "cache.assumed,waiting,parked --fatal-reply=exact"),
        Serve("--state=nominated,queue.schedulingCycle,"
              "queue.moveRequestCycle")}) {
    const Run run = Replay(sut, Traces());
    EXPECT_EQ(Differences(run, model), "") << sut;
    // The known upstream violations of the properties it checked, too.
    EXPECT_EQ(KnownOfChecked(run.system, run.system),
              KnownOfChecked(model.system, run.system))
        << sut;
  }
}

TEST_F(ShownVerdictsTest, AllPartsDeclaredIsTheWholeStateChecked) {
  // Every part listed explicitly, or none declared: the same system.
  const Run whole = Replay(Planted(8, ""), StrippedTraces());
  const Run listed =
      Replay(Planted(8, std::string("--state=") + kAllParts), StrippedTraces());
  EXPECT_GT(Firing(whole, 8), 20) << whole.cli.output;
  EXPECT_EQ(Differences(listed, whole), "");
  EXPECT_THAT(listed.cli.output, Not(HasSubstr("properties not checked")));
  EXPECT_EQ(listed.system["propertiesNotChecked"], nlohmann::json::array());
}

TEST_F(ShownVerdictsTest, AViolationInAShownPartIsCaughtWhateverIsHidden) {
  // Property 8 reads only the two cycles.
  const Run whole8 =
      Replay(Planted(8, "--fatal-reply=exact"), StrippedTraces());
  ASSERT_GT(Firing(whole8, 8), 20) << whole8.cli.output;
  for (const char* state :
       {"queue", "queue.schedulingCycle,queue.moveRequestCycle",
        "queue,waiting"}) {
    const Run part =
        Replay(Planted(8, std::string("--fatal-reply=exact --state=") + state),
               StrippedTraces());
    EXPECT_EQ(Differences(part, whole8), "") << state;
  }
  // Hidden: nothing fires, and the run says why.
  const Run hidden8 =
      Replay(Planted(8, "--state=cache,nominated,waiting,parked,queue.active"),
             StrippedTraces());
  EXPECT_EQ(Firing(hidden8, 8), 0);
  EXPECT_EQ(hidden8.cli.status, 0) << hidden8.cli.output;
  EXPECT_THAT(hidden8.cli.output, HasSubstr("8 (needs queue.moveRequestCycle, "
                                            "queue.schedulingCycle)"));

  // Property 9 reads the nominations, the queues and the assumed pods.
  const Run whole9 = Replay(Planted(9, ""), StrippedTraces());
  ASSERT_GT(Firing(whole9, 9), 10) << whole9.cli.output;
  const Run part9 = Replay(Planted(9, "--state=nominated,queue,cache.assumed"),
                           StrippedTraces());
  EXPECT_EQ(Differences(part9, whole9), "");
  const Run hidden9 =
      Replay(Planted(9, "--state=nominated,cache"), StrippedTraces());
  EXPECT_EQ(Firing(hidden9, 9), 0);
  EXPECT_THAT(hidden9.cli.output,
              HasSubstr("9 (needs queue.active, queue.backoff, "
                        "queue.unschedulable)"));
}

TEST_F(ShownVerdictsTest, TheRunAndTheReportsSayWhatWasNotChecked) {
  const std::string sut = Serve("--state=cache,nominated");
  const std::string traces =
      std::string(SCHEDTRACE_SOURCE_DIR) + "/golden/handwritten/scheduler " +
      std::string(SCHEDTRACE_SOURCE_DIR) + "/golden/handwritten/queue";
  const fs::path base = *dir_ / "reports";
  fs::create_directories(base);
  CliResult r = RunSchedtrace(
      "replay -q \"--sut=" + sut + "\" --report=" + (base / "r.json").string() +
      " --report=" + (base / "r.xml").string() +
      " --report=" + (base / "r.md").string() +
      " --report=" + (base / "r.html").string() + " " + traces);
  EXPECT_EQ(r.status, 0) << r.output;
  const std::string line = "properties not checked on exec:";
  const size_t at = r.output.find(line);
  ASSERT_NE(at, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(line, at + 1), std::string::npos) << "once per run";
  EXPECT_THAT(r.output, HasSubstr(": 1 (needs queue.active, queue.backoff, "
                                  "queue.unschedulable), 2 (needs "));
  EXPECT_THAT(r.output, HasSubstr("4 (needs waiting), 5 (needs parked, "
                                  "queue.active, queue.backoff, "
                                  "queue.unschedulable, waiting), 7 ("));
  EXPECT_THAT(r.output, Not(HasSubstr(" 6 (needs")));  // cache.nodes shown

  nlohmann::json j = nlohmann::json::parse(std::ifstream(base / "r.json"));
  const nlohmann::json& nc = j["systems"][0]["propertiesNotChecked"];
  ASSERT_TRUE(nc.is_array());
  std::map<int, std::vector<std::string>> by_id;
  for (const auto& u : nc) {
    by_id[u["property"].get<int>()] =
        u["needs"].get<std::vector<std::string>>();
  }
  EXPECT_EQ(by_id[4], std::vector<std::string>{"waiting"});
  EXPECT_EQ(by_id[8], (std::vector<std::string>{"queue.moveRequestCycle",
                                                "queue.schedulingCycle"}));
  EXPECT_FALSE(by_id.contains(6));
  // 11 needs the queues too (the NodeInfos and nominations it reads are
  // shown).
  EXPECT_EQ(by_id[11],
            (std::vector<std::string>{"queue.active", "queue.backoff",
                                      "queue.unschedulable"}));
  EXPECT_EQ(by_id.size(), 10u);

  auto read = [](const fs::path& p) {
    std::stringstream s;
    s << std::ifstream(p).rdbuf();
    return s.str();
  };
  EXPECT_THAT(read(base / "r.xml"),
              HasSubstr("<property name=\"propertiesNotChecked\" value=\"1 "
                        "(needs queue.active"));
  EXPECT_THAT(read(base / "r.md"),
              HasSubstr("Properties not checked on exec:"));
  EXPECT_THAT(read(base / "r.md"), HasSubstr("4 (needs waiting)"));
  EXPECT_THAT(read(base / "r.html"),
              HasSubstr("Properties not checked on exec:"));

  // The whole state: nothing to say.
  CliResult m = RunSchedtrace("replay -q --sut=model --report=" +
                              (base / "m.json").string() + " " + traces);
  EXPECT_THAT(m.output, Not(HasSubstr("properties not checked")));
  nlohmann::json mj = nlohmann::json::parse(std::ifstream(base / "m.json"));
  EXPECT_EQ(mj["systems"][0]["propertiesNotChecked"], nlohmann::json::array());
}

// explain and minimize judge a child that shows part of the state as replay
// does: a violation in a shown part is found (they used to check nothing on
// such a child).
TEST_F(ShownVerdictsTest, ExplainAndMinimizeCheckWhatAPartialChildShows) {
  const std::string trace = (*dir_ / "stripped-gen" / "queue-1.jsonl").string();
  const std::string sut = Planted(8, "--state=queue");
  CliResult explained = RunSchedtrace("explain \"--sut=" + sut + "\" " + trace);
  EXPECT_EQ(explained.status, 0) << explained.output;
  EXPECT_THAT(explained.output, HasSubstr("property violated at step 1"));
  EXPECT_THAT(explained.output, HasSubstr("property 8 ("));

  const std::string out = (*dir_ / "min8.jsonl").string();
  CliResult minimized = RunSchedtrace("minimize \"--sut=" + sut +
                                      "\" --out=" + out + " " + trace);
  EXPECT_EQ(minimized.status, 0) << minimized.output;
  EXPECT_THAT(minimized.output, HasSubstr("FAIL property 8"));
}

}  // namespace
}  // namespace schedtrace::cli
