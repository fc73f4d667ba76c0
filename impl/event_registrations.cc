#include "impl/event_registrations.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

namespace schedtrace::impl {
namespace {

// One plugin's registration of one event (upstream: a ClusterEvent of its
// EventsToRegister).
struct Registration {
  std::string resource;
  int actions = 0;
  std::string plugin;
};

// upstream v1.26 framework/runtime/framework.go allClusterEvents: what a
// plugin without EnqueueExtensions registers, each with All.
constexpr std::string_view kAllClusterEvents[] = {"Pod",
                                                  "Node",
                                                  "CSINode",
                                                  "PersistentVolume",
                                                  "PersistentVolumeClaim",
                                                  "StorageClass"};
// upstream v1.30 framework.UnrollWildCardResource beyond them, with an
// informer handler in addAllEventHandlers while DynamicResourceAllocation
// is off (the DRA kinds have none then).
constexpr std::string_view kUnrolledKinds[] = {"CSIDriver",
                                               "CSIStorageCapacity"};

constexpr int kAdd = 1 << 0;

// Action names whose ActionTypeBits union is `bits` (`annotation`: the
// version's node_annotation_action).
std::vector<std::string> ActionNames(int bits, bool annotation) {
  if (bits == AllActionBits(annotation)) return {"All"};
  std::vector<std::string> names;
  if (bits & kAdd) names.push_back("Add");
  if (bits & ActionTypeBits("Delete", annotation)) names.push_back("Delete");
  const int update = ActionTypeBits("Update", annotation);
  if ((bits & update) == update) {
    names.push_back("Update");
    return names;
  }
  for (const char* one :
       {"UpdateNodeAllocatable", "UpdateNodeLabel", "UpdateNodeTaint",
        "UpdateNodeCondition", "UpdateNodeAnnotation"}) {
    const int b = ActionTypeBits(one, annotation);
    if (b != 0 && (bits & b) != 0) names.push_back(one);
  }
  return names;
}

bool Has(const std::vector<Registration>& regs, std::string_view resource,
         int actions, std::string_view plugin) {
  return std::any_of(regs.begin(), regs.end(), [&](const Registration& r) {
    return r.resource == resource && r.actions == actions && r.plugin == plugin;
  });
}

// The plugins registered with All on every kind of allClusterEvents: those
// without EnqueueExtensions, in first-seen order.
std::vector<std::string> DefaultExtensionPlugins(
    const std::vector<Registration>& regs, bool annotation) {
  std::vector<std::string> plugins;
  for (const Registration& r : regs) {
    if (std::find(plugins.begin(), plugins.end(), r.plugin) != plugins.end()) {
      continue;
    }
    const bool all = std::all_of(
        std::begin(kAllClusterEvents), std::end(kAllClusterEvents),
        [&](std::string_view kind) {
          return Has(regs, kind, AllActionBits(annotation), r.plugin);
        });
    if (all) plugins.push_back(r.plugin);
  }
  return plugins;
}

}  // namespace

std::vector<ClusterEventMapEntry> EffectiveClusterEventMap(const Config& config,
                                                           const Upstream& up) {
  const std::vector<ClusterEventMapEntry>& map = config.cluster_event_map;
  if (!up.unroll_wildcard_events &&
      !up.node_unschedulable_watches_node_update &&
      !up.scheduling_gates_registers_no_events &&
      !up.node_add_registers_taint_update) {
    return map;  // v1.26.7's framework registers what the header says
  }
  std::vector<Registration> regs;
  for (const ClusterEventMapEntry& e : map) {
    int actions = 0;
    for (const std::string& a : e.actions) {
      actions |= ActionTypeBits(a, up.node_annotation_action);
    }
    for (const std::string& p : e.plugins)
      regs.push_back({e.resource, actions, p});
  }
  std::vector<std::string> defaults =
      DefaultExtensionPlugins(regs, up.node_annotation_action);

  // kubernetes#121677: SchedulingGates.EventsToRegister returns nil.
  if (up.scheduling_gates_registers_no_events) {
    std::erase_if(regs, [](const Registration& r) {
      return r.plugin == "SchedulingGates";
    });
  }
  // kubernetes#122334: NodeUnschedulable registers Node Add|Update (was
  // Add|UpdateNodeTaint).
  if (up.node_unschedulable_watches_node_update) {
    for (Registration& r : regs) {
      if (r.plugin == "NodeUnschedulable" && r.resource == "Node" &&
          (r.actions & kAdd) != 0) {
        r.actions = kAdd | ActionTypeBits("Update", up.node_annotation_action);
      }
    }
  }
  // kubernetes#118551: a plugin without EnqueueExtensions registers
  // UnrollWildCardResource, which names CSIDriver and CSIStorageCapacity
  // too; and only one of a PreEnqueue, PreFilter, Filter, Reserve or Permit
  // plugin (v1.30 shouldHaveEnqueueExtensions: PrioritySort, TraceScore,
  // TracePreBind and TraceBind register nothing), judged by the plugin set
  // the header names.
  if (up.unroll_wildcard_events) {
    if (!config.plugins.empty()) {
      std::vector<std::string> extended;
      for (const char* point :
           {"preEnqueue", "preFilter", "filter", "reserve", "permit"}) {
        if (auto it = config.plugins.find(point); it != config.plugins.end()) {
          extended.insert(extended.end(), it->second.begin(), it->second.end());
        }
      }
      std::vector<std::string> dropped;
      for (const std::string& p : defaults) {
        if (std::find(extended.begin(), extended.end(), p) == extended.end()) {
          dropped.push_back(p);
        }
      }
      auto is_dropped = [&](const std::string& plugin) {
        return std::find(dropped.begin(), dropped.end(), plugin) !=
               dropped.end();
      };
      std::erase_if(
          regs, [&](const Registration& r) { return is_dropped(r.plugin); });
      std::erase_if(defaults, is_dropped);
    }
    for (const std::string& p : defaults) {
      for (std::string_view kind : kUnrolledKinds) {
        const int all = AllActionBits(up.node_annotation_action);
        if (!Has(regs, kind, all, p)) {
          regs.push_back({std::string(kind), all, p});
        }
      }
    }
  }

  // kubernetes#122292: buildQueueingHintMap registers Node UpdateNodeTaint
  // for a plugin that registers Node Add without it (preCheckForNode may
  // keep its pods from moving on NodeAdd).
  if (up.node_add_registers_taint_update) {
    const int taint =
        ActionTypeBits("UpdateNodeTaint", up.node_annotation_action);
    std::vector<std::string> add_only;
    for (const Registration& r : regs) {
      if (r.resource != "Node" || (r.actions & kAdd) == 0) continue;
      const bool has_taint =
          std::any_of(regs.begin(), regs.end(), [&](const Registration& o) {
            return o.plugin == r.plugin && o.resource == "Node" &&
                   (o.actions & taint) != 0;
          });
      if (!has_taint && std::find(add_only.begin(), add_only.end(), r.plugin) ==
                            add_only.end()) {
        add_only.push_back(r.plugin);
      }
    }
    for (const std::string& p : add_only) regs.push_back({"Node", taint, p});
  }

  // Regrouped by event (upstream's map from ClusterEvent to plugins).
  std::vector<ClusterEventMapEntry> out;
  std::vector<int> out_actions;
  for (const Registration& r : regs) {
    size_t i = 0;
    while (i < out.size() &&
           (out[i].resource != r.resource || out_actions[i] != r.actions)) {
      ++i;
    }
    if (i == out.size()) {
      out.push_back(
          {r.resource, ActionNames(r.actions, up.node_annotation_action), {}});
      out_actions.push_back(r.actions);
    }
    std::vector<std::string>& plugins = out[i].plugins;
    if (std::find(plugins.begin(), plugins.end(), r.plugin) == plugins.end()) {
      plugins.push_back(r.plugin);
    }
  }
  return out;
}

}  // namespace schedtrace::impl
