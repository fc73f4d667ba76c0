// The Go types of v1.Pod and v1.Node as json.Unmarshal sees them
// (k8s_json_check.h).
#include "testkit/k8s_json_check.h"

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <limits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/go_rfc3339.h"

namespace schedtrace {

using nlohmann::json;

namespace {

// ---------------------------------------------------------------------------
// Scalars.

bool Digits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

// A Go type as json.Unmarshal decodes into it.
enum class Kind {
  kString,
  kBool,
  kInt32,
  kInt64,
  kTime,             // metav1.Time
  kQuantity,         // resource.Quantity
  kConditionStatus,  // v1.ConditionStatus: a string, True/False/Unknown
  kObject,           // a struct: `fields`
  kArray,            // a slice of `elem`
  kMap,              // a map[string] of `elem`
};

struct Schema {
  Kind kind;
  std::vector<std::pair<std::string, const Schema*>> fields;
  const Schema* elem = nullptr;
};

// v1.Pod and v1.Node, the fields traces use and the common ones around them
// (k8s.io/api/core/v1/types.go, apimachinery's meta/v1 ObjectMeta).
class Types {
 public:
  Types() {
    str_ = Add({Kind::kString});
    boolean_ = Add({Kind::kBool});
    i32_ = Add({Kind::kInt32});
    i64_ = Add({Kind::kInt64});
    time_ = Add({Kind::kTime});
    const Schema* quantity = Add({Kind::kQuantity});
    condition_status_ = Add({Kind::kConditionStatus});
    strings_ = Array(str_);
    string_map_ = Map(str_);
    resource_list_ = Map(quantity);
    const Schema* object_meta = ObjectMeta();
    pod = Object({{"kind", str_},
                  {"apiVersion", str_},
                  {"metadata", object_meta},
                  {"spec", PodSpec()},
                  {"status", PodStatus()}});
    node = Object({{"kind", str_},
                   {"apiVersion", str_},
                   {"metadata", object_meta},
                   {"spec", NodeSpec()},
                   {"status", NodeStatus()}});
  }

  const Schema* pod = nullptr;
  const Schema* node = nullptr;

 private:
  const Schema* ObjectMeta() {
    const Schema* owner_reference = Object({{"apiVersion", str_},
                                            {"kind", str_},
                                            {"name", str_},
                                            {"uid", str_},
                                            {"controller", boolean_},
                                            {"blockOwnerDeletion", boolean_}});
    return Object({{"name", str_},
                   {"generateName", str_},
                   {"namespace", str_},
                   {"selfLink", str_},
                   {"uid", str_},
                   {"resourceVersion", str_},
                   {"generation", i64_},
                   {"creationTimestamp", time_},
                   {"deletionTimestamp", time_},
                   {"deletionGracePeriodSeconds", i64_},
                   {"labels", string_map_},
                   {"annotations", string_map_},
                   {"ownerReferences", Array(owner_reference)},
                   {"finalizers", strings_}});
  }

  const Schema* Requirements() {
    return Array(
        Object({{"key", str_}, {"operator", str_}, {"values", strings_}}));
  }

  const Schema* LabelSelector() {
    return Object(
        {{"matchLabels", string_map_}, {"matchExpressions", Requirements()}});
  }

  const Schema* Affinity() {
    const Schema* requirements = Requirements();
    const Schema* node_selector_term = Object(
        {{"matchExpressions", requirements}, {"matchFields", requirements}});
    const Schema* label_selector = LabelSelector();
    const Schema* pod_affinity_term =
        Object({{"labelSelector", label_selector},
                {"namespaces", strings_},
                {"topologyKey", str_},
                {"namespaceSelector", label_selector}});
    const Schema* pod_affinity =
        Object({{"requiredDuringSchedulingIgnoredDuringExecution",
                 Array(pod_affinity_term)},
                {"preferredDuringSchedulingIgnoredDuringExecution",
                 Array(Object({{"weight", i32_},
                               {"podAffinityTerm", pod_affinity_term}}))}});
    return Object(
        {{"nodeAffinity",
          Object({{"requiredDuringSchedulingIgnoredDuringExecution",
                   Object({{"nodeSelectorTerms", Array(node_selector_term)}})},
                  {"preferredDuringSchedulingIgnoredDuringExecution",
                   Array(Object({{"weight", i32_},
                                 {"preference", node_selector_term}}))}})},
         {"podAffinity", pod_affinity},
         {"podAntiAffinity", pod_affinity}});
  }

  const Schema* Container() {
    return Object(
        {{"name", str_},
         {"image", str_},
         {"command", strings_},
         {"args", strings_},
         {"workingDir", str_},
         {"ports", Array(Object({{"name", str_},
                                 {"hostPort", i32_},
                                 {"containerPort", i32_},
                                 {"protocol", str_},
                                 {"hostIP", str_}}))},
         {"resources", Object({{"limits", resource_list_},
                               {"requests", resource_list_},
                               {"claims", Array(Object({{"name", str_}}))}})},
         {"imagePullPolicy", str_}});
  }

  const Schema* PodSpec() {
    const Schema* container = Container();
    return Object(
        {{"initContainers", Array(container)},
         {"containers", Array(container)},
         {"restartPolicy", str_},
         {"terminationGracePeriodSeconds", i64_},
         {"activeDeadlineSeconds", i64_},
         {"dnsPolicy", str_},
         {"nodeSelector", string_map_},
         {"serviceAccountName", str_},
         {"serviceAccount", str_},
         {"automountServiceAccountToken", boolean_},
         {"nodeName", str_},
         {"hostNetwork", boolean_},
         {"hostPID", boolean_},
         {"hostIPC", boolean_},
         {"hostname", str_},
         {"subdomain", str_},
         {"affinity", Affinity()},
         {"schedulerName", str_},
         {"tolerations", Array(Object({{"key", str_},
                                       {"operator", str_},
                                       {"value", str_},
                                       {"effect", str_},
                                       {"tolerationSeconds", i64_}}))},
         {"priorityClassName", str_},
         {"priority", i32_},
         {"preemptionPolicy", str_},
         {"overhead", resource_list_},
         {"topologySpreadConstraints",
          Array(Object({{"maxSkew", i32_},
                        {"topologyKey", str_},
                        {"whenUnsatisfiable", str_},
                        {"labelSelector", LabelSelector()},
                        {"minDomains", i32_},
                        {"nodeAffinityPolicy", str_},
                        {"nodeTaintsPolicy", str_},
                        {"matchLabelKeys", strings_}}))},
         {"schedulingGates", Array(Object({{"name", str_}}))},
         {"enableServiceLinks", boolean_},
         {"runtimeClassName", str_}});
  }

  const Schema* PodStatus() {
    return Object({{"phase", str_},
                   {"conditions", Array(Object({{"type", str_},
                                                {"status", condition_status_},
                                                {"lastProbeTime", time_},
                                                {"lastTransitionTime", time_},
                                                {"reason", str_},
                                                {"message", str_}}))},
                   {"message", str_},
                   {"reason", str_},
                   {"nominatedNodeName", str_},
                   {"hostIP", str_},
                   {"podIP", str_},
                   {"startTime", time_},
                   {"qosClass", str_}});
  }

  const Schema* NodeSpec() {
    return Object({{"podCIDR", str_},
                   {"podCIDRs", strings_},
                   {"providerID", str_},
                   {"unschedulable", boolean_},
                   {"taints", Array(Object({{"key", str_},
                                            {"value", str_},
                                            {"effect", str_},
                                            {"timeAdded", time_}}))}});
  }

  const Schema* NodeStatus() {
    return Object(
        {{"capacity", resource_list_},
         {"allocatable", resource_list_},
         {"phase", str_},
         {"conditions", Array(Object({{"type", str_},
                                      {"status", condition_status_},
                                      {"lastHeartbeatTime", time_},
                                      {"lastTransitionTime", time_},
                                      {"reason", str_},
                                      {"message", str_}}))},
         {"addresses", Array(Object({{"type", str_}, {"address", str_}}))},
         {"daemonEndpoints",
          Object({{"kubeletEndpoint", Object({{"Port", i32_}})}})},
         {"nodeInfo", Object({{"machineID", str_},
                              {"systemUUID", str_},
                              {"bootID", str_},
                              {"kernelVersion", str_},
                              {"osImage", str_},
                              {"containerRuntimeVersion", str_},
                              {"kubeletVersion", str_},
                              {"kubeProxyVersion", str_},
                              {"operatingSystem", str_},
                              {"architecture", str_}})}});
  }

  const Schema* Add(Schema s) {
    store_.push_back(std::move(s));
    return &store_.back();
  }
  const Schema* Object(
      std::initializer_list<std::pair<std::string, const Schema*>> fields) {
    return Add({Kind::kObject, fields});
  }
  const Schema* Array(const Schema* elem) {
    return Add({Kind::kArray, {}, elem});
  }
  const Schema* Map(const Schema* elem) { return Add({Kind::kMap, {}, elem}); }

  std::deque<Schema> store_;  // stable addresses
  // The scalars and the lists and maps of them every type shares.
  const Schema* str_ = nullptr;
  const Schema* boolean_ = nullptr;
  const Schema* i32_ = nullptr;
  const Schema* i64_ = nullptr;
  const Schema* time_ = nullptr;
  const Schema* condition_status_ = nullptr;
  const Schema* strings_ = nullptr;
  const Schema* string_map_ = nullptr;
  const Schema* resource_list_ = nullptr;
};

const Types& GoTypes() {
  static const Types* const types = new Types();
  return *types;
}

std::string Quoted(const json& v) {
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}

// What json.Unmarshal (or our stricter reading, see the header) finds wrong
// with `v` as a scalar of `kind`, null when nothing.
const char* ScalarProblem(const json& v, Kind kind) {
  switch (kind) {
    case Kind::kString:
      return v.is_string() ? nullptr : "is not a string";
    case Kind::kBool:
      return v.is_boolean() ? nullptr : "is not a bool";
    case Kind::kInt32:
    case Kind::kInt64: {
      // Go parses the literal with strconv.ParseInt: "5.0" and "5e0" fail.
      const bool i32 = kind == Kind::kInt32;
      const char* type = i32 ? "is not an int32" : "is not an int64";
      if (v.is_number_unsigned()) {
        const uint64_t max =
            i32 ? std::numeric_limits<int32_t>::max()
                : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
        return v.get<uint64_t>() > max ? type : nullptr;
      }
      if (v.is_number_integer()) {
        const int64_t n = v.get<int64_t>();
        return i32 && (n < std::numeric_limits<int32_t>::min() ||
                       n > std::numeric_limits<int32_t>::max())
                   ? type
                   : nullptr;
      }
      return type;
    }
    case Kind::kTime:
      return !v.is_string() || !IsRfc3339(v.get_ref<const std::string&>())
                 ? "is not an RFC 3339 time"
                 : nullptr;
    case Kind::kQuantity:
      if (!v.is_string()) return "is not a quantity string";
      return IsK8sQuantity(v.get_ref<const std::string&>())
                 ? nullptr
                 : "is not a quantity";
    case Kind::kConditionStatus:
      if (!v.is_string()) return "is not a string";
      return v != "True" && v != "False" && v != "Unknown"
                 ? "is not True, False or Unknown"
                 : nullptr;
    case Kind::kObject:
    case Kind::kArray:
    case Kind::kMap:
      break;
  }
  return nullptr;
}

// Appends to `problems` what json.Unmarshal (or our stricter reading, see
// the header) finds wrong with `v` as a `schema` at `path`.
void Check(const json& v, const Schema& schema, const std::string& path,
           std::vector<std::string>& problems) {
  if (v.is_null()) return;  // json.Unmarshal leaves the field as it was
  auto bad = [&](const char* what) {
    problems.push_back(absl::StrCat(path, ": ", Quoted(v), " ", what));
  };
  switch (schema.kind) {
    case Kind::kObject:
      if (!v.is_object()) {
        bad("is not an object");
        return;
      }
      for (const auto& [key, value] : v.items()) {
        const Schema* field = nullptr;
        for (const auto& [name, s] : schema.fields) {
          if (name == key) field = s;
        }
        const std::string field_path = absl::StrCat(path, ".", key);
        if (field == nullptr) {
          problems.push_back(
              absl::StrCat(field_path, ": no such field in the Go type"));
        } else {
          Check(value, *field, field_path, problems);
        }
      }
      return;
    case Kind::kArray:
      if (!v.is_array()) {
        bad("is not an array");
        return;
      }
      for (size_t i = 0; i < v.size(); ++i) {
        Check(v[i], *schema.elem, absl::StrCat(path, "[", i, "]"), problems);
      }
      return;
    case Kind::kMap:
      if (!v.is_object()) {
        bad("is not an object");
        return;
      }
      for (const auto& [key, value] : v.items()) {
        Check(value, *schema.elem, absl::StrCat(path, ".", key), problems);
      }
      return;
    default:
      if (const char* what = ScalarProblem(v, schema.kind)) bad(what);
      return;
  }
}

}  // namespace

// time.Parse(time.RFC3339, s), exactly (core/go_rfc3339.h).
bool IsRfc3339(std::string_view s) { return ParseGoRfc3339(s).ok(); }

bool IsK8sQuantity(std::string_view s) {
  size_t pos = 0;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) ++pos;
  size_t digits = 0;
  while (Digits(s, pos, 1)) ++pos, ++digits;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (Digits(s, pos, 1)) ++pos, ++digits;
  }
  if (digits == 0) return false;
  std::string_view suffix = s.substr(pos);
  static constexpr std::string_view kSuffixes[] = {
      "",  "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n",
      "u", "m",  "k",  "M",  "G",  "T",  "P",  "E"};
  for (std::string_view known : kSuffixes) {
    if (suffix == known) return true;
  }
  // A decimal exponent: strconv.ParseInt(suffix[1:], 10, 32).
  if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) {
    return false;
  }
  std::string_view exponent = suffix.substr(1);
  if (exponent[0] == '+' || exponent[0] == '-') exponent.remove_prefix(1);
  if (exponent.empty() || !Digits(exponent, 0, exponent.size())) return false;
  int32_t unused = 0;
  const std::string_view signed_exponent = suffix.substr(1);
  return absl::SimpleAtoi(
      absl::string_view(signed_exponent.data(), signed_exponent.size()),
      &unused);
}

std::vector<std::string> CheckPodJson(const json& pod,
                                      const std::string& path) {
  std::vector<std::string> problems;
  Check(pod, *GoTypes().pod, path, problems);
  return problems;
}

std::vector<std::string> CheckNodeJson(const json& node,
                                       const std::string& path) {
  std::vector<std::string> problems;
  Check(node, *GoTypes().node, path, problems);
  return problems;
}

std::vector<std::string> CheckTraceK8sJson(std::string_view text,
                                           const std::string& path) {
  std::vector<std::string> problems;
  bool header = true;
  int line_no = 0;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    const std::string where = absl::StrCat(path, ":", line_no, ": ");
    json step = json::parse(line.begin(), line.end(), nullptr,
                            /*allow_exceptions=*/false);
    if (!step.is_object()) {
      problems.push_back(absl::StrCat(where, "not a JSON object"));
      continue;
    }
    const json op = step.value("op", json());
    // A q_move_all of a Node event carries nodes (FORMAT.md, E14).
    const json event = step.value("event", json());
    const bool node_move = op == "q_move_all" && event.is_object() &&
                           event.value("resource", json()) == "Node";
    const bool node_op =
        node_move || (op.is_string() && op.get_ref<const std::string&>().find(
                                            "node") != std::string::npos);
    for (const char* key : {"pod", "old", "new", "node"}) {
      auto it = step.find(key);
      if (it == step.end() || !it->is_object() || it->contains("$ref")) {
        continue;  // absent, null, a key (q_nominate's node) or a $ref
      }
      const bool is_node = std::string_view(key) == "node" ||
                           (std::string_view(key) != "pod" && node_op);
      for (std::string& p :
           is_node ? CheckNodeJson(*it, key) : CheckPodJson(*it, key)) {
        problems.push_back(where + p);
      }
    }
  }
  return problems;
}

}  // namespace schedtrace
