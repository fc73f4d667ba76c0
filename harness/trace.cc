#include "harness/trace.h"

#include <optional>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace schedtrace {
namespace {

struct OpInfo {
  Op op;
  std::string_view name;
  bool queue;
  bool cache;
  bool scheduler;
};

// The op names of the spec ("Steps"), in Op's order, with their layers.
constexpr OpInfo kOps[] = {
    {Op::kQAdd, "q_add", true, false, false},
    {Op::kQUpdate, "q_update", true, false, false},
    {Op::kQDelete, "q_delete", true, false, false},
    {Op::kQPop, "q_pop", true, false, false},
    {Op::kQAddUnschedulable, "q_add_unschedulable", true, false, false},
    {Op::kQActivate, "q_activate", true, false, false},
    {Op::kQMoveAll, "q_move_all", true, false, false},
    {Op::kQAssignedPodAdded, "q_assigned_pod_added", true, false, false},
    {Op::kQAssignedPodUpdated, "q_assigned_pod_updated", true, false, false},
    {Op::kQNominate, "q_nominate", true, false, false},
    {Op::kFlushBackoff, "flush_backoff", true, false, true},
    {Op::kFlushUnschedulable, "flush_unschedulable", true, false, true},
    {Op::kCAssume, "c_assume", false, true, false},
    {Op::kCFinishBinding, "c_finish_binding", false, true, false},
    {Op::kCForget, "c_forget", false, true, false},
    {Op::kCAddPod, "c_add_pod", false, true, false},
    {Op::kCUpdatePod, "c_update_pod", false, true, false},
    {Op::kCRemovePod, "c_remove_pod", false, true, false},
    {Op::kCAddNode, "c_add_node", false, true, false},
    {Op::kCUpdateNode, "c_update_node", false, true, false},
    {Op::kCRemoveNode, "c_remove_node", false, true, false},
    {Op::kCCleanup, "c_cleanup", false, true, false},
    {Op::kPodAdd, "pod_add", false, false, true},
    {Op::kPodUpdate, "pod_update", false, false, true},
    {Op::kPodDelete, "pod_delete", false, false, true},
    {Op::kNodeAdd, "node_add", false, false, true},
    {Op::kNodeUpdate, "node_update", false, false, true},
    {Op::kNodeDelete, "node_delete", false, false, true},
    {Op::kClusterEvent, "cluster_event", false, false, true},
    {Op::kScheduleOne, "schedule_one", false, false, true},
    {Op::kPermitAllow, "permit_allow", false, false, true},
    {Op::kPermitReject, "permit_reject", false, false, true},
    {Op::kBind, "bind", false, false, true},
};

const OpInfo* Find(Op op) {
  for (const OpInfo& info : kOps) {
    if (info.op == op) return &info;
  }
  return nullptr;
}

}  // namespace

std::string_view LayerName(Layer layer) {
  switch (layer) {
    case Layer::kQueue:
      return "queue";
    case Layer::kCache:
      return "cache";
    case Layer::kScheduler:
      return "scheduler";
  }
  return "";
}

std::string_view OpName(Op op) {
  const OpInfo* info = Find(op);
  return info == nullptr ? std::string_view() : info->name;
}

std::optional<Layer> LayerFromName(std::string_view name) {
  for (Layer l : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    if (LayerName(l) == name) return l;
  }
  return std::nullopt;
}

std::optional<Op> OpFromName(std::string_view name) {
  for (const OpInfo& info : kOps) {
    if (info.name == name) return info.op;
  }
  return std::nullopt;
}

bool OpInLayer(Op op, Layer layer) {
  const OpInfo* info = Find(op);
  if (info == nullptr) return false;
  switch (layer) {
    case Layer::kQueue:
      return info->queue;
    case Layer::kCache:
      return info->cache;
    case Layer::kScheduler:
      return info->scheduler;
  }
  return false;
}

int ActionTypeBits(const std::string& action) {
  if (action == "Add") return 1 << 0;
  if (action == "Delete") return 1 << 1;
  if (action == "UpdateNodeAllocatable") return 1 << 2;
  if (action == "UpdateNodeLabel") return 1 << 3;
  if (action == "UpdateNodeTaint") return 1 << 4;
  if (action == "UpdateNodeCondition") return 1 << 5;
  if (action == "Update") return 0b111100;
  if (action == "All") return kAllActionBits;
  return 0;
}

absl::Status CheckUpdateNamesOneObject(const Step& step) {
  if (step.old_pod != nullptr && step.new_pod != nullptr &&
      step.old_pod->Key() != step.new_pod->Key()) {
    const bool ns = step.old_pod->namespace_ != step.new_pod->namespace_;
    return absl::InvalidArgumentError(absl::StrCat(
        "field new.metadata.", ns ? "namespace" : "name", ": ",
        std::string(OpName(step.op)), " of pod \"", step.old_pod->Key(),
        "\" carries another pod \"", step.new_pod->Key(),
        "\" (an informer never delivers that)"));
  }
  if (step.old_node != nullptr && step.new_node != nullptr &&
      step.old_node->name != step.new_node->name) {
    return absl::InvalidArgumentError(absl::StrCat(
        "field new.metadata.name: ", std::string(OpName(step.op)),
        " of node \"", step.old_node->name, "\" carries another node \"",
        step.new_node->name, "\" (an informer never delivers that)"));
  }
  return absl::OkStatus();
}

}  // namespace schedtrace
