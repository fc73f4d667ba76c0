#include "impl/upstream.h"

#include "gtest/gtest.h"

namespace schedtrace::impl {
namespace {

TraceHeader Header(const std::string& upstream) {
  TraceHeader h;
  h.upstream = upstream;
  return h;
}

TEST(UpstreamTest, EachKnownVersionHasItsProfile) {
  absl::StatusOr<Upstream> v25 = UpstreamFor(Header("v1.25.12"));
  absl::StatusOr<Upstream> v26 = UpstreamFor(Header("v1.26.7"));
  absl::StatusOr<Upstream> v30 = UpstreamFor(Header("v1.30.12"));
  absl::StatusOr<Upstream> none = UpstreamFor(Header(""));
  ASSERT_TRUE(v25.ok() && v26.ok() && v30.ok() && none.ok());
  EXPECT_EQ(none->version, "v1.26.7");
  EXPECT_EQ(v26->version, "v1.26.7");
  EXPECT_FALSE(v25->pre_enqueue_and_scheduling_gates);
  EXPECT_FALSE(v25->add_pod_of_assumed_pod_rebuilds_state);
  EXPECT_TRUE(v26->pre_enqueue_and_scheduling_gates);
  EXPECT_FALSE(v26->queueing_hints_skip_uninteresting_events);
  EXPECT_TRUE(v30->queueing_hints_skip_uninteresting_events);
  EXPECT_TRUE(v30->pre_filter_ignores_unknown_node_names);
  EXPECT_TRUE(v30->pre_enqueue_and_scheduling_gates);
}

TEST(UpstreamTest, AnUnknownVersionIsRefused) {
  for (const char* v : {"v1.27.0", "1.26.7", "v1.26", "latest"}) {
    absl::StatusOr<Upstream> up = UpstreamFor(Header(v));
    EXPECT_EQ(up.status().code(), absl::StatusCode::kInvalidArgument) << v;
  }
}

TEST(UpstreamTest, ConfigsAVersionCannotRunAreRefused) {
  TraceHeader h = Header("v1.30.12");
  h.config.features["PodSchedulingReadiness"] = false;  // locked on
  EXPECT_EQ(UpstreamFor(h).status().code(), absl::StatusCode::kInvalidArgument);
  h.config.features["PodSchedulingReadiness"] = true;
  EXPECT_TRUE(UpstreamFor(h).ok());
  // v1.25.12 has no such gate and ignores it; v1.26.7 has it off by
  // default.
  for (const char* v : {"v1.25.12", "v1.26.7"}) {
    TraceHeader off = Header(v);
    off.config.features["PodSchedulingReadiness"] = false;
    EXPECT_TRUE(UpstreamFor(off).ok()) << v;
  }
  for (const char* v : {"v1.25.12", "v1.26.7", "v1.30.12"}) {
    TraceHeader hints = Header(v);
    hints.config.features["SchedulerQueueingHints"] = true;
    EXPECT_EQ(UpstreamFor(hints).status().code(),
              absl::StatusCode::kInvalidArgument)
        << v;
    hints.config.features["SchedulerQueueingHints"] = false;
    EXPECT_TRUE(UpstreamFor(hints).ok()) << v;
  }
}

}  // namespace
}  // namespace schedtrace::impl
