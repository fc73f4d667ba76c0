#include "bench/bench_gen.h"

#include <map>
#include <set>
#include <sstream>

#include "core/codec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "model/system.h"

namespace schedtrace::bench {
namespace {

std::string Generate(const BenchGenOptions& o, BenchGenStats* stats) {
  std::unique_ptr<System> model = model::NewSystem();
  std::ostringstream out;
  absl::StatusOr<BenchGenStats> s = GenerateBenchTrace(*model, o, out);
  EXPECT_TRUE(s.ok()) << s.status();
  if (s.ok() && stats != nullptr) *stats = *s;
  return out.str();
}

// What an apiserver and informer guarantee, checked on a decoded trace.
void ExpectValidForAnApiserver(const Trace& trace) {
  int64_t last_t = -1;
  std::map<std::string, std::string> uid;      // pod key -> uid
  std::map<std::string, int64_t> rv;           // pod key -> last rv
  std::map<std::string, std::string> node_of;  // pod key -> nodeName once set
  std::set<std::string> deleted;
  auto carried = [&](const PodPtr& p, int line) {
    const std::string key = p->Key();
    EXPECT_FALSE(deleted.contains(key)) << "line " << line << " " << key;
    auto [it, fresh] = uid.emplace(key, p->uid);
    EXPECT_EQ(it->second, p->uid) << "line " << line;
    int64_t v = std::stoll(p->resource_version);
    if (!fresh) {
      EXPECT_GE(v, rv[key]) << "line " << line << " " << key;
    }
    rv[key] = v;
    if (node_of.contains(key)) {
      EXPECT_EQ(p->node_name, node_of[key]) << "line " << line << " " << key;
    } else if (!p->node_name.empty()) {
      node_of[key] = p->node_name;
    }
  };
  for (const Step& s : trace.steps) {
    EXPECT_GT(s.t, last_t) << "line " << s.line;
    last_t = s.t;
    if (s.op == Op::kPodAdd) carried(s.pod, s.line);
    if (s.op == Op::kPodUpdate) {
      carried(s.old_pod, s.line);
      carried(s.new_pod, s.line);
      EXPECT_GT(std::stoll(s.new_pod->resource_version),
                std::stoll(s.old_pod->resource_version));
    }
    if (s.op == Op::kPodDelete) {
      carried(s.pod, s.line);
      deleted.insert(s.pod->Key());
    }
  }
}

TEST(BenchGenTest, ChurnIsValidDeterministicAndHasEveryKindOfStep) {
  BenchGenOptions o{.seed = 3, .nodes = 30, .pods = 600};
  BenchGenStats stats;
  std::string text = Generate(o, &stats);
  EXPECT_EQ(Generate(o, nullptr), text);  // same seed, same bytes
  BenchGenOptions other = o;
  other.seed = 4;
  EXPECT_NE(Generate(other, nullptr), text);

  absl::StatusOr<Trace> trace = ParseTrace(text, "gen.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  EXPECT_EQ(trace->header.layer, Layer::kScheduler);
  EXPECT_EQ(static_cast<int64_t>(trace->steps.size()), stats.steps);
  ExpectValidForAnApiserver(*trace);
  for (const char* op : {"node_add", "node_update", "pod_add", "pod_update",
                         "pod_delete", "schedule_one", "bind", "permit_allow",
                         "flush_backoff", "flush_unschedulable"}) {
    EXPECT_GT(stats.ops[op], 0) << op;
  }
  EXPECT_EQ(stats.ops["node_add"], 30);
  EXPECT_EQ(stats.ops["pod_add"], 600);
  EXPECT_GT(stats.bound, 300);

  // Replayed on a fresh model, no step is refused or fatal.
  std::unique_ptr<System> model = model::NewSystem();
  ASSERT_TRUE(model->Configure(trace->header).ok());
  int binds = 0;
  for (const Step& s : trace->steps) {
    absl::StatusOr<StepOut> out = model->Apply(s);
    ASSERT_TRUE(out.ok()) << s.line << ": " << out.status();
    ASSERT_FALSE(out->fatal) << s.line;
    binds += static_cast<int>(out->bindings.size());
  }
  EXPECT_GT(binds, 300);
}

TEST(BenchGenTest, PendingModeHoldsEveryPodPendingAtOnce) {
  BenchGenOptions o{
      .seed = 1, .nodes = 20, .pods = 1000, .mode = BenchGenMode::kPending};
  BenchGenStats stats;
  std::string text = Generate(o, &stats);
  absl::StatusOr<Trace> trace = ParseTrace(text, "gen.jsonl");
  ASSERT_TRUE(trace.ok()) << trace.status();
  ExpectValidForAnApiserver(*trace);
  EXPECT_EQ(stats.ops["pod_add"], 1000);
  // Only the few pods deleted before the last arrival are missing.
  EXPECT_GE(stats.max_pending, 990);
  EXPECT_GT(stats.ops["schedule_one"], 0);
}

}  // namespace
}  // namespace schedtrace::bench
