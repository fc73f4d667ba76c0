#include "run/step_summary.h"

#include <algorithm>
#include <string_view>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/op_table.h"

namespace schedtrace {
namespace {

// "cpu:250m,memory:1Mi": a resource list as the trace writes it (what a
// system counts of it is the system's business: model/resource.h).
std::string ShowList(const ResourceList& list) {
  std::vector<std::string> parts;
  for (const auto& [name, q] : list) {
    parts.push_back(absl::StrCat(name, ":", q.text()));
  }
  return absl::StrJoin(parts, ",");
}

// The containers' requests, "+" between containers that request anything.
std::string ShowRequests(const std::vector<Container>& containers) {
  std::vector<std::string> parts;
  for (const Container& c : containers) {
    if (!c.requests.empty()) parts.push_back(ShowList(c.requests));
  }
  return absl::StrJoin(parts, "+");
}

// `key(field field ...)`, or `key` alone when no field is set.
std::string WithFields(const std::string& key,
                       const std::vector<std::string>& fields) {
  if (fields.empty()) return key;
  return absl::StrCat(key, "(", absl::StrJoin(fields, " "), ")");
}

// A field's name: "priority" of "priority=3", "deleting" of "deleting".
std::string_view FieldName(std::string_view field) {
  return field.substr(0, field.find('='));
}

// The new side of an update of the same object: the fields that differ from
// the old side's, `-name` for one the new side no longer has, "(same)" when
// nothing differs (a resync).
std::string Changes(const std::vector<std::string>& old_fields,
                    const std::vector<std::string>& new_fields) {
  std::vector<std::string> changes;
  for (const std::string& f : new_fields) {
    if (!absl::c_linear_search(old_fields, f)) changes.push_back(f);
  }
  for (const std::string& f : old_fields) {
    const bool kept = std::any_of(
        new_fields.begin(), new_fields.end(),
        [&f](const std::string& n) { return FieldName(n) == FieldName(f); });
    if (!kept) changes.push_back("-" + std::string(FieldName(f)));
  }
  return changes.empty() ? "(same)" : WithFields("", changes);
}

std::vector<std::string> PodFields(const Pod& p, bool update) {
  std::vector<std::string> f;
  if (!p.uid.empty()) f.push_back(absl::StrCat("uid=", p.uid));
  if (update && !p.resource_version.empty()) {
    f.push_back(absl::StrCat("rv=", p.resource_version));
  }
  if (p.priority) f.push_back(absl::StrCat("priority=", *p.priority));
  if (!p.scheduler_name.empty() && p.scheduler_name != "default-scheduler") {
    f.push_back(absl::StrCat("scheduler=", p.scheduler_name));
  }
  if (!p.node_name.empty()) f.push_back(absl::StrCat("nodeName=", p.node_name));
  if (!p.nominated_node_name.empty()) {
    f.push_back(absl::StrCat("nominated=", p.nominated_node_name));
  }
  if (!p.scheduling_gates.empty()) {
    f.push_back(absl::StrCat("gates=", absl::StrJoin(p.scheduling_gates, ",")));
  }
  if (std::string r = ShowRequests(p.containers); !r.empty()) {
    f.push_back(absl::StrCat("requests=", r));
  }
  if (std::string r = ShowRequests(p.init_containers); !r.empty()) {
    f.push_back(absl::StrCat("init=", r));
  }
  if (!p.overhead.empty()) {
    f.push_back(absl::StrCat("overhead=", ShowList(p.overhead)));
  }
  if (!p.node_selector.empty()) {
    f.push_back(absl::StrCat(
        "selector=",
        absl::StrJoin(p.node_selector, ",", absl::PairFormatter("="))));
  }
  if (p.required_node_affinity) f.push_back("nodeAffinity");
  if (!p.required_pod_affinity.empty()) f.push_back("podAffinity");
  if (!p.tolerations.empty()) {
    f.push_back(absl::StrCat("tolerations=", p.tolerations.size()));
  }
  if (p.deletion_timestamp) f.push_back("deleting");
  return f;
}

std::vector<std::string> NodeFields(const Node& n, bool update) {
  std::vector<std::string> f;
  if (update && !n.resource_version.empty()) {
    f.push_back(absl::StrCat("rv=", n.resource_version));
  }
  if (!n.allocatable.empty()) {
    f.push_back(absl::StrCat("allocatable=", ShowList(n.allocatable)));
  }
  if (n.unschedulable) f.push_back("unschedulable");
  if (!n.taints.empty()) {
    std::vector<std::string> taints;
    for (const Taint& t : n.taints) {
      taints.push_back(t.value.empty()
                           ? absl::StrCat(t.key, ":", t.effect)
                           : absl::StrCat(t.key, "=", t.value, ":", t.effect));
    }
    f.push_back(absl::StrCat("taints=", absl::StrJoin(taints, ",")));
  }
  if (auto it = n.labels.find("schedtrace.io/score"); it != n.labels.end()) {
    f.push_back(absl::StrCat("score=", it->second));
  }
  return f;
}

}  // namespace

std::vector<std::string> StepPodKeys(const Step& step) {
  std::vector<std::string> keys;
  auto add = [&keys](const std::string& key) {
    if (!key.empty() && !absl::c_linear_search(keys, key)) keys.push_back(key);
  };
  // The pods its op's arguments name (the op table), in argument order; a
  // precheck only lets pods through, it names none.
  for (const ArgSpec& a : SpecOf(step.op).Args()) {
    switch (KindOf(a.arg)) {
      case ArgKind::kPodObject:
        if (const PodPtr& p = step.*PodMember(a.arg); p != nullptr) {
          add(p->Key());
        }
        break;
      case ArgKind::kPodKey:
        add(step.pod_key);
        break;
      default:
        if (a.arg != Arg::kPodKeys) break;
        for (const std::string& k : step.pod_keys) add(k);
        for (const PodPtr& p : step.pods) {
          if (p != nullptr) add(p->Key());
        }
        break;
    }
  }
  return keys;
}

std::string StepSummary(const Step& step) {
  std::string s(OpName(step.op));
  if (step.pod != nullptr) {
    absl::StrAppend(&s, " ",
                    WithFields(step.pod->Key(), PodFields(*step.pod, false)));
  }
  if (step.old_pod != nullptr || step.new_pod != nullptr) {
    absl::StrAppend(
        &s, " ",
        step.old_pod == nullptr
            ? "nil"
            : WithFields(step.old_pod->Key(), PodFields(*step.old_pod, true)));
    if (step.new_pod != nullptr) {
      const std::string key = step.new_pod->Key();
      std::vector<std::string> f = PodFields(*step.new_pod, true);
      absl::StrAppend(&s, " -> ",
                      step.old_pod != nullptr && step.old_pod->Key() == key
                          ? Changes(PodFields(*step.old_pod, true), f)
                          : WithFields(key, f));
    }
  }
  std::vector<std::string> keys;  // keys given as keys, each once
  auto add_key = [&](const std::string& k) {
    if (!k.empty() && !absl::c_linear_search(keys, k)) keys.push_back(k);
  };
  add_key(step.pod_key);
  for (const std::string& k : step.pod_keys) add_key(k);
  if (step.pod_keys.empty()) {
    for (const PodPtr& p : step.pods) {
      if (p != nullptr) add_key(p->Key());
    }
  }
  if (!keys.empty()) absl::StrAppend(&s, " ", absl::StrJoin(keys, " "));
  if (step.node != nullptr) {
    absl::StrAppend(&s, " node ",
                    WithFields(step.node->name, NodeFields(*step.node, false)));
  }
  if (step.old_node != nullptr || step.new_node != nullptr) {
    absl::StrAppend(&s, " node ",
                    step.old_node == nullptr
                        ? "nil"
                        : WithFields(step.old_node->name,
                                     NodeFields(*step.old_node, true)));
    if (step.new_node != nullptr) {
      const std::string& name = step.new_node->name;
      std::vector<std::string> f = NodeFields(*step.new_node, true);
      absl::StrAppend(&s, " -> ",
                      step.old_node != nullptr && step.old_node->name == name
                          ? Changes(NodeFields(*step.old_node, true), f)
                          : WithFields(name, f));
    }
  }
  if (!step.plugins.empty()) {
    absl::StrAppend(&s, " [", absl::StrJoin(step.plugins, ", "), "]");
  }
  if (step.cycle) absl::StrAppend(&s, " cycle=", *step.cycle);
  if (!step.event.resource.empty()) {
    absl::StrAppend(&s, " ", step.event.resource, "/", step.event.action);
  }
  if (step.precheck) {
    absl::StrAppend(&s, " precheck=[", absl::StrJoin(*step.precheck, ","), "]");
  }
  if (step.op == Op::kQNominate) {
    absl::StrAppend(&s, " on ",
                    step.nominated_node.empty() ? "\"\"" : step.nominated_node);
  } else if (!step.nominated_node.empty()) {
    absl::StrAppend(&s, " on ", step.nominated_node);
  }
  if (step.tombstone) s += " tombstone";
  if (step.wait_for_first_consumer) s += " waitForFirstConsumer";
  if (step.reserve == ReserveOutcome::kError) s += " reserve=error";
  if (step.permit == PermitOutcome::kWait) s += " permit=wait";
  if (step.permit == PermitOutcome::kReject) s += " permit=reject";
  if (!step.prebind_ok) s += " prebind=fail";
  if (!step.bind_ok) s += " bind=fail";
  return s;
}

std::string StepLine(const Step& step, int step_no) {
  return absl::StrCat("step ", step_no, " t=", step.t, ": ", StepSummary(step));
}

}  // namespace schedtrace
