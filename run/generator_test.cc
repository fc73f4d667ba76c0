#include "run/generator.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

TEST(ParsePerturbationsTest, EmptyIsAllOff) {
  absl::StatusOr<Perturbations> p = ParsePerturbations("");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, Perturbations{});
}

TEST(ParsePerturbationsTest, NamesAndAll) {
  absl::StatusOr<Perturbations> p =
      ParsePerturbations("resync:0.1,race:0.2,node_burst:1");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_DOUBLE_EQ(p->resync, 0.1);
  EXPECT_DOUBLE_EQ(p->race, 0.2);
  EXPECT_DOUBLE_EQ(p->node_burst, 1);
  EXPECT_DOUBLE_EQ(p->tombstone, 0);
  absl::StatusOr<Perturbations> all = ParsePerturbations("all:0.05,race:0");
  ASSERT_TRUE(all.ok());
  EXPECT_DOUBLE_EQ(all->recreate_update, 0.05);
  EXPECT_DOUBLE_EQ(all->node_recreate, 0.05);
  EXPECT_DOUBLE_EQ(all->race, 0);  // later items win
}

TEST(ParsePerturbationsTest, AllIsWhatTheCliCallsAll) {
  absl::StatusOr<Perturbations> all = ParsePerturbations("all:0.2");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(Perturbations::All(0.2), *all);
  EXPECT_NE(Perturbations::All(0.2), Perturbations{});
}

TEST(ParsePerturbationsTest, ErrorsNameTheItem) {
  for (const char* bad : {"race", "race:x", "race:-0.1", "race:1.01",
                          "flood:0.1", "race:0.1,", "race:0.1:2"}) {
    absl::StatusOr<Perturbations> p = ParsePerturbations(bad);
    EXPECT_FALSE(p.ok()) << bad;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_NE(ParsePerturbations("flood:0.1").status().message().find("flood"),
            std::string::npos);
}

TEST(QueueHeaderTest, UsesTheRecordingsConfig) {
  TraceHeader h = QueueHeader("x");
  EXPECT_EQ(h.layer, Layer::kQueue);
  EXPECT_EQ(h.config.nominator_pod_lister, "queue-ops");
  EXPECT_EQ(h.config.pre_enqueue_plugins.at("default-scheduler"),
            std::vector<std::string>{"SchedulingGates"});
  EXPECT_TRUE(h.config.Feature("PodSchedulingReadiness"));
}

// Accepts every step and shows an empty state: enough to drive the
// generators and read what they chose.
class AcceptAll : public System {
 public:
  absl::Status Configure(const TraceHeader&) override {
    return absl::OkStatus();
  }
  absl::StatusOr<StepOut> Apply(const Step&) override { return StepOut{}; }
  State Snapshot() const override { return State{}; }
};

Trace Generate(Layer layer, const GenOptions& options) {
  AcceptAll sut;
  absl::StatusOr<Trace> t = GenerateTrace(layer, sut, options);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : Trace{};
}

// The clock advances between consecutive steps (cache: leaving out the
// cleanups the generator times at an assumed pod's deadline), from the
// first step on (a trace's clock may start high: StartClock).
std::vector<int64_t> Advances(const Trace& t) {
  std::vector<int64_t> out;
  for (size_t k = 1; k < t.steps.size(); ++k) {
    const Step& s = t.steps[k];
    if (s.op != Op::kCCleanup) out.push_back(s.t - t.steps[k - 1].t);
  }
  return out;
}

absl::StatusOr<GenOptions> Flags(
    std::vector<std::pair<std::string, std::string>> flags) {
  return ApplyGenFlags(flags);
}

TEST(GenFlagsTest, EachDefaultIsGenOptionsDefault) {
  for (const GenFlag& f : GenFlags()) {
    if (f.boolean) continue;
    // --hostile too: --hostile-rate takes effect only with it.
    absl::StatusOr<GenOptions> o = Flags(
        {{"hostile", ""}, {std::string(f.name), std::string(f.default_value)}});
    ASSERT_TRUE(o.ok()) << f.name << ": " << o.status();
    EXPECT_EQ(*o, GenOptions{.hostile = true}) << f.name;
  }
}

TEST(GenFlagsTest, EachFlagSetsItsField) {
  const std::vector<std::pair<std::string, std::string>> set = {
      {"seed", "9"},
      {"steps", "11"},
      {"pods", "40"},
      {"nodes", "12"},
      {"queue-pool", "30"},
      {"perturb", "race:0.5"},
      {"hostile", ""},
      {"hostile-rate", "0.5"},
      {"step-ms", "7:9"},
      {"flush-jump", "0.2:400000"},
      {"backoff-jump", "0.3:1000:2000"},
      {"ttl-jump", "0:31000:32000"},
      {"boundary-landing", "0.5"},
      {"high-clock", "1"},
      {"clock-leap", "0.5"},
      {"failure-rate", "0.4"},
      {"two-profiles", "1"},
      {"bad-score", "0"},
      {"huge-backoff", "0.9"},
      {"wake-ups", "0.2"}};
  ASSERT_EQ(set.size(), GenFlags().size());  // a new flag is tested here too
  absl::StatusOr<GenOptions> o = Flags(set);
  ASSERT_TRUE(o.ok()) << o.status();
  GenOptions want;
  want.seed = 9;
  want.steps = 11;
  want.pods = 40;
  want.nodes = 12;
  want.queue_pool = 30;
  want.perturb.race = 0.5;
  want.hostile = true;
  want.variety = {.hostile_rate = 0.5,
                  .failure_rate = 0.4,
                  .two_profiles = 1,
                  .bad_score = 0,
                  .huge_backoff = 0.9,
                  .wake_ups = 0.2};
  want.clock.min_ms = 7;
  want.clock.max_ms = 9;
  want.clock.flush = {.p = 0.2, .min_ms = 400000, .max_ms = 400000};
  want.clock.backoff = {.p = 0.3, .min_ms = 1000, .max_ms = 2000};
  want.clock.ttl = {.p = 0, .min_ms = 31000, .max_ms = 32000};
  want.clock.land = 0.5;
  want.clock.high_start = 1;
  want.clock.leap = 0.5;
  EXPECT_EQ(*o, want);
  // One at a time, each changes the defaults.
  for (const auto& [name, value] : set) {
    absl::StatusOr<GenOptions> one = Flags({{name, value}});
    if (name == "hostile-rate") one = Flags({{"hostile", ""}, {name, value}});
    ASSERT_TRUE(one.ok()) << name << ": " << one.status();
    EXPECT_NE(*one, GenOptions{}) << name;
  }
}

TEST(GenFlagsTest, ErrorsNameTheFlagAndTheValue) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"seed", "-1"},
      {"steps", "x"},
      {"pods", "0"},
      {"pods", "100001"},
      {"nodes", "101"},
      {"queue-pool", "0"},
      {"step-ms", "0:10"},
      {"step-ms", "9:8"},
      {"step-ms", "1:2:3"},
      {"flush-jump", "1.5:300000"},
      {"backoff-jump", "0.1"},
      {"ttl-jump", "0.1:x:4"},
      {"boundary-landing", "2"},
      {"high-clock", "-1"},
      {"hostile-rate", "-0.1"},
      {"failure-rate", "nan"},
      {"two-profiles", "2"},
      {"bad-score", ""},
      {"huge-backoff", "1.01"},
      {"hostile", "yes"}};
  for (const auto& [name, value] : bad) {
    absl::StatusOr<GenOptions> o = Flags({{"hostile", ""}, {name, value}});
    ASSERT_FALSE(o.ok()) << name << "=" << value;
    EXPECT_EQ(o.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(o.status().message(), ::testing::HasSubstr("--" + name))
        << name << "=" << value;
    EXPECT_THAT(o.status().message(), ::testing::HasSubstr("\"" + value + "\""))
        << name << "=" << value;
  }
  EXPECT_THAT(Flags({{"pod", "3"}}).status().message(),
              ::testing::HasSubstr("--pod is not a generator flag"));
  EXPECT_THAT(
      Flags({{"hostile-rate", "0.5"}}).status().message(),
      ::testing::HasSubstr("--hostile-rate applies only with --hostile"));
}

TEST(GenFlagsTest, OneStringAsTheShellSpellsIt) {
  absl::StatusOr<GenOptions> o = ApplyGenFlags(
      "  --pods=40 --queue-pool 40\t--hostile --hostile-rate=0.5\n");
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->pods, 40);
  EXPECT_EQ(o->queue_pool, 40);
  EXPECT_TRUE(o->hostile);
  EXPECT_EQ(o->variety.hostile_rate, 0.5);
  // Over other defaults: what is not named stays.
  GenOptions base{.pods = 4, .nodes = 3};
  absl::StatusOr<GenOptions> over = ApplyGenFlags("--nodes=5", base);
  ASSERT_TRUE(over.ok());
  EXPECT_EQ(over->pods, 4);
  EXPECT_EQ(over->nodes, 5);
  EXPECT_EQ(*ApplyGenFlags(""), GenOptions{});
  EXPECT_FALSE(ApplyGenFlags("pods=4").ok());
  EXPECT_THAT(ApplyGenFlags("--pods").status().message(),
              ::testing::HasSubstr("--pods needs a value"));
  EXPECT_FALSE(ApplyGenFlags("--hostile=1").ok());
}

TEST(GeneratorClockTest, StepsFollowTheClockOptions) {
  GenOptions o{.steps = 150};
  o.clock.min_ms = o.clock.max_ms = 7;
  o.clock.flush.p = o.clock.backoff.p = o.clock.ttl.p = 0;
  o.clock.leap = 0;
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    for (int64_t dt : Advances(Generate(layer, o))) {
      EXPECT_EQ(dt, 7) << LayerName(layer);
    }
  }
  // Every step a flush jump of exactly 400 s (queue and scheduler), or a
  // TTL jump in [31, 32] s (cache).
  GenOptions jumps{.steps = 100};
  jumps.clock.flush = {.p = 1, .min_ms = 400000, .max_ms = 400000};
  jumps.clock.ttl = {.p = 1, .min_ms = 31000, .max_ms = 32000};
  jumps.clock.leap = 0;
  for (Layer layer : {Layer::kQueue, Layer::kScheduler}) {
    for (int64_t dt : Advances(Generate(layer, jumps))) {
      EXPECT_EQ(dt, 400000) << LayerName(layer);
    }
  }
  for (int64_t dt : Advances(Generate(Layer::kCache, jumps))) {
    EXPECT_GE(dt, 31000);
    EXPECT_LE(dt, 32000);
  }
  // The defaults jump past the 5-minute flush and across the TTL.
  for (Layer layer : {Layer::kQueue, Layer::kScheduler}) {
    std::vector<int64_t> dts = Advances(Generate(layer, {.steps = 150}));
    EXPECT_NE(std::find(dts.begin(), dts.end(), 310000), dts.end());
  }
  std::vector<int64_t> cache =
      Advances(Generate(Layer::kCache, {.steps = 150}));
  EXPECT_GE(*std::max_element(cache.begin(), cache.end()), 20000);
}

// The node scores a scheduler trace's node adds carry.
std::vector<int> Scores(const Trace& t) {
  std::vector<int> out;
  for (const Step& s : t.steps) {
    if (s.op != Op::kNodeAdd) continue;
    int v = 0;
    EXPECT_TRUE(absl::SimpleAtoi(s.node->labels.at("schedtrace.io/score"), &v));
    out.push_back(v);
  }
  return out;
}

TEST(GeneratorVarietyTest, EachKnobDoesWhatItSays) {
  int two = 0, huge = 0, reserve_errors = 0, cycles = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    GenOptions none{.seed = seed, .steps = 120};
    none.variety = {.failure_rate = 0,
                    .two_profiles = 0,
                    .bad_score = 0,
                    .huge_backoff = 0};
    GenOptions all = none;
    all.variety = {.failure_rate = 1,
                   .two_profiles = 1,
                   .bad_score = 1,
                   .huge_backoff = 1};
    const Trace s0 = Generate(Layer::kScheduler, none);
    const Trace s1 = Generate(Layer::kScheduler, all);
    EXPECT_EQ(s0.header.config.profiles.size(), 1u);
    EXPECT_EQ(s1.header.config.profiles.size(), 2u);
    for (int v : Scores(s0)) EXPECT_TRUE(v >= 0 && v <= 100) << v;
    for (int v : Scores(s1)) EXPECT_FALSE(v >= 0 && v <= 100) << v;
    for (const Step& st : s0.steps) {
      EXPECT_NE(st.reserve, ReserveOutcome::kError);
    }
    for (const Step& st : s1.steps) {
      if (st.op != Op::kScheduleOne) continue;
      ++cycles;
      reserve_errors += st.reserve == ReserveOutcome::kError;
    }
    EXPECT_LT(Generate(Layer::kQueue, none).header.config.pod_max_backoff_ms,
              1000000);
    EXPECT_GT(Generate(Layer::kQueue, all).header.config.pod_max_backoff_ms,
              int64_t{9000000000000});
    // The defaults mix both.
    two += Generate(Layer::kScheduler, {.seed = seed})
               .header.config.profiles.size() == 2;
    huge += Generate(Layer::kQueue, {.seed = seed})
                .header.config.pod_max_backoff_ms > 1000000;
  }
  EXPECT_GT(cycles, 0);
  EXPECT_EQ(reserve_errors, cycles);
  EXPECT_GT(two, 0);
  EXPECT_LT(two, 20);
  EXPECT_LT(huge, 20);
}

// Whether `key` is one of the first `pool` pods' keys, in either naming
// (PoolNames; hostile corner names are never in a pool).
bool InPool(const std::string& key, Layer layer, int pool) {
  for (bool corners : {false, true}) {
    const PoolNames names{.layer = layer, .corners = corners};
    for (int i = 0; i < pool; ++i) {
      if (names.Key(i) == key) return true;
    }
  }
  return false;
}

// Hostile queue steps name pods outside the pool (an update or a delete of
// a pod never added); at rate 0 none does, at rate 1 many.
int OutsidePool(const Trace& t, int pool) {
  int n = 0;
  for (const Step& s : t.steps) {
    const PodPtr pod = s.pod ? s.pod : s.new_pod;
    if (pod && !InPool(pod->Key(), Layer::kQueue, pool)) ++n;
  }
  return n;
}

TEST(GeneratorVarietyTest, HostileRate) {
  GenOptions o{.steps = 200, .hostile = true};
  o.variety.hostile_rate = 0;
  EXPECT_EQ(OutsidePool(Generate(Layer::kQueue, o), o.queue_pool), 0);
  o.variety.hostile_rate = 1;
  const int always = OutsidePool(Generate(Layer::kQueue, o), o.queue_pool);
  o.variety.hostile_rate = 0.15;
  const int default_rate =
      OutsidePool(Generate(Layer::kQueue, o), o.queue_pool);
  EXPECT_GT(always, 40);
  EXPECT_GT(always, 2 * default_rate);
}

TEST(GeneratorPoolTest, QueuePoolIsTheLesserOfPodsAndQueuePool) {
  // The largest pool index of a pod the trace carries, in either naming.
  auto largest = [](const Trace& t) {
    int most = -1;
    for (const Step& s : t.steps) {
      const PodPtr pod = s.pod ? s.pod : s.new_pod;
      if (!pod) continue;
      for (bool corners : {false, true}) {
        const PoolNames names{.layer = Layer::kQueue, .corners = corners};
        for (int i = 0; i < 100; ++i) {
          if (names.Key(i) == pod->Key()) most = std::max(most, i);
        }
      }
    }
    return most;
  };
  EXPECT_EQ(largest(Generate(Layer::kQueue, {.steps = 300})), 4);
  EXPECT_EQ(largest(Generate(Layer::kQueue, {.steps = 300, .queue_pool = 40})),
            6);
  EXPECT_GT(largest(Generate(Layer::kQueue,
                             {.steps = 300, .pods = 40, .queue_pool = 40})),
            30);
}

}  // namespace
}  // namespace schedtrace
