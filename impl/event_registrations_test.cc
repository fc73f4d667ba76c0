#include "impl/event_registrations.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "run/step_source.h"

namespace schedtrace::impl {
namespace {

const std::vector<std::string> kDefaults = {"PrioritySort", "TraceBind",
                                            "TracePermit",  "TracePreBind",
                                            "TraceReserve", "TraceScore"};

// The map v1.26.7's framework registers for the format's plugins, as every
// recorded scheduler-layer header (and every generated one) carries it.
std::vector<ClusterEventMapEntry> V126Map() {
  return SchedulerHeader("recorded").config.cluster_event_map;
}

// A header's config with `map` (and no plugin set).
Config WithMap(std::vector<ClusterEventMapEntry> map) {
  Config c;
  c.cluster_event_map = std::move(map);
  return c;
}

// The recordings' config: V126Map() and the plugin set upstream ran with.
Config Recorded() { return SchedulerHeader("recorded").config; }

// The plugins of `map` registered for exactly (resource, actions).
std::vector<std::string> PluginsOf(const std::vector<ClusterEventMapEntry>& map,
                                   const std::string& resource,
                                   const std::vector<std::string>& actions) {
  std::vector<std::string> plugins;
  for (const ClusterEventMapEntry& e : map) {
    if (e.resource != resource || e.actions != actions) continue;
    plugins.insert(plugins.end(), e.plugins.begin(), e.plugins.end());
  }
  return plugins;
}

bool Registers(const std::vector<ClusterEventMapEntry>& map,
               const std::string& plugin) {
  for (const ClusterEventMapEntry& e : map) {
    for (const std::string& p : e.plugins) {
      if (p == plugin) return true;
    }
  }
  return false;
}

TEST(EventRegistrationsTest, V126AndV125RegisterWhatTheHeaderSays) {
  for (const char* v : {"v1.25.12", "v1.26.7"}) {
    EXPECT_EQ(EffectiveClusterEventMap(Recorded(), *UpstreamProfile(v)),
              V126Map())
        << v;
  }
}

TEST(EventRegistrationsTest, V130RegistersItsPluginsEvents) {
  const std::vector<ClusterEventMapEntry> map = EffectiveClusterEventMap(
      WithMap(V126Map()), *UpstreamProfile("v1.30.12"));
  // kubernetes#122334: NodeUnschedulable watches every node update.
  EXPECT_EQ(
      PluginsOf(map, "Node", {"Add", "Update"}),
      (std::vector<std::string>{"NodeUnschedulable", "NodeAffinity", "NodeName",
                                "NodeResourcesFit", "TaintToleration"}));
  EXPECT_TRUE(PluginsOf(map, "Node", {"Add", "UpdateNodeTaint"}).empty());
  // kubernetes#121677: SchedulingGates registers nothing.
  EXPECT_FALSE(Registers(map, "SchedulingGates"));
  // kubernetes#118551: the plugins without EnqueueExtensions register
  // CSIDriver and CSIStorageCapacity too.
  EXPECT_EQ(PluginsOf(map, "CSIDriver", {"All"}), kDefaults);
  EXPECT_EQ(PluginsOf(map, "CSIStorageCapacity", {"All"}), kDefaults);
  EXPECT_EQ(PluginsOf(map, "StorageClass", {"All"}), kDefaults);
  EXPECT_EQ(PluginsOf(map, "Pod", {"Delete"}),
            std::vector<std::string>{"NodeResourcesFit"});
}

// v1.30's shouldHaveEnqueueExtensions: of the plugins without
// EnqueueExtensions, only a PreEnqueue, PreFilter, Filter, Reserve or
// Permit plugin registers anything.
TEST(EventRegistrationsTest, V130OnlyExtendedPluginsRegisterDefaults) {
  const std::vector<ClusterEventMapEntry> map =
      EffectiveClusterEventMap(Recorded(), *UpstreamProfile("v1.30.12"));
  const std::vector<std::string> kept = {"TracePermit", "TraceReserve"};
  for (const char* kind : {"Pod", "Node", "CSINode", "CSIDriver",
                           "CSIStorageCapacity", "StorageClass"}) {
    EXPECT_EQ(PluginsOf(map, kind, {"All"}), kept) << kind;
  }
  for (const char* dropped :
       {"PrioritySort", "TraceScore", "TracePreBind", "TraceBind"}) {
    EXPECT_FALSE(Registers(map, dropped)) << dropped;
  }
  EXPECT_EQ(EffectiveClusterEventMap(Recorded(), *UpstreamProfile("v1.26.7")),
            V126Map());
}

TEST(EventRegistrationsTest, EachSwitchAloneChangesOnlyItsPart) {
  Upstream up;
  up.scheduling_gates_registers_no_events = true;
  std::vector<ClusterEventMapEntry> map =
      EffectiveClusterEventMap(WithMap(V126Map()), up);
  EXPECT_FALSE(Registers(map, "SchedulingGates"));
  EXPECT_EQ(PluginsOf(map, "Node", {"Add", "UpdateNodeTaint"}),
            std::vector<std::string>{"NodeUnschedulable"});
  EXPECT_TRUE(PluginsOf(map, "CSIDriver", {"All"}).empty());

  up = Upstream();
  up.node_unschedulable_watches_node_update = true;
  map = EffectiveClusterEventMap(WithMap(V126Map()), up);
  EXPECT_TRUE(PluginsOf(map, "Node", {"Add", "UpdateNodeTaint"}).empty());
  EXPECT_TRUE(Registers(map, "SchedulingGates"));
  EXPECT_TRUE(PluginsOf(map, "CSIStorageCapacity", {"All"}).empty());

  up = Upstream();
  up.unroll_wildcard_events = true;
  map = EffectiveClusterEventMap(WithMap(V126Map()), up);
  EXPECT_EQ(PluginsOf(map, "CSIDriver", {"All"}), kDefaults);
  EXPECT_EQ(PluginsOf(map, "Node", {"Add", "UpdateNodeTaint"}),
            std::vector<std::string>{"NodeUnschedulable"});
}

// kubernetes#122292: a plugin registering Node Add without UpdateNodeTaint
// gets Node UpdateNodeTaint too.
TEST(EventRegistrationsTest, NodeAddRegistersTaintUpdate) {
  const std::vector<ClusterEventMapEntry> map = {
      {"Node", {"Add"}, {"AddOnly"}},
      {"Node", {"Add", "UpdateNodeLabel"}, {"WithLabel"}},
      {"Node", {"Add"}, {"WithTaint"}},
      {"Node", {"UpdateNodeTaint"}, {"WithTaint"}},
      {"Pod", {"Add"}, {"PodOnly"}}};
  const Upstream up = [] {
    Upstream u;
    u.node_add_registers_taint_update = true;
    return u;
  }();
  const std::vector<ClusterEventMapEntry> once =
      EffectiveClusterEventMap(WithMap(map), up);
  EXPECT_EQ(PluginsOf(once, "Node", {"UpdateNodeTaint"}),
            (std::vector<std::string>{"WithTaint", "AddOnly", "WithLabel"}));
  EXPECT_EQ(EffectiveClusterEventMap(WithMap(once), up), once);
  EXPECT_EQ(EffectiveClusterEventMap(WithMap(map), Upstream()), map);
}

TEST(EventRegistrationsTest, IsIdempotent) {
  const Upstream v130 = *UpstreamProfile("v1.30.12");
  for (Config config : {WithMap(V126Map()), Recorded()}) {
    const std::vector<ClusterEventMapEntry> once =
        EffectiveClusterEventMap(config, v130);
    config.cluster_event_map = once;
    EXPECT_EQ(EffectiveClusterEventMap(config, v130), once);
  }
  // A plugin registered with All on a few kinds only has EnqueueExtensions:
  // it gets no unrolled kind.
  const std::vector<ClusterEventMapEntry> partial = {
      {"Pod", {"All"}, {"Custom"}}, {"Node", {"All"}, {"Custom"}}};
  EXPECT_EQ(EffectiveClusterEventMap(WithMap(partial), v130), partial);
}

}  // namespace
}  // namespace schedtrace::impl
