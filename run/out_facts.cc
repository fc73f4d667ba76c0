#include "run/out_facts.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace schedtrace {
namespace {

using nlohmann::json;

void AddOnce(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) {
    v.push_back(s);
  }
}

// The string at `o[key]`, "" when `o` is no object or holds none there.
std::string StringAt(const json& o, const char* key) {
  if (!o.is_object()) return "";
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

// "cycle: scheduled on n1 [NodeResourcesFit]": a scheduling cycle's result.
std::string CycleFact(const json& result) {
  std::string s = absl::StrCat("cycle: ", StringAt(result, "outcome"));
  if (std::string node = StringAt(result, "node"); !node.empty()) {
    absl::StrAppend(&s, " on ", node);
  }
  if (auto p = result.find("plugins"); p != result.end() && p->is_array()) {
    std::vector<std::string> plugins;
    for (const json& e : *p) {
      plugins.push_back(e.is_string() ? e.get<std::string>() : e.dump());
    }
    absl::StrAppend(&s, " [", absl::StrJoin(plugins, ", "), "]");
  }
  return s;
}

}  // namespace

void PodsOfOut(const json& out, std::vector<std::string>& keys) {
  if (!out.is_object()) return;
  AddOnce(keys, StringAt(out, "popped"));
  if (auto it = out.find("result"); it != out.end()) {
    AddOnce(keys, StringAt(*it, "pod"));
  }
  for (const char* list : {"bindings", "statusUpdates", "events"}) {
    auto it = out.find(list);
    if (it == out.end() || !it->is_array()) continue;
    for (const json& e : *it) AddOnce(keys, StringAt(e, "pod"));
  }
}

std::string OutFacts(const json& out, const std::string& pod,
                     const std::vector<std::string>& own) {
  if (!out.is_object()) return "";
  std::vector<std::string> facts;
  const auto result = out.find("result");
  const bool cycle = result != out.end() && StringAt(*result, "pod") == pod;
  if (StringAt(out, "popped") == pod && !cycle) facts.push_back("popped");
  if (cycle) facts.push_back(CycleFact(*result));
  auto each = [&](const char* list, auto fact) {
    auto it = out.find(list);
    if (it == out.end() || !it->is_array()) return;
    for (const json& e : *it) {
      if (StringAt(e, "pod") == pod) facts.push_back(fact(e));
    }
  };
  each("bindings", [&](const json& e) {
    return absl::StrCat("bound to ", StringAt(e, "node"));
  });
  each("statusUpdates", [&](const json& e) {
    std::string s = absl::StrCat("status ", StringAt(e, "reason"));
    if (std::string n = StringAt(e, "nominatedNodeName"); !n.empty()) {
      absl::StrAppend(&s, " (nominated ", n, ")");
    }
    return s;
  });
  each("events", [&](const json& e) {
    return absl::StrCat("event ", StringAt(e, "reason"));
  });
  if (std::find(own.begin(), own.end(), pod) != own.end()) {
    for (const char* flag : {"error", "fatal"}) {
      auto it = out.find(flag);
      if (it != out.end() && *it == true) facts.push_back(flag);
    }
  }
  return absl::StrJoin(facts, ", ");
}

std::string PoppedBy(const json& out) {
  std::string popped = StringAt(out, "popped");
  if (popped.empty() && out.is_object() && out.contains("result")) {
    popped = StringAt(out["result"], "pod");
  }
  return popped;
}

std::optional<int> AttemptsIn(const json& out) {
  if (!out.is_object()) return std::nullopt;
  auto it = out.find("attempts");
  if (it == out.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int>();
}

}  // namespace schedtrace
