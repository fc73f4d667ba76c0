// Runs the real `schedtrace` binary: `explain` on model, impl and an exec:
// child, with --pod, --from/--to and --all, on passing and failing traces,
// its usage errors and bad input; and the explanation `minimize --out` and
// `diff --minimize` write beside each minimized trace.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string Golden(const std::string& rel) {
  const char* env = std::getenv("SCHEDTRACE_SOURCE_DIR");
  return std::string(env != nullptr ? env : SCHEDTRACE_SOURCE_DIR) +
         "/golden/" + rel;
}

constexpr char kPermit[] =
    "upstream-v1.26.7/scheduler/permit-wait-allow-and-reject.jsonl";

std::string ReadAll(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

int CountLines(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// `--sut=exec:schedtrace serve ARGS`, quoted for the shell.
std::string Serve(const std::string& args) {
  return "\"--sut=" + ExecServe(args) + "\"";
}

class ExplainCliTest : public ScratchDirTest {
 protected:
  // The permit trace with step 9's expectation edited: upstream is made to
  // put the rejected default/b in backoffQ, where every system of ours puts
  // it in unschedulablePods.
  std::string PlantedDivergence() {
    std::ifstream in(Golden(kPermit));
    std::string text;
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
      if (++line_no == 10) {
        json step = json::parse(line);
        json& queue = step["expect"]["state"]["queue"];
        EXPECT_EQ(queue["unschedulable"][0]["pod"], "default/b");
        queue["unschedulable"] = json::array();
        queue["backoff"].push_back({{"pod", "default/b"},
                                    {"attempts", 1},
                                    {"backoffExpiresAt", 1900}});
        line = step.dump();
      }
      text += line + "\n";
    }
    return Write("planted.jsonl", text);
  }

  // A child that is impl with a bug of its own: it reports attempts 2 as 3
  // (out and state alike), as a scheduler we did not write might. Returns
  // the system's name, exec:sh SCRIPT.
  std::string OffByOneChild() {
    return Child("off-by-one", "s/\"attempts\":2/\"attempts\":3/g");
  }
  // impl behind `serve`, its replies edited by the sed program `edit`.
  std::string Child(const std::string& name, const std::string& edit) {
    const std::string sed = Path(name + ".sed"), script = Path(name + ".sh");
    std::ofstream(sed) << edit << "\n";
    std::ofstream(script) << SCHEDTRACE_BIN << " serve --sut=impl | sed -u -f "
                          << sed << "\n";
    return "exec:sh " + script;
  }
};

TEST_F(ExplainCliTest, APassingTraceShowsHowUpstreamTreatsIt) {
  CliResult r = RunSchedtrace("explain " + Golden(kPermit));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, StartsWith("PASS on model: "));
  EXPECT_THAT(r.output, HasSubstr("(13 steps)"));
  EXPECT_THAT(r.output, HasSubstr("pods followed (every pod the trace "
                                  "mentions): default/a, default/b, "
                                  "default/c\n"));
  EXPECT_THAT(r.output, HasSubstr("  default/a  waiting on Permit (n1)"));
  EXPECT_THAT(r.output, HasSubstr("  default/a  parked before bind (n1)"));
  EXPECT_THAT(r.output,
              HasSubstr("  default/a  assumed on n1 (binding finished); "
                        "out: bound to n1, event Scheduled"));
  EXPECT_THAT(r.output, Not(HasSubstr("≠ actual")));
  EXPECT_THAT(r.output, Not(HasSubstr("not shown")));  // 13 steps: all
}

// Upstream's own violation shows at its step: the stale tombstone's lost
// wake-up (property 11), on the version that commits it and on no other.
TEST_F(ExplainCliTest, AKnownUpstreamViolationShowsAtItsStep) {
  const std::string trace = Golden(
      "regression/upstream/scheduler/stale-tombstone-wakes-no-one.jsonl");
  CliResult r = RunSchedtrace("explain " + trace);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("step 6  t=600  pod_delete default/a(uid=uid-default-a "
                        "priority=0 requests=cpu:2) tombstone\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  known upstream violation "
                        "stale-tombstone-wakes-no-one: property 11 (no lost "
                        "wake-up): default/b (rejected by NodeResourcesFit) "
                        "fits node n1 after this step"));
  // --no-properties checks none, so it names none.
  CliResult none = RunSchedtrace("explain --no-properties " + trace);
  EXPECT_THAT(none.output, Not(HasSubstr("known upstream violation")));
}

TEST_F(ExplainCliTest, AFailingTraceOnModelImplAndAChildReadsTheSame) {
  const std::string trace = PlantedDivergence();
  CliResult model = RunSchedtrace("explain --sut=model " + trace);
  ASSERT_EQ(model.status, 0) << model.output;  // explained, not replayed
  EXPECT_THAT(model.output,
              StartsWith("FAIL on model at step 9 (line 10, permit_reject): " +
                         trace + "\n"));
  EXPECT_THAT(model.output, HasSubstr("first divergence:\n"));
  EXPECT_THAT(model.output, HasSubstr("pods followed (named by the first "
                                      "divergence): default/b\n"));
  EXPECT_THAT(model.output, HasSubstr(">>> step 9  t=900  permit_reject "
                                      "default/b"));
  EXPECT_THAT(model.output,
              HasSubstr("  default/b  expected: backoffQ until 1900"));
  EXPECT_THAT(model.output, HasSubstr("≠ actual:   unschedulable (attempts 1, "
                                      "nominated \"\")"));
  // The step that put it where it was: b waiting on Permit since step 6.
  EXPECT_THAT(model.output,
              HasSubstr("step 6  t=600  schedule_one permit=wait\n"
                        "  default/b  waiting on Permit (n1)"));

  CliResult impl = RunSchedtrace("explain --sut=impl " + trace);
  ASSERT_EQ(impl.status, 0) << impl.output;
  CliResult child =
      RunSchedtrace("explain " + Serve("--sut=impl") + " " + trace);
  ASSERT_EQ(child.status, 0) << child.output;
  // Beyond the system's name, all three explain alike.
  std::string same = impl.output;
  same.replace(same.find("on impl"), 7, "on model");
  EXPECT_EQ(same, model.output);
  std::string from_child = child.output;
  const std::string child_name =
      "on exec:" + std::string(SCHEDTRACE_BIN) + " serve --sut=impl";
  ASSERT_NE(from_child.find(child_name), std::string::npos) << from_child;
  from_child.replace(from_child.find(child_name), child_name.size(),
                     "on model");
  EXPECT_EQ(from_child, model.output);
}

TEST_F(ExplainCliTest, PodsAndRanges) {
  const std::string trace = PlantedDivergence();
  CliResult r = RunSchedtrace("explain --sut=impl --pod=default/c " + trace);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("pods followed (given): default/c\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("  default/b  ")));
  EXPECT_THAT(r.output, HasSubstr("  default/c  backoffQ until 1700"));

  CliResult range = RunSchedtrace(
      "explain --sut=impl --pod default/a --pod=default/b --from=6 --to=8 " +
      trace);
  ASSERT_EQ(range.status, 0) << range.output;
  EXPECT_THAT(range.output, HasSubstr("default/a, default/b\n"));
  EXPECT_THAT(range.output, HasSubstr("step 6  t=600"));
  EXPECT_THAT(range.output, HasSubstr("step 8  t=800"));
  EXPECT_THAT(range.output, Not(HasSubstr("step 5  t=")));
  EXPECT_THAT(range.output, Not(HasSubstr("step 9  t=")));
  // The first step shown says where each pod is, though it did not move.
  EXPECT_THAT(range.output, HasSubstr("  default/a  waiting on Permit (n1)  "
                                      "[since step 5]\n"));

  // A long trace: by default up to the failure and a few steps after it.
  const std::string long_trace = Golden(
      "regression/upstream/queue/issue86373-backoff-expiry-saturates.jsonl");
  CliResult cut = RunSchedtrace("explain " + long_trace);
  CliResult all = RunSchedtrace("explain --all " + long_trace);
  ASSERT_EQ(cut.status, 0) << cut.output;
  ASSERT_EQ(all.status, 0) << all.output;
  EXPECT_THAT(cut.output, HasSubstr("not shown (")) << cut.output;
  EXPECT_THAT(cut.output, HasSubstr("shows them, --all every step\n"));
  EXPECT_THAT(all.output, Not(HasSubstr("not shown")));
  EXPECT_GT(CountLines(all.output), 200);
  EXPECT_LT(CountLines(cut.output) * 3, CountLines(all.output));
}

// An accounting bug in a child: impl behind `serve`, its replies edited so
// that node n1 keeps default/a's requests after default/a expires (step 7,
// the c_cleanup past its deadline). explain follows the node the
// divergence names: its requested resources, pods and each assumed pod's
// binding and deadline at every step, the step where they part marked.
TEST_F(ExplainCliTest, AnAccountingBugIsFollowedOnItsNode) {
  const std::string trace =
      Golden("upstream-v1.26.7/cache/expire-after-finish-binding.jsonl");
  const std::string leaky = Child(
      "leaky",
      R"(s/"requested":{"cpu":200,"memory":2097152}/"requested":{"cpu":300,"memory":3145728}/g)");
  CliResult r = RunSchedtrace("explain \"--sut=" + leaky + "\" " + trace);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, StartsWith("FAIL on exec:sh "));
  EXPECT_THAT(r.output, HasSubstr(" at step 7 (line 8, c_cleanup): "));
  // The node by name, in the first line as in the list of differences.
  EXPECT_THAT(r.output, HasSubstr("t=30401: state.cache.nodes[n1].requested"));
  EXPECT_THAT(r.output, HasSubstr("changed state.cache.nodes[n1].requested"));
  EXPECT_THAT(r.output, Not(HasSubstr("nodes[0]")));
  EXPECT_THAT(r.output, HasSubstr("nodes followed (named by the first "
                                  "divergence): n1\n"));
  // Its story: added, a then b assumed, a's binding finished with its
  // deadline (t=400 + ttl 30000), then expired one step late on the child.
  EXPECT_THAT(r.output, HasSubstr("step 1  t=100  c_add_node node n1"));
  EXPECT_THAT(r.output, HasSubstr("  node n1    present; requested nothing; "
                                  "no pods\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  node n1    present; requested cpu:100 "
                        "memory:1048576; pods default/a (assumed, binding "
                        "not finished)\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  node n1    present; requested cpu:300 "
                        "memory:3145728; pods default/a (assumed, binding "
                        "finished, deadline t=30400), default/b (assumed, "
                        "binding not finished)\n"));
  EXPECT_THAT(r.output, HasSubstr(">>> step 7  t=30401  c_cleanup   <<< first "
                                  "divergence\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  node n1    expected: present; requested cpu:200 "
                        "memory:2097152; pods default/b (assumed, binding not "
                        "finished)\n"
                        "           ≠ actual:   present; requested cpu:300 "
                        "memory:3145728; pods default/b (assumed, binding not "
                        "finished)\n"));
  // The node differs: no "no followed pod's place differs" note.
  EXPECT_THAT(r.output, Not(HasSubstr("no followed pod's place differs")));

  // --node asks for it on a passing run too; without it a passing trace
  // follows no node.
  CliResult given = RunSchedtrace("explain --node=n1 " + trace);
  ASSERT_EQ(given.status, 0) << given.output;
  EXPECT_THAT(given.output, StartsWith("PASS on model: "));
  EXPECT_THAT(given.output, HasSubstr("nodes followed (given): n1\n"));
  EXPECT_THAT(given.output,
              HasSubstr("  node n1    present; requested cpu:200 "
                        "memory:2097152; pods default/b (assumed, binding not "
                        "finished)\n"));
  CliResult none = RunSchedtrace("explain " + trace);
  EXPECT_THAT(none.output, Not(HasSubstr("nodes followed")));
  EXPECT_THAT(none.output, Not(HasSubstr("node n1 ")));
}

// A NodeInfo without its node is a placeholder, said as such: never added
// (only its pods point at it) or removed while pods remained; a removal
// answered with an error is said to be one, and removes nothing.
TEST_F(ExplainCliTest, PlaceholdersAndRefusedRemovalsAreSaidAsSuch) {
  CliResult r =
      RunSchedtrace("explain --all --node=n1 --node=n4 " +
                    Golden("handwritten/cache/placeholder-node-info.jsonl"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("nodes followed (given): n1, n4\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("node deleted")));
  EXPECT_THAT(r.output, HasSubstr("  default/a  assumed on n1 (placeholder "
                                  "node)\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  node n1    placeholder; requested cpu:100; "
                        "pods default/a (assumed, binding not "
                        "finished); never added: only its pods "
                        "point at it\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  node n1    placeholder; requested cpu:100; "
                        "pods default/a (assumed, binding not "
                        "finished); its removal at step 5 returned "
                        "an error\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  node n1    placeholder; requested cpu:100; "
                        "pods default/a (assumed, binding not "
                        "finished); removed at step 7 while pods "
                        "remained\n"));
  EXPECT_THAT(r.output, HasSubstr("  node n1    removed at step 7\n"));

  CliResult twice =
      RunSchedtrace("explain --all --node=n1 --node=n2 " +
                    Golden("handwritten/cache/remove-node-twice.jsonl"));
  ASSERT_EQ(twice.status, 0) << twice.output;
  EXPECT_THAT(twice.output, HasSubstr("  node n1    removed at step 4; its "
                                      "removal at step 5 returned an "
                                      "error\n"));
  EXPECT_THAT(twice.output, HasSubstr("  node n2    placeholder; requested "
                                      "cpu:200; pods default/p; removed at "
                                      "step 6 while pods remained\n"));

  // A pod removal upstream refused (an error reply) deleted nothing.
  CliResult pod = RunSchedtrace(
      "explain --all " + Golden("handwritten/cache/empty-uid-errors.jsonl"));
  ASSERT_EQ(pod.status, 0) << pod.output;
  EXPECT_THAT(pod.output, Not(HasSubstr("deleted at step 7")));
  EXPECT_THAT(pod.output,
              HasSubstr("step 7  t=700  c_remove_pod default/nouid(nodeName=n1 "
                        "requests=cpu:100m)\n  default/nouid  not in the "
                        "state; out: error\n"));
  // One removed, then its second removal refused: the entry left stays.
  CliResult again = RunSchedtrace(
      "explain --all " + Golden("regression/upstream/cache/"
                                "update-old-on-other-node-counts-twice.jsonl"));
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_THAT(again.output,
              HasSubstr("  default/p  bound on n0 (deleted at step 4; its "
                        "removal at step 5 was refused (error)); out: "
                        "error\n"));
}

TEST_F(ExplainCliTest, BadCommandLinesAreOneLineUsageErrors) {
  const std::string trace = Golden(kPermit);
  const std::pair<std::string, std::string> cases[] = {
      {"explain", "explain takes one TRACE"},
      {"explain " + trace + " " + trace, "explain takes one TRACE, not 2"},
      {"explain --from=0 " + trace,
       "--from takes a step number from 1, not '0'"},
      {"explain --to=soon " + trace, "--to takes a step number from 1"},
      {"explain --from=5 --to=2 " + trace, "--from=5 is after --to=2"},
      {"explain --from=99 " + trace, "--from=99: "},
      {"explain --pod=nokey " + trace, "--pod takes a pod key namespace/name"},
      {"explain --pod=/p " + trace, "--pod takes a pod key"},
      {"explain --all --to=3 " + trace, "--all shows every step"},
      {"explain --sut=nope " + trace, "nope"},
      {"explain --frm=3 " + trace, "--from"},
      {"explain --all=yes " + trace, "--all"},
      {"explain --node=a/b " + trace, "--node takes a node name, not 'a/b'"},
      {"explain --node=n1 " +
           Golden("upstream-v1.26.7/queue/high-priority-backoff.jsonl"),
       "is a queue-layer trace, which has no cache nodes"},
  };
  for (const auto& [args, message] : cases) {
    CliResult r = RunSchedtrace(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.output;
    EXPECT_THAT(r.output, StartsWith("schedtrace: ")) << args;
    EXPECT_THAT(r.output, HasSubstr(message)) << args;
    // The message, then a hint where to look: two lines.
    EXPECT_EQ(CountLines(r.output), 2) << args << "\n" << r.output;
  }
}

TEST_F(ExplainCliTest, BadInputNamesTheFile) {
  const std::string missing = Path("missing.jsonl");
  CliResult r = RunSchedtrace("explain " + missing);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_THAT(r.output, StartsWith("schedtrace explain: "));
  EXPECT_THAT(r.output, HasSubstr(missing));
  EXPECT_EQ(CountLines(r.output), 1) << r.output;

  const std::string broken = WriteTrace(
      "broken.jsonl",
      {R"({"schedtrace":1,"layer":"queue"})", R"({"t":1,"op":"q_fly"})"});
  r = RunSchedtrace("explain " + broken);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr(broken + ":2: field \"op\""));
}

TEST_F(ExplainCliTest, AChildThatRefusesTheHeaderOrFailsMidTrace) {
  const std::string refuse = Path("refuse.sh");
  std::ofstream(refuse) << "echo '{\"ok\":false,\"error\":\"not today\"}'\n"
                           "cat >/dev/null\n";
  CliResult r = RunSchedtrace("explain \"--sut=exec:sh " + refuse + "\" " +
                              Golden(kPermit));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, StartsWith("schedtrace explain: exec:sh "));
  EXPECT_THAT(r.output, HasSubstr("not today"));

  CliResult crash = RunSchedtrace(
      "explain " + Serve("--sut=impl --fault=crash --fault-step=6") + " " +
      Golden(kPermit));
  ASSERT_EQ(crash.status, 0) << crash.output;
  EXPECT_THAT(crash.output, StartsWith("ERROR on exec:"));
  EXPECT_THAT(crash.output, HasSubstr("at step 6 (line 7, schedule_one)"));
  EXPECT_THAT(crash.output, HasSubstr("system error: step 6 (line 7, "
                                      "schedule_one): "));
  EXPECT_THAT(crash.output, HasSubstr("<<< the system failed"));
  // What upstream did at that step: b went to wait on Permit.
  EXPECT_THAT(crash.output,
              HasSubstr("  default/b  expected: waiting on Permit (n1); out: "
                        "cycle: scheduled on n1\n"));
  EXPECT_THAT(crash.output, HasSubstr("(the trace ended after step 5 of 13: "
                                      "the system failed)"));
}

TEST_F(ExplainCliTest, APropertyViolationIsExplainedUnlessTurnedOff) {
  // Expectations removed: nothing to diverge from. The child shows
  // default/c in activeQ as well as in backoffQ after step 9, which breaks
  // property 1 (no pod in two queues).
  std::ifstream in(Golden(kPermit));
  std::string bare;
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    j.erase("expect");
    bare += j.dump() + "\n";
  }
  const std::string trace = Write("bare.jsonl", bare);
  const std::string child = Child(
      "twice",
      R"(s/"active":\[\],"backoff":\[{"attempts":1,"backoffExpiresAt":1700,"pod":"default\/c"}\]/"active":[{"attempts":1,"pod":"default\/c"}],"backoff":[{"attempts":1,"backoffExpiresAt":1700,"pod":"default\/c"}]/)");
  CliResult r = RunSchedtrace("explain \"--sut=" + child + "\" " + trace);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, StartsWith("FAIL on exec:sh "));
  EXPECT_THAT(r.output, HasSubstr("property violated at step 9: property "));
  EXPECT_THAT(r.output, HasSubstr("pods followed (named by the property "
                                  "violation): default/c\n"));
  EXPECT_THAT(r.output,
              HasSubstr("  default/c  activeQ #1 + backoffQ until 1700"));
  EXPECT_THAT(r.output, HasSubstr("no expected state"));
  CliResult off =
      RunSchedtrace("explain --no-properties \"--sut=" + child + "\" " + trace);
  ASSERT_EQ(off.status, 0) << off.output;
  EXPECT_THAT(off.output, StartsWith("PASS on exec:sh "));
}

TEST_F(ExplainCliTest, MinimizeWritesTheExplanationBesideTheTrace) {
  const std::string in = Path("hp.jsonl");
  std::filesystem::copy_file(
      Golden("upstream-v1.26.7/queue/high-priority-backoff.jsonl"), in);
  const std::string out = Path("hp.min.jsonl");
  const std::string sut = "\"--sut=" + OffByOneChild() + "\"";
  CliResult r = RunSchedtrace("minimize " + sut + " --out=" + out + " " + in);
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string explanation = Path("hp.min.explain.txt");
  EXPECT_THAT(r.output, HasSubstr("explained in " + explanation + "\n"));
  const std::string text = ReadAll(explanation);
  // It names the divergent step of the small trace, the pod, both sides.
  EXPECT_THAT(text, StartsWith("FAIL on exec:sh "));
  // Its lines are the small trace's: step 6 on line 7.
  EXPECT_THAT(text, HasSubstr(" at step 6 (line 7, q_pop): " + out + "\n"));
  EXPECT_THAT(text, HasSubstr("pods followed (named by the first divergence): "
                              "default/high\n"));
  EXPECT_THAT(text, HasSubstr(">>> step 6  t=1800  q_pop"));
  EXPECT_THAT(text, HasSubstr("expected: in flight (attempts 2, popped at "
                              "step 6)"));
  EXPECT_THAT(text, HasSubstr("≠ actual:   in flight (attempts 3, popped at "
                              "step 6)"));
  // The whole journey, as explain --all prints it.
  EXPECT_THAT(text, Not(HasSubstr("not shown")));
  CliResult again = RunSchedtrace("explain --all " + sut + " " + out);
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_EQ(again.output, text);
  // On stdout, no file beside anything.
  CliResult stdout_only = RunSchedtrace("minimize " + sut + " " + in);
  ASSERT_EQ(stdout_only.status, 0) << stdout_only.output;
  EXPECT_THAT(stdout_only.output, Not(HasSubstr("explained in")));
}

TEST_F(ExplainCliTest, DiffMinimizeWritesTheExplanationBesideTheSmallTrace) {
  const std::string trace = Path("hp.jsonl");
  std::filesystem::copy_file(
      Golden("upstream-v1.26.7/queue/high-priority-backoff.jsonl"), trace);
  CliResult r = RunSchedtrace("diff --a=model \"--b=" + OffByOneChild() +
                              "\" --minimize " + trace);
  ASSERT_EQ(r.status, 1) << r.output;
  const std::string small = Path("hp.min.jsonl");
  const std::string explanation = Path("hp.min.explain.txt");
  EXPECT_THAT(r.output, HasSubstr("minimized: " + small));
  EXPECT_THAT(r.output, HasSubstr(", explained in " + explanation + "\n"));
  const std::string text = ReadAll(explanation);
  EXPECT_THAT(text, StartsWith("FAIL on exec:sh "));
  EXPECT_THAT(text, HasSubstr(" at step 6 (line 7, q_pop): " + small + "\n"));
  EXPECT_THAT(text, HasSubstr("default/high"));
  EXPECT_THAT(text, HasSubstr("≠ actual:   in flight (attempts 3"));
}

}  // namespace
}  // namespace schedtrace::cli
