#include "harness/step_summary.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedtrace {
namespace {

bool Contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

std::vector<std::string> StepPodKeys(const Step& step) {
  std::vector<std::string> keys;
  auto add = [&keys](const std::string& key) {
    if (!key.empty() && !Contains(keys, key)) keys.push_back(key);
  };
  for (const PodPtr& p : {step.pod, step.old_pod, step.new_pod}) {
    if (p != nullptr) add(p->Key());
  }
  add(step.pod_key);
  for (const std::string& k : step.pod_keys) add(k);
  for (const PodPtr& p : step.pods) {
    if (p != nullptr) add(p->Key());
  }
  return keys;
}

std::string StepSummary(const Step& step) {
  std::string s(OpName(step.op));
  std::vector<std::string> pods = StepPodKeys(step);
  if (!pods.empty()) absl::StrAppend(&s, " ", absl::StrJoin(pods, " "));
  std::vector<std::string> nodes;
  for (const NodePtr& n : {step.node, step.old_node, step.new_node}) {
    if (n != nullptr && !Contains(nodes, n->name)) nodes.push_back(n->name);
  }
  if (!nodes.empty()) absl::StrAppend(&s, " node ", absl::StrJoin(nodes, " "));
  if (!step.plugins.empty()) {
    absl::StrAppend(&s, " [", absl::StrJoin(step.plugins, ", "), "]");
  }
  if (!step.event.resource.empty()) {
    absl::StrAppend(&s, " ", step.event.resource, "/", step.event.action);
  }
  if (!step.nominated_node.empty()) {
    absl::StrAppend(&s, " on ", step.nominated_node);
  }
  return s;
}

}  // namespace schedtrace
