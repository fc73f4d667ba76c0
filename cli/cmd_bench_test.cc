// Runs `schedtrace bench` on small traces, in-process systems and exec:
// children: the output lines' shape and the exit statuses (never the speed).
#include <filesystem>
#include <string>

#include "cli/cli_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace::cli {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

const char kHeader[] =
    R"({"schedtrace":1,"name":"b","layer":"scheduler","config":{"profiles":["default-scheduler"],"percentageOfNodesToScore":100}})";
const char kNode[] =
    R"({"t":1,"op":"node_add","node":{"metadata":{"name":"n1","labels":{"schedtrace.io/score":"5"}},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}}})";
const char kPod[] =
    R"({"t":2,"op":"pod_add","pod":{"metadata":{"name":"p","namespace":"ns","uid":"u-p","resourceVersion":"1"},"spec":{"schedulerName":"default-scheduler","containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}})";
const char kCycle[] = R"({"t":3,"op":"schedule_one"})";
const char kBind[] = R"({"t":4,"op":"bind","pod":"ns/p"})";

class BenchCliTest : public ScratchDirTest {};

TEST_F(BenchCliTest, PrintsThroughputMemoryAndTimeLines) {
  std::string t =
      Write("b.jsonl", std::string(kHeader) + "\n" + kNode + "\n" + kPod +
                           "\n" + kCycle + "\n" + kBind + "\n");
  CliResult r = RunSchedtrace("bench --sut=model " + t);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("bench: model on " + t +
                        ": 4 steps (1 schedule_one), layer scheduler\n"));
  EXPECT_THAT(r.output, ContainsRegex("\n[0-9]+ events/s \\(CPU time in Apply; "
                                      "[0-9]+ by the wall clock\\)\n"));
  EXPECT_THAT(r.output, ContainsRegex("\n[0-9]+ scheduling cycles/s\n"));
  EXPECT_THAT(r.output, ContainsRegex("\npeak memory [0-9]+\\.[0-9] MB "
                                      "\\(getrusage ru_maxrss"));
  EXPECT_THAT(r.output,
              ContainsRegex("\napply time [0-9.]+ s CPU, [0-9.]+ s wall; "
                            "wall time [0-9.]+ s"));
}

TEST_F(BenchCliTest, StepsLimitsToAPrefix) {
  std::string t =
      Write("b.jsonl", std::string(kHeader) + "\n" + kNode + "\n" + kPod +
                           "\n" + kCycle + "\n" + kBind + "\n");
  CliResult r = RunSchedtrace("bench --sut=model --steps=2 " + t);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr(": 2 steps (0 schedule_one), a prefix "
                                  "(--steps), layer scheduler\n"));
}

TEST_F(BenchCliTest, BadInputExitsTwoNamingFileLineField) {
  std::string t =
      Write("bad.jsonl", std::string(kHeader) + "\n" + kNode + "\n" +
                             R"({"t":0,"op":"schedule_one"})" + "\n");
  CliResult r = RunSchedtrace("bench --sut=model " + t);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr(t + ":3: field \"t\""));
  EXPECT_THAT(r.output, Not(HasSubstr("events/s")));
}

TEST_F(BenchCliTest, AnExecSystemIsMeasuredByTheWallClockAndTheChildsCpu) {
  std::string t =
      Write("b.jsonl", std::string(kHeader) + "\n" + kNode + "\n" + kPod +
                           "\n" + kCycle + "\n" + kBind + "\n");
  CliResult r = RunSchedtrace(std::string("bench \"--sut=exec:") +
                              SCHEDTRACE_BIN + " serve --sut=impl\" " + t);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr(": 4 steps (1 schedule_one), layer "
                                  "scheduler\n"));
  // No rate by this process's CPU time: the child computes, not it.
  EXPECT_THAT(r.output, Not(HasSubstr("CPU time in Apply;")));
  EXPECT_THAT(r.output, ContainsRegex("\n[0-9]+ events/s \\(wall clock of the "
                                      "exchanges with the child\\)\n"));
  EXPECT_THAT(r.output,
              ContainsRegex("\n[0-9]+ scheduling cycles/s \\(wall clock\\)\n"));
  EXPECT_THAT(r.output, ContainsRegex("\nchild CPU time [0-9]+\\.[0-9]{3} s "
                                      "\\(user\\+system over its whole life"));
  EXPECT_THAT(r.output, ContainsRegex("\npeak memory: child [0-9]+\\.[0-9] MB, "
                                      "schedtrace [0-9]+\\.[0-9] MB"));
  // The child really ran: it has a resident set of its own.
  EXPECT_THAT(r.output, Not(HasSubstr("peak memory: child 0.0 MB")));
  EXPECT_THAT(r.output, ContainsRegex("\nexchange time [0-9.]+ s wall; wall "
                                      "time [0-9.]+ s"));
}

TEST_F(BenchCliTest, ABrokenExecChildFailsTheRun) {
  std::string t =
      Write("b.jsonl", std::string(kHeader) + "\n" + kNode + "\n" + kPod +
                           "\n" + kCycle + "\n" + kBind + "\n");
  CliResult r =
      RunSchedtrace(std::string("bench \"--sut=exec:") + SCHEDTRACE_BIN +
                    " serve --fault=crash --fault-step=2\" " + t);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr(t + ":3: pod_add: exec:"));
  EXPECT_THAT(r.output, Not(HasSubstr("events/s")));
}

TEST_F(BenchCliTest, CommandLineErrorsExitTwo) {
  std::string t = Write("b.jsonl", std::string(kHeader) + "\n");
  EXPECT_EQ(RunSchedtrace("bench " + t).status, 2);               // no --sut
  EXPECT_EQ(RunSchedtrace("bench --sut=model").status, 2);        // no PATH
  EXPECT_EQ(RunSchedtrace("bench --sut=nosuch " + t).status, 2);  // bad sut
  EXPECT_EQ(RunSchedtrace("bench --sut=model --steps=-3 " + t).status,
            2);  // bad K
  EXPECT_EQ(RunSchedtrace("bench --sut=model /no/such.jsonl").status, 2);
}

}  // namespace
}  // namespace schedtrace::cli
