#include "core/trace.h"

#include <optional>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "core/op_table.h"

namespace schedtrace {

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
  return static_cast<int>(op) >= 0 && static_cast<int>(op) < kOpCount
             ? SpecOf(op).name
             : std::string_view();
}

std::optional<Layer> LayerFromName(std::string_view name) {
  for (Layer l : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    if (LayerName(l) == name) return l;
  }
  return std::nullopt;
}

bool HasOwnQueueingHint(std::string_view plugin) {
  return plugin == "NodeUnschedulable" || plugin == "NodeName" ||
         plugin == "TaintToleration" || plugin == "NodeAffinity" ||
         plugin == "NodeResourcesFit" || plugin == "SchedulingGates";
}

std::optional<Op> OpFromName(std::string_view name) { return OpNamed(name); }

bool OpInLayer(Op op, Layer layer) {
  return static_cast<int>(op) >= 0 && static_cast<int>(op) < kOpCount &&
         SpecOf(op).InLayer(layer);
}

int ActionTypeBits(const std::string& action, bool node_annotation_action) {
  const int annotation = node_annotation_action ? 1 << 6 : 0;
  if (action == "Add") return 1 << 0;
  if (action == "Delete") return 1 << 1;
  if (action == "UpdateNodeAllocatable") return 1 << 2;
  if (action == "UpdateNodeLabel") return 1 << 3;
  if (action == "UpdateNodeTaint") return 1 << 4;
  if (action == "UpdateNodeCondition") return 1 << 5;
  if (action == "UpdateNodeAnnotation") return annotation;
  if (action == "Update") return 0b111100 | annotation;
  if (action == "All") return AllActionBits(node_annotation_action);
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
