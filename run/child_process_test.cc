#include "run/child_process.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "core/codec.h"
#include "core/upstream_versions.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "run/differential.h"
#include "run/replay.h"

namespace schedtrace {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Children are small shell scripts. A well-behaved one answers the header
// with `hello` and every step with `reply`.
std::string Child(const std::string& hello, const std::string& reply) {
  return "read h; echo '" + hello + "'; while read l; do echo '" + reply +
         "'; done";
}
const char kOk[] = R"({"ok":true})";
const char kEmptyReply[] = R"({"out":{},"state":{}})";

TraceHeader CacheHeader() {
  TraceHeader h;
  h.name = "t";
  h.layer = Layer::kCache;
  return h;
}

Step Cleanup(int line) {
  Step s;
  s.line = line;
  s.t = line;
  s.op = Op::kCCleanup;
  return s;
}

// Whether process `pid` is gone (or a zombie its new parent will reap).
bool Gone(pid_t pid) {
  for (int i = 0; i < 500; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!stat || !std::getline(stat, text)) return true;
    size_t close = text.rfind(')');
    if (close != std::string::npos && close + 2 < text.size() &&
        text[close + 2] == 'Z') {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class ChildProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("schedtrace_child_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string File(const std::string& name) { return (dir_ / name).string(); }
  pid_t ReadPid(const std::string& path) {
    pid_t pid = -1;
    std::ifstream(path) >> pid;
    return pid;
  }
  std::filesystem::path dir_;
};

TEST_F(ChildProcessTest, SpeaksTheProtocol) {
  // The child records what it was sent, to check the lines themselves.
  const std::string log = File("log");
  ChildProcess child(
      "read h; echo \"$h\" >> " + log + "; echo '" + kOk +
      "'; while read l; do echo \"$l\" >> " + log + "; echo '" +
      R"({"out":{"error":true},"state":{"cache":{"nodes":[],"assumed":["d/a"],"bindingFinished":[]}}})" +
      "'; done");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  absl::StatusOr<StepOut> out = child.Apply(Cleanup(2));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE(out->error);
  ASSERT_TRUE(child.Snapshot().cache.has_value());
  EXPECT_EQ(child.Snapshot().cache->assumed, std::vector<std::string>{"d/a"});
  child.Stop();
  std::ifstream f(log);
  std::string header, step;
  std::getline(f, header);
  std::getline(f, step);
  EXPECT_EQ(header, EncodeHeader(CacheHeader()));
  EXPECT_EQ(step, EncodeStep(Cleanup(2), /*with_expect=*/false));
}

TEST_F(ChildProcessTest, StepsAreSentWithoutExpect) {
  const std::string log = File("log");
  ChildProcess child("read h; echo '" + std::string(kOk) +
                     "'; read l; echo \"$l\" > " + log + "; echo '" +
                     kEmptyReply + "'; cat > /dev/null");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  Step step = Cleanup(2);
  absl::StatusOr<Trace> with = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"cache","config":{}}
{"t":2,"op":"c_cleanup","expect":{"out":{}}})",
      "x.jsonl");
  ASSERT_TRUE(with.ok()) << with.status();
  ASSERT_TRUE(child.Apply(with->steps[0]).ok());
  child.Stop();
  std::string sent;
  std::getline(std::ifstream(log), sent);
  EXPECT_THAT(sent, HasSubstr("c_cleanup"));
  EXPECT_THAT(sent, Not(HasSubstr("expect")));
}

TEST_F(ChildProcessTest, CrashMidTraceFailsWithStderrAndSignal) {
  ChildProcess child("read h; echo '" + std::string(kOk) + "'; read l; echo '" +
                     kEmptyReply +
                     "'; read l; echo 'about to crash' >&2; kill -SEGV $$");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  ASSERT_TRUE(child.Apply(Cleanup(2)).ok());
  absl::StatusOr<StepOut> out = child.Apply(Cleanup(3));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(out.status().message(), HasSubstr("line 3 (c_cleanup)"));
  EXPECT_THAT(out.status().message(), HasSubstr("killed by signal 11"));
  EXPECT_THAT(out.status().message(), HasSubstr("| about to crash"));
  // The child is gone: a further step fails at once, without a child.
  EXPECT_EQ(child.Apply(Cleanup(4)).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_F(ChildProcessTest, ExitingEarlyFailsWithItsStatus) {
  ChildProcess child("read h; echo '" + std::string(kOk) +
                     "'; echo 'bye' >&2; exit 3");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  absl::Status s = child.Apply(Cleanup(2)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_THAT(s.message(), HasSubstr("exited with status 3"));
  EXPECT_THAT(s.message(), HasSubstr("| bye"));
}

TEST_F(ChildProcessTest, HangTimesOutAndTheWholeGroupIsKilled) {
  const std::string pidfile = File("pid");
  ChildProcess child("read h; echo '" + std::string(kOk) +
                         "'; sleep 1000 & echo $! > " + pidfile + "; wait",
                     {.timeout_ms = 1000});
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  absl::Status s = child.Apply(Cleanup(2)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_THAT(s.message(), HasSubstr("within 1000 ms"));
  pid_t sleeper = ReadPid(pidfile);
  ASSERT_GT(sleeper, 0);
  EXPECT_TRUE(Gone(sleeper));  // the grandchild too
}

TEST_F(ChildProcessTest, HangOnTheHeaderTimesOut) {
  ChildProcess child("sleep 1000", {.timeout_ms = 200});
  absl::Status s = child.Configure(CacheHeader());
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_THAT(s.message(), HasSubstr("the header"));
}

TEST_F(ChildProcessTest, GarbageIsAFailureThatQuotesIt) {
  ChildProcess child(Child(kOk, "this is not json"));
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  absl::Status s = child.Apply(Cleanup(2)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(s.message(), HasSubstr("\"this is not json\""));
}

TEST_F(ChildProcessTest, AReplyWithoutStateOrWithABadOutFails) {
  ChildProcess no_state(Child(kOk, R"({"out":{}})"));
  ASSERT_TRUE(no_state.Configure(CacheHeader()).ok());
  EXPECT_THAT(no_state.Apply(Cleanup(2)).status().message(),
              HasSubstr("has no \"state\""));
  ChildProcess bad_out(Child(kOk, R"({"out":{"popped":7},"state":{}})"));
  ASSERT_TRUE(bad_out.Configure(CacheHeader()).ok());
  EXPECT_THAT(bad_out.Apply(Cleanup(2)).status().message(),
              HasSubstr("out.popped"));
  // A fatal step records no state.
  ChildProcess fatal(Child(kOk, R"({"out":{"fatal":true}})"));
  ASSERT_TRUE(fatal.Configure(CacheHeader()).ok());
  absl::StatusOr<StepOut> out = fatal.Apply(Cleanup(2));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE(out->fatal);
}

TEST_F(ChildProcessTest, StateChangesApplyToTheStateHeld) {
  // Three replies: the whole state, then only what changed (a NodeInfo
  // updated, one added, the assumed list), then a NodeInfo removed.
  const std::string first =
      std::string(R"({"out":{},"state":{"cache":{"nodes":[)") +
      R"({"name":"n1","present":true,"pods":[]},)" +
      R"({"name":"n3","present":true,"pods":[]}],)" +
      R"("assumed":[],"bindingFinished":[]}}})";
  const std::string second =
      std::string(R"({"out":{},"stateChanged":{"cache":{"nodes":[)") +
      R"({"name":"n1","present":true,"pods":["d/a"]},)" +
      R"({"name":"n2","present":false,"pods":["d/b"]}],)" +
      R"("assumed":["d/a"]}}})";
  const std::string third =
      R"({"out":{},"stateChanged":{"cache":{"nodesRemoved":["n3"]}}})";
  ChildProcess child("read h; echo '" + std::string(kOk) + "'; read l; echo '" +
                     first + "'; read l; echo '" + second +
                     "'; read l; echo '" + third + "'; cat > /dev/null");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  ASSERT_TRUE(child.Apply(Cleanup(2)).ok());
  StateTouch touch;
  child.Touched(touch);
  EXPECT_TRUE(touch.all());  // a whole state

  ASSERT_TRUE(child.Apply(Cleanup(3)).ok());
  State s = child.Snapshot();
  ASSERT_TRUE(s.cache.has_value());
  ASSERT_EQ(s.cache->nodes.size(), 3u);
  EXPECT_EQ(s.cache->nodes[0].pods, std::vector<std::string>{"d/a"});
  EXPECT_EQ(s.cache->nodes[1].name, "n2");  // joined in name order
  EXPECT_FALSE(s.cache->nodes[1].present);
  EXPECT_EQ(s.cache->assumed, std::vector<std::string>{"d/a"});
  child.Touched(touch);
  EXPECT_TRUE(touch.Touches(StateTouch::kNodeSet));
  EXPECT_TRUE(touch.Touches(StateTouch::kAssumed));
  EXPECT_FALSE(touch.Touches(StateTouch::kBindingFinished));
  EXPECT_FALSE(child.StateAsSent().has_value());  // no whole state sent

  State before = s;
  ASSERT_TRUE(child.Apply(Cleanup(4)).ok());
  s = child.Snapshot();
  ASSERT_EQ(s.cache->nodes.size(), 2u);
  EXPECT_EQ(s.cache->nodes[1].name, "n2");
  EXPECT_EQ(s.cache->assumed, std::vector<std::string>{"d/a"});  // kept
  // The snapshot before it, refreshed in what changed, is the state now.
  child.Touched(touch);
  EXPECT_FALSE(touch.Touches(StateTouch::kAssumed));
  child.RefreshInto(before, touch);
  EXPECT_EQ(before, s);
}

TEST_F(ChildProcessTest, BadStateChangesFail) {
  ChildProcess both(Child(kOk, R"({"out":{},"state":{},"stateChanged":{}})"));
  ASSERT_TRUE(both.Configure(CacheHeader()).ok());
  EXPECT_THAT(both.Apply(Cleanup(2)).status().message(),
              HasSubstr("has both \"state\" and \"stateChanged\""));
  ChildProcess unknown(Child(
      kOk, R"({"out":{},"stateChanged":{"cache":{"nodesRemoved":["n9"]}}})"));
  ASSERT_TRUE(unknown.Configure(CacheHeader()).ok());
  EXPECT_THAT(unknown.Apply(Cleanup(2)).status().message(),
              HasSubstr("nodesRemoved names n9, which it never showed"));
  ChildProcess not_object(Child(kOk, R"({"out":{},"stateChanged":[]})"));
  ASSERT_TRUE(not_object.Configure(CacheHeader()).ok());
  EXPECT_THAT(not_object.Apply(Cleanup(2)).status().message(),
              HasSubstr("has a bad \"stateChanged\" (not an object)"));
}

TEST_F(ChildProcessTest, ExtraLinesAreAFailure) {
  ChildProcess child("read h; echo '" + std::string(kOk) +
                     "'; while read l; do printf '%s\\n%s\\n' '" + kEmptyReply +
                     "' '" + kEmptyReply + "'; done");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  ASSERT_TRUE(child.Apply(Cleanup(2)).ok());
  absl::Status s = child.Apply(Cleanup(3)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(s.message(), HasSubstr("more than one line"));
}

TEST_F(ChildProcessTest, AnOverlongLineIsCutOff) {
  ChildProcess child(
      "read h; head -c 100000 /dev/zero | tr '\\0' x; sleep 1000",
      {.timeout_ms = 5000, .max_line_bytes = 1000});
  absl::Status s = child.Configure(CacheHeader());
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(s.message(), HasSubstr("longer than 1000 bytes"));
}

TEST_F(ChildProcessTest, StderrSpamNeitherBlocksNorGrowsWithoutBound) {
  // 2 MiB of stderr, in lines, before every reply: far more than a pipe
  // holds, so a harness that did not drain stderr would deadlock.
  ChildProcess child("read h; echo '" + std::string(kOk) +
                         "'; while read l; do seq 1 300000 >&2; echo '" +
                         kEmptyReply + "'; done",
                     {.timeout_ms = 20000, .stderr_lines = 5});
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  ASSERT_TRUE(child.Apply(Cleanup(2)).ok());
  ASSERT_TRUE(child.Apply(Cleanup(3)).ok());
  EXPECT_EQ(child.StderrTail(), "299996\n299997\n299998\n299999\n300000");
}

TEST_F(ChildProcessTest, AStepErrorReplyFailsWithItsMessage) {
  ChildProcess child(Child(kOk, R"({"ok":false,"error":"no such pod"})"));
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  absl::Status s = child.Apply(Cleanup(2)).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal) << s;
  EXPECT_THAT(s.message(), HasSubstr("no such pod"));
}

TEST_F(ChildProcessTest, HeaderRefusals) {
  // Refused, no capabilities: a failure, with the child's reason.
  ChildProcess refuses(Child(R"({"ok":false,"error":"bad config"})", ""));
  absl::Status s = refuses.Configure(CacheHeader());
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(s.message(), HasSubstr("bad config"));
  // Refused, declaring other layers: a skip.
  ChildProcess other(
      Child(R"({"ok":false,"error":"queue only","layers":["queue"]})", ""));
  EXPECT_EQ(other.Configure(CacheHeader()).code(),
            absl::StatusCode::kUnimplemented);
  // Accepted but declaring other layers: a skip too.
  ChildProcess accepts(Child(R"({"ok":true,"layers":["queue"]})", ""));
  EXPECT_EQ(accepts.Configure(CacheHeader()).code(),
            absl::StatusCode::kUnimplemented);
  // Not a header reply at all.
  ChildProcess echo("cat");
  EXPECT_EQ(echo.Configure(CacheHeader()).code(), absl::StatusCode::kDataLoss);
  ChildProcess bad_caps(Child(R"({"ok":true,"ops":"all"})", ""));
  EXPECT_THAT(bad_caps.Configure(CacheHeader()).message(),
              HasSubstr("field \"ops\""));
}

TEST_F(ChildProcessTest, ADeclaredVersionSkipsTracesOfAnother) {
  // The child says it implements v1.30.12 (docs/FORMAT.md, "Capabilities").
  const std::string hello = R"({"ok":true,"upstream":"v1.30.12"})";
  ChildProcess child(Child(hello, kEmptyReply));
  TraceHeader v130 = CacheHeader();
  v130.upstream = "v1.30.12";
  ASSERT_TRUE(child.Configure(v130).ok());
  EXPECT_EQ(child.capabilities().upstream, "v1.30.12");
  EXPECT_TRUE(child.Apply(Cleanup(2)).ok());
  // A v1.26.7 trace, named or by default (no `upstream`): a skip, saying
  // both versions; the child is stopped.
  for (const char* trace_version : {"v1.26.7", ""}) {
    TraceHeader other = CacheHeader();
    other.upstream = trace_version;
    absl::Status s = child.Configure(other);
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
    EXPECT_THAT(s.message(),
                HasSubstr(": the child implements v1.30.12, the trace is "
                          "v1.26.7"));
    EXPECT_EQ(child.capabilities().upstream, "v1.30.12");
    EXPECT_EQ(child.Apply(Cleanup(2)).status().code(),
              absl::StatusCode::kFailedPrecondition);
  }
  // A child refusing the header of another version is skipped the same way.
  ChildProcess refuses(
      Child(R"({"ok":false,"error":"1.25 only","upstream":"v1.25.12"})", ""));
  EXPECT_EQ(refuses.Configure(v130).code(), absl::StatusCode::kUnimplemented);
  // A child that declares nothing is judged against every version.
  ChildProcess silent(Child(kOk, kEmptyReply));
  ASSERT_TRUE(silent.Configure(v130).ok());
  EXPECT_EQ(silent.capabilities().upstream, std::nullopt);
}

// A child of one of the newest versions is judged on that version's traces
// only: the versions either side of it, the default and the other new ones
// are skips naming both.
TEST_F(ChildProcessTest, ADeclaredNewVersionSkipsEveryOther) {
  ChildProcess child(Child(R"({"ok":true,"upstream":"v1.37.2"})", kEmptyReply));
  TraceHeader v137 = CacheHeader();
  v137.upstream = "v1.37.2";
  ASSERT_TRUE(child.Configure(v137).ok());
  EXPECT_EQ(child.capabilities().upstream, "v1.37.2");
  EXPECT_TRUE(child.Apply(Cleanup(2)).ok());
  for (const char* trace_version :
       {"v1.35.4", "v1.36.3", "v1.30.12", "v1.26.7", ""}) {
    TraceHeader other = CacheHeader();
    other.upstream = trace_version;
    absl::Status s = child.Configure(other);
    EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << trace_version;
    EXPECT_THAT(
        s.message(),
        HasSubstr(absl::StrCat(": the child implements v1.37.2, the trace is ",
                               std::string(EffectiveUpstream(trace_version)))));
  }
  ASSERT_TRUE(child.Configure(v137).ok());
  EXPECT_TRUE(child.Apply(Cleanup(2)).ok());
}

TEST_F(ChildProcessTest, AnUnknownDeclaredVersionIsAnError) {
  for (const char* bad : {R"("v1.29.0")", R"("")", "130", R"(["v1.30.12"])"}) {
    ChildProcess child(
        Child(std::string(R"({"ok":true,"upstream":)") + bad + "}", ""));
    absl::Status s = child.Configure(CacheHeader());
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << bad << ": " << s;
    EXPECT_THAT(s.message(), HasSubstr("field \"upstream\"")) << bad;
    EXPECT_THAT(
        s.message(),
        HasSubstr("v1.25.12, v1.26.7, v1.30.12, v1.35.4, v1.36.3 or v1.37.2"))
        << bad;
  }
}

TEST_F(ChildProcessTest, UndeclaredOpsAreNotSent) {
  const std::string log = File("log");
  ChildProcess child("read h; echo '" +
                     std::string(R"({"ok":true,"ops":["c_add_node"]})") +
                     "'; while read l; do echo x >> " + log + "; done");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  EXPECT_EQ(child.Apply(Cleanup(2)).status().code(),
            absl::StatusCode::kUnimplemented);
  child.Stop();
  EXPECT_FALSE(std::filesystem::exists(log));
}

TEST_F(ChildProcessTest, EveryConfigureStartsAFreshChild) {
  const std::string log = File("log");
  ChildProcess child("echo start >> " + log + "; " + Child(kOk, kEmptyReply));
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  ASSERT_TRUE(child.Apply(Cleanup(2)).ok());
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  ASSERT_TRUE(child.Apply(Cleanup(2)).ok());
  child.Stop();
  std::ifstream f(log);
  std::string a, b;
  EXPECT_TRUE(std::getline(f, a) && std::getline(f, b));
}

TEST_F(ChildProcessTest, TheDestructorReapsAChildThatIgnoresEof) {
  const std::string pidfile = File("pid");
  {
    ChildProcess child("trap '' TERM HUP; echo $$ > " + pidfile +
                       "; read h; echo '" + kOk + "'; exec sleep 1000");
    ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  }
  pid_t pid = ReadPid(pidfile);
  ASSERT_GT(pid, 0);
  // Reaped by the destructor: not even a zombie is left.
  EXPECT_NE(kill(pid, 0), 0);
}

TEST(CapabilitiesTest, AbsentMeansEverything) {
  absl::StatusOr<Capabilities> all = ParseCapabilities(R"({"ok":true})");
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->SupportsLayer(Layer::kScheduler));
  EXPECT_TRUE(all->SupportsOp(Op::kBind));
  EXPECT_TRUE(all->ReportsState("waiting"));
  EXPECT_TRUE(all->ReportsAllState());
}

TEST(CapabilitiesTest, PartsAndKeys) {
  absl::StatusOr<Capabilities> c = ParseCapabilities(
      R"({"ok":true,"layers":["queue"],"ops":["q_add"],"state":["nominated","cache.nodes"]})");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->SupportsLayer(Layer::kQueue));
  EXPECT_FALSE(c->SupportsLayer(Layer::kCache));
  EXPECT_TRUE(c->SupportsOp(Op::kQAdd));
  EXPECT_FALSE(c->SupportsOp(Op::kQPop));
  EXPECT_TRUE(c->ReportsState("nominated"));
  EXPECT_TRUE(c->ReportsState("cache"));  // some of its keys
  EXPECT_TRUE(c->ReportsState("cache.nodes"));
  EXPECT_FALSE(c->ReportsState("cache.assumed"));
  EXPECT_FALSE(c->ReportsState("queue"));
  EXPECT_FALSE(c->ReportsState("queue.active"));
  EXPECT_FALSE(c->ReportsAllState());
}

TEST(CapabilitiesTest, Upstream) {
  absl::StatusOr<Capabilities> c =
      ParseCapabilities(R"({"ok":true,"upstream":"v1.25.12"})");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->upstream, "v1.25.12");
  c = ParseCapabilities(R"({"ok":true,"upstream":null})");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->upstream, std::nullopt);
  c = ParseCapabilities(R"({"ok":true,"upstream":"1.30"})");
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(c.status().message(),
              HasSubstr("header reply: field \"upstream\": expected one of "
                        "v1.25.12, v1.26.7, v1.30.12, v1.35.4, v1.36.3 or "
                        "v1.37.2, not \"1.30\""));
}

TEST_F(ChildProcessTest, ReplaySkipsComparisonsOfUnreportedState) {
  // The child reports only cache.nodes; the trace also expects assumed.
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"cache","config":{}}
{"t":1,"op":"c_cleanup","expect":{"out":{},"state":{"cache":{"nodes":[],"assumed":["d/x"]},"waiting":[]}}})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  ChildProcess child(Child(R"({"ok":true,"state":["cache.nodes"]})",
                           R"({"out":{},"state":{"cache":{"nodes":[]}}})"));
  ReplayOptions options;
  options.reports = [&child](std::string_view p) {
    return child.capabilities().ReportsState(p);
  };
  TraceResult r = Replay(child, *trace, options);
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.message;
  EXPECT_EQ(r.comparisons_skipped, 2);  // cache.assumed, waiting
  // Without the filter the same run is a divergence.
  EXPECT_EQ(Replay(child, *trace).verdict, Verdict::kFailed);
}

TEST_F(ChildProcessTest, ReplayReportsAnUndeclaredOpAsASkip) {
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"cache","config":{}}
{"t":1,"op":"c_cleanup","expect":{"out":{}}})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok());
  ChildProcess child(Child(R"({"ok":true,"ops":["c_add_node"]})", ""));
  TraceResult r = Replay(child, *trace);
  EXPECT_EQ(r.verdict, Verdict::kSkipped);
  EXPECT_THAT(r.message, HasSubstr("does not support op c_cleanup"));
}

// `expect.out` is compared with the out the child wrote, not with what it
// decodes to: a reply the StepOut cannot tell from `{}` still fails.
TEST_F(ChildProcessTest, ReplayComparesTheOutAsTheChildWroteIt) {
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"cache","config":{}}
{"t":1,"op":"c_cleanup","expect":{"out":{}}}
{"t":2,"op":"c_cleanup","expect":{"out":{"error":true}}})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  // The first step's reply is the second argument, the second step's the
  // third: a child that answers two steps with two fixed lines.
  auto two_replies = [](const std::string& first, const std::string& second) {
    return "read h; echo '" + std::string(kOk) + "'; read l; echo '" + first +
           "'; read l; echo '" + second + "'; cat > /dev/null";
  };
  struct Case {
    std::string first_out;
    std::string path, expected, actual;
  };
  for (const Case& c : {
           Case{R"({"error":false})", "out.error", "(absent)", "false"},
           Case{R"({"extra":1})", "out.extra", "(absent)", "1"},
           // Keys are visited in sorted order: bindings before fatal.
           Case{R"({"fatal":false,"bindings":[]})", "out.bindings", "(absent)",
                "[]"},
       }) {
    SCOPED_TRACE(c.first_out);
    ChildProcess child(
        two_replies(R"({"out":)" + c.first_out + R"(,"state":{}})",
                    R"({"out":{"error":true},"state":{}})"));
    TraceResult r = Replay(child, *trace);
    EXPECT_EQ(r.verdict, Verdict::kFailed) << r.message;
    ASSERT_TRUE(r.divergence.has_value());
    EXPECT_EQ(r.divergence->step, 1);
    EXPECT_EQ(r.divergence->op, "c_cleanup");
    EXPECT_EQ(r.divergence->path, c.path);
    EXPECT_EQ(r.divergence->expected, c.expected);
    EXPECT_EQ(r.divergence->actual, c.actual);
  }
  // The canonical replies pass, whatever the key order of what was written.
  ChildProcess canonical(two_replies(R"({"out":{},"state":{}})",
                                     R"({"state":{},"out":{"error":true}})"));
  TraceResult r = Replay(canonical, *trace);
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.message;
  EXPECT_FALSE(r.divergence.has_value());
}

TEST_F(ChildProcessTest, KeyOrderInsideOutDoesNotMatter) {
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"queue","config":{}}
{"t":1,"op":"q_pop","expect":{"out":{"popped":"d/a","attempts":1}}})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  ChildProcess child(
      Child(kOk, R"({"out":{"attempts":1,"popped":"d/a"},"state":{}})"));
  TraceResult r = Replay(child, *trace);
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.message;
}

// Without `expect.out` a step's out is not compared at all, canonical or not.
TEST_F(ChildProcessTest, AStepWithoutExpectedOutComparesNoOut) {
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"cache","config":{}}
{"t":1,"op":"c_cleanup"}
{"t":2,"op":"c_cleanup","expect":{"state":{"cache":{"assumed":[]}}}})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  ChildProcess child(Child(
      kOk,
      R"({"out":{"error":false,"extra":1},"state":{"cache":{"assumed":[]}}})"));
  TraceResult r = Replay(child, *trace);
  EXPECT_EQ(r.verdict, Verdict::kPassed) << r.message;
}

// An expectation that is not canonical itself cannot be met by echoing it.
TEST_F(ChildProcessTest, ANonCanonicalExpectationFailsEvenWhenEchoed) {
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"cache","config":{}}
{"t":1,"op":"c_cleanup","expect":{"out":{"error":false}}})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  ChildProcess child(Child(kOk, R"({"out":{"error":false},"state":{}})"));
  TraceResult r = Replay(child, *trace);
  EXPECT_EQ(r.verdict, Verdict::kFailed) << r.message;
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->path, "out.error");
  EXPECT_THAT(r.divergence->expected, HasSubstr("not canonical"));
  EXPECT_EQ(r.divergence->actual, "false");
}

TEST_F(ChildProcessTest, OutAsSentIsTheLastRepliesOut) {
  ChildProcess child(Child(kOk, R"({"out":{"error":false},"state":{}})"));
  EXPECT_FALSE(child.OutAsSent().has_value());
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  EXPECT_FALSE(child.OutAsSent().has_value());
  absl::StatusOr<StepOut> out = child.Apply(Cleanup(2));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, StepOut{});  // what it decodes to
  ASSERT_TRUE(child.OutAsSent().has_value());
  EXPECT_EQ(*child.OutAsSent(), R"({"error":false})");
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  EXPECT_FALSE(child.OutAsSent().has_value());
}

// `diff` holds a child to the same rule: b's out as it wrote it must be the
// canonical encoding, so {"error": false} where a wrote {} is a divergence.
TEST_F(ChildProcessTest, DifferentialComparesTheOutAsTheChildWroteIt) {
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"cache","config":{}}
{"t":1,"op":"c_cleanup"})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  auto replying = [](const std::string& out) {
    return "read h; echo '" + std::string(kOk) +
           "'; read l; echo '{\"out\":" + out +
           ",\"state\":{}}'; cat > /dev/null";
  };
  ChildProcess a(replying("{}"));
  ChildProcess b(replying(R"({"error":false})"));
  DiffResult r = RunDifferential(a, b, *trace, {});
  EXPECT_EQ(r.verdict, Verdict::kFailed) << r.message;
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->path, "out.error");
  EXPECT_EQ(r.divergence->actual, "false");

  ChildProcess a2(replying("{}")), b2(replying("{}"));
  EXPECT_EQ(RunDifferential(a2, b2, *trace, {}).verdict, Verdict::kPassed);
}

TEST_F(ChildProcessTest, StateAsSentIsTheLastRepliesState) {
  ChildProcess child(
      "read h; echo '" + std::string(kOk) +
      "'; read l; echo "
      "'{\"out\":{},\"state\":{\"cache\":{\"assumed\":[\"d/a\"]}"
      ",\"waiting\":null}}'; read l; echo '{\"out\":{\"fatal\":true}}'; cat");
  EXPECT_FALSE(child.StateAsSent().has_value());
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  EXPECT_FALSE(child.StateAsSent().has_value());
  ASSERT_TRUE(child.Apply(Cleanup(2)).ok());
  ASSERT_TRUE(child.StateAsSent().has_value());
  // As written (compact), with what decoding forgets: the part sent as null,
  // the keys left out.
  EXPECT_EQ(*child.StateAsSent(),
            R"({"cache":{"assumed":["d/a"]},"waiting":null})");
  EXPECT_EQ(child.Snapshot().cache->nodes.size(), 0u);
  EXPECT_FALSE(child.Snapshot().waiting.has_value());
  // A fatal reply without a state: none.
  absl::StatusOr<StepOut> fatal = child.Apply(Cleanup(3));
  ASSERT_TRUE(fatal.ok()) << fatal.status();
  EXPECT_TRUE(fatal->fatal);
  EXPECT_FALSE(child.StateAsSent().has_value());
  ASSERT_TRUE(child.Configure(CacheHeader()).ok());
  EXPECT_FALSE(child.StateAsSent().has_value());
}

// A child that leaves `gated` out of an unschedulable entry: the comparison
// reads it as false, and where true was expected the divergence shows what
// the child sent, (absent), not the default the harness filled in.
TEST_F(ChildProcessTest, AnOmittedKeyShowsAbsentNotItsDefault) {
  absl::StatusOr<Trace> trace = ParseTrace(
      R"({"schedtrace":1,"name":"t","layer":"queue","description":"gates"}
{"t":5,"op":"flush_backoff","expect":{"out":{},"state":{"queue":{"unschedulable":[{"pod":"d/u","attempts":1,"plugins":[],"gated":true}]}}}})",
      "t.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  const std::string omitting =
      R"({"out":{},"state":{"queue":{"active":[],"backoff":[],"unschedulable":[{"pod":"d/u","attempts":1,"plugins":[]}],"schedulingCycle":0,"moveRequestCycle":-1},"nominated":{}}})";
  ChildProcess child(Child(kOk, omitting));
  TraceResult r = Replay(child, *trace);
  EXPECT_EQ(r.verdict, Verdict::kFailed) << r.message;
  ASSERT_TRUE(r.divergence.has_value());
  EXPECT_EQ(r.divergence->path, "state.queue.unschedulable[d/u].gated");
  EXPECT_EQ(r.divergence->expected, "true");
  EXPECT_EQ(r.divergence->actual, "(absent)");
  EXPECT_EQ(r.divergence->differences,
            (std::vector<Difference>{{"state.queue.unschedulable[d/u].gated",
                                      "changed", "true", "(absent)"}}));
  EXPECT_EQ(r.divergence->t, 5);
  EXPECT_EQ(r.divergence->description, "gates");
  const std::string text = r.divergence->Format("t.jsonl");
  EXPECT_THAT(text, HasSubstr("\n    actual:   (absent)\n"));
  EXPECT_THAT(text, Not(HasSubstr("false")));

  // The differential shows b's state as b sent it, too.
  const std::string sending = omitting.substr(0, omitting.find("[]}]")) +
                              R"([],"gated":true}])" +
                              omitting.substr(omitting.find("[]}]") + 4);
  ChildProcess a(Child(kOk, sending)), b(Child(kOk, omitting));
  DiffResult diff = RunDifferential(a, b, *trace, {});
  EXPECT_EQ(diff.verdict, Verdict::kFailed) << diff.message;
  ASSERT_TRUE(diff.divergence.has_value());
  EXPECT_EQ(diff.divergence->actual, "(absent)");
  EXPECT_EQ(diff.divergence->expected, "true");
}

}  // namespace
}  // namespace schedtrace
