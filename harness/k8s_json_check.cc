// The Go types of v1.Pod and v1.Node as json.Unmarshal sees them
// (k8s_json_check.h).
#include "harness/k8s_json_check.h"

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <limits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

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

int Num(std::string_view s, size_t pos, size_t n) {
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
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
    const Schema* str = Add({Kind::kString});
    const Schema* boolean = Add({Kind::kBool});
    const Schema* i32 = Add({Kind::kInt32});
    const Schema* i64 = Add({Kind::kInt64});
    const Schema* time = Add({Kind::kTime});
    const Schema* quantity = Add({Kind::kQuantity});
    const Schema* condition_status = Add({Kind::kConditionStatus});
    const Schema* strings = Array(str);
    const Schema* string_map = Map(str);
    const Schema* resource_list = Map(quantity);

    const Schema* owner_reference = Object({{"apiVersion", str},
                                            {"kind", str},
                                            {"name", str},
                                            {"uid", str},
                                            {"controller", boolean},
                                            {"blockOwnerDeletion", boolean}});
    const Schema* object_meta =
        Object({{"name", str},
                {"generateName", str},
                {"namespace", str},
                {"selfLink", str},
                {"uid", str},
                {"resourceVersion", str},
                {"generation", i64},
                {"creationTimestamp", time},
                {"deletionTimestamp", time},
                {"deletionGracePeriodSeconds", i64},
                {"labels", string_map},
                {"annotations", string_map},
                {"ownerReferences", Array(owner_reference)},
                {"finalizers", strings}});

    // Pod.
    const Schema* requirements =
        Array(Object({{"key", str}, {"operator", str}, {"values", strings}}));
    const Schema* node_selector_term = Object(
        {{"matchExpressions", requirements}, {"matchFields", requirements}});
    const Schema* label_selector = Object(
        {{"matchLabels", string_map}, {"matchExpressions", requirements}});
    const Schema* pod_affinity_term =
        Object({{"labelSelector", label_selector},
                {"namespaces", strings},
                {"topologyKey", str},
                {"namespaceSelector", label_selector}});
    const Schema* pod_affinity =
        Object({{"requiredDuringSchedulingIgnoredDuringExecution",
                 Array(pod_affinity_term)},
                {"preferredDuringSchedulingIgnoredDuringExecution",
                 Array(Object({{"weight", i32},
                               {"podAffinityTerm", pod_affinity_term}}))}});
    const Schema* affinity = Object(
        {{"nodeAffinity",
          Object({{"requiredDuringSchedulingIgnoredDuringExecution",
                   Object({{"nodeSelectorTerms", Array(node_selector_term)}})},
                  {"preferredDuringSchedulingIgnoredDuringExecution",
                   Array(Object({{"weight", i32},
                                 {"preference", node_selector_term}}))}})},
         {"podAffinity", pod_affinity},
         {"podAntiAffinity", pod_affinity}});
    const Schema* container = Object(
        {{"name", str},
         {"image", str},
         {"command", strings},
         {"args", strings},
         {"workingDir", str},
         {"ports", Array(Object({{"name", str},
                                 {"hostPort", i32},
                                 {"containerPort", i32},
                                 {"protocol", str},
                                 {"hostIP", str}}))},
         {"resources", Object({{"limits", resource_list},
                               {"requests", resource_list},
                               {"claims", Array(Object({{"name", str}}))}})},
         {"imagePullPolicy", str}});
    const Schema* pod_spec =
        Object({{"initContainers", Array(container)},
                {"containers", Array(container)},
                {"restartPolicy", str},
                {"terminationGracePeriodSeconds", i64},
                {"activeDeadlineSeconds", i64},
                {"dnsPolicy", str},
                {"nodeSelector", string_map},
                {"serviceAccountName", str},
                {"serviceAccount", str},
                {"automountServiceAccountToken", boolean},
                {"nodeName", str},
                {"hostNetwork", boolean},
                {"hostPID", boolean},
                {"hostIPC", boolean},
                {"hostname", str},
                {"subdomain", str},
                {"affinity", affinity},
                {"schedulerName", str},
                {"tolerations", Array(Object({{"key", str},
                                              {"operator", str},
                                              {"value", str},
                                              {"effect", str},
                                              {"tolerationSeconds", i64}}))},
                {"priorityClassName", str},
                {"priority", i32},
                {"preemptionPolicy", str},
                {"overhead", resource_list},
                {"topologySpreadConstraints",
                 Array(Object({{"maxSkew", i32},
                               {"topologyKey", str},
                               {"whenUnsatisfiable", str},
                               {"labelSelector", label_selector},
                               {"minDomains", i32},
                               {"nodeAffinityPolicy", str},
                               {"nodeTaintsPolicy", str},
                               {"matchLabelKeys", strings}}))},
                {"schedulingGates", Array(Object({{"name", str}}))},
                {"enableServiceLinks", boolean},
                {"runtimeClassName", str}});
    const Schema* pod_status =
        Object({{"phase", str},
                {"conditions", Array(Object({{"type", str},
                                             {"status", condition_status},
                                             {"lastProbeTime", time},
                                             {"lastTransitionTime", time},
                                             {"reason", str},
                                             {"message", str}}))},
                {"message", str},
                {"reason", str},
                {"nominatedNodeName", str},
                {"hostIP", str},
                {"podIP", str},
                {"startTime", time},
                {"qosClass", str}});
    pod = Object({{"kind", str},
                  {"apiVersion", str},
                  {"metadata", object_meta},
                  {"spec", pod_spec},
                  {"status", pod_status}});

    // Node.
    const Schema* node_spec =
        Object({{"podCIDR", str},
                {"podCIDRs", strings},
                {"providerID", str},
                {"unschedulable", boolean},
                {"taints", Array(Object({{"key", str},
                                         {"value", str},
                                         {"effect", str},
                                         {"timeAdded", time}}))}});
    const Schema* node_status =
        Object({{"capacity", resource_list},
                {"allocatable", resource_list},
                {"phase", str},
                {"conditions", Array(Object({{"type", str},
                                             {"status", condition_status},
                                             {"lastHeartbeatTime", time},
                                             {"lastTransitionTime", time},
                                             {"reason", str},
                                             {"message", str}}))},
                {"addresses", Array(Object({{"type", str}, {"address", str}}))},
                {"daemonEndpoints",
                 Object({{"kubeletEndpoint", Object({{"Port", i32}})}})},
                {"nodeInfo", Object({{"machineID", str},
                                     {"systemUUID", str},
                                     {"bootID", str},
                                     {"kernelVersion", str},
                                     {"osImage", str},
                                     {"containerRuntimeVersion", str},
                                     {"kubeletVersion", str},
                                     {"kubeProxyVersion", str},
                                     {"operatingSystem", str},
                                     {"architecture", str}})}});
    node = Object({{"kind", str},
                   {"apiVersion", str},
                   {"metadata", object_meta},
                   {"spec", node_spec},
                   {"status", node_status}});
  }

  const Schema* pod = nullptr;
  const Schema* node = nullptr;

 private:
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
};

const Types& GoTypes() {
  static const Types* const types = new Types();
  return *types;
}

std::string Quoted(const json& v) {
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
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
    case Kind::kString:
      if (!v.is_string()) bad("is not a string");
      return;
    case Kind::kBool:
      if (!v.is_boolean()) bad("is not a bool");
      return;
    case Kind::kInt32:
    case Kind::kInt64: {
      // Go parses the literal with strconv.ParseInt: "5.0" and "5e0" fail.
      const bool i32 = schema.kind == Kind::kInt32;
      const char* type = i32 ? "is not an int32" : "is not an int64";
      if (v.is_number_unsigned()) {
        const uint64_t max =
            i32 ? std::numeric_limits<int32_t>::max()
                : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
        if (v.get<uint64_t>() > max) bad(type);
      } else if (v.is_number_integer()) {
        const int64_t n = v.get<int64_t>();
        if (i32 && (n < std::numeric_limits<int32_t>::min() ||
                    n > std::numeric_limits<int32_t>::max())) {
          bad(type);
        }
      } else {
        bad(type);
      }
      return;
    }
    case Kind::kTime:
      if (!v.is_string() || !IsRfc3339(v.get_ref<const std::string&>())) {
        bad("is not an RFC 3339 time");
      }
      return;
    case Kind::kQuantity:
      if (!v.is_string()) {
        bad("is not a quantity string");
      } else if (!IsK8sQuantity(v.get_ref<const std::string&>())) {
        bad("is not a quantity");
      }
      return;
    case Kind::kConditionStatus:
      if (!v.is_string()) {
        bad("is not a string");
      } else if (v != "True" && v != "False" && v != "Unknown") {
        bad("is not True, False or Unknown");
      }
      return;
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
  }
}

}  // namespace

// time.Parse(time.RFC3339, s): "2006-01-02T15:04:05Z07:00", a fraction
// ('.' or ',' and digits) allowed after the seconds. Go's parser also takes
// a one-digit hour; we want the two digits Go writes.
bool IsRfc3339(std::string_view s) {
  if (!Digits(s, 0, 4) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2) ||
      s[7] != '-' || !Digits(s, 8, 2) || s[10] != 'T' || !Digits(s, 11, 2) ||
      s[13] != ':' || !Digits(s, 14, 2) || s[16] != ':' || !Digits(s, 17, 2)) {
    return false;
  }
  const int year = Num(s, 0, 4);
  const int month = Num(s, 5, 2);
  const int day = Num(s, 8, 2);
  if (month < 1 || month > 12 || day < 1 || day > DaysIn(month, year) ||
      Num(s, 11, 2) > 23 || Num(s, 14, 2) > 59 || Num(s, 17, 2) > 59) {
    return false;
  }
  size_t pos = 19;
  if ((s[pos] == '.' || s[pos] == ',') && Digits(s, pos + 1, 1)) {
    ++pos;
    while (Digits(s, pos, 1)) ++pos;
  }
  std::string_view zone = s.substr(pos);
  if (zone == "Z") return true;
  return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') &&
         Digits(zone, 1, 2) && zone[3] == ':' && Digits(zone, 4, 2) &&
         Num(zone, 1, 2) <= 23 && Num(zone, 4, 2) <= 59;
}

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
    const bool node_op =
        op.is_string() &&
        op.get_ref<const std::string&>().find("node") != std::string::npos;
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
