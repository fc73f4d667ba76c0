// Typed readers for the members of a JSON object, for the trace codec (and
// the two writers its parts share, at the end).
//
// Every reader names the field it reads by its full path ("pod.spec.
// containers[0].name") and fails with an InvalidArgument status in the
// codec's format, `<where>field "<path>": <what is wrong>`, where `where` is
// the "file:line: " prefix of the line being read. A member that is absent
// or JSON null reads as absent: optional readers leave the output unchanged,
// required ones fail with "missing".
//
//   FieldReader r("golden/q.jsonl:12: ");
//   std::string name;
//   JF_RETURN_IF_ERROR(r.String(meta, "pod.metadata", "name", &name));
#ifndef SCHEDTRACE_CORE_JSON_FIELDS_H_
#define SCHEDTRACE_CORE_JSON_FIELDS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

// Returns the status of `expr` from the enclosing function when it is not OK.
#define JF_RETURN_IF_ERROR(expr)                                               \
  do {                                                                         \
    if (absl::Status jf_status_ = (expr); !jf_status_.ok()) return jf_status_; \
  } while (false)

namespace schedtrace {

// A JSON object of strings. The same type as Labels (core/objects.h):
// its comparison is transparent, so a lookup by a literal builds no string.
using JsonStringMap = std::map<std::string, std::string, std::less<>>;

enum class Presence { kOptional, kRequired };

// "parent.key" (or "key" when parent is empty) and "parent[i]".
std::string FieldPath(absl::string_view parent, absl::string_view key);
std::string IndexPath(absl::string_view parent, size_t index);

// "a string", "an integer", "null", ... for error messages.
absl::string_view JsonTypeName(const nlohmann::json& v);

class FieldReader {
 public:
  explicit FieldReader(std::string where) : where_(std::move(where)) {}

  const std::string& where() const { return where_; }

  // InvalidArgument `<where>field "<field>": <what>`.
  absl::Status Error(absl::string_view field, absl::string_view what) const;

  // The member `key` of `obj` (which must be an object), or nullptr when it
  // is absent or null.
  static const nlohmann::json* Find(const nlohmann::json& obj,
                                    absl::string_view key);

  // Value readers: `v` is the value at `field`.
  absl::Status AsObject(const nlohmann::json& v, absl::string_view field) const;
  absl::Status AsArray(const nlohmann::json& v, absl::string_view field) const;
  absl::Status AsString(const nlohmann::json& v, absl::string_view field,
                        std::string* out) const;
  absl::Status AsInt64(const nlohmann::json& v, absl::string_view field,
                       int64_t* out) const;
  absl::Status AsInt32(const nlohmann::json& v, absl::string_view field,
                       int32_t* out) const;
  absl::Status AsInt(const nlohmann::json& v, absl::string_view field,
                     int* out) const;
  absl::Status AsBool(const nlohmann::json& v, absl::string_view field,
                      bool* out) const;
  absl::Status AsStringList(const nlohmann::json& v, absl::string_view field,
                            std::vector<std::string>* out) const;
  absl::Status AsStringMap(const nlohmann::json& v, absl::string_view field,
                           JsonStringMap* out) const;

  // Member readers: read obj[key] (field path FieldPath(parent, key)).
  // `*found` (when given) tells whether the member was present and not null.
  absl::Status Object(const nlohmann::json& obj, absl::string_view parent,
                      absl::string_view key, const nlohmann::json** out,
                      Presence presence = Presence::kOptional) const;
  absl::Status Array(const nlohmann::json& obj, absl::string_view parent,
                     absl::string_view key, const nlohmann::json** out,
                     Presence presence = Presence::kOptional) const;
  absl::Status String(const nlohmann::json& obj, absl::string_view parent,
                      absl::string_view key, std::string* out,
                      Presence presence = Presence::kOptional) const;
  absl::Status OptString(const nlohmann::json& obj, absl::string_view parent,
                         absl::string_view key,
                         std::optional<std::string>* out) const;
  absl::Status Int64(const nlohmann::json& obj, absl::string_view parent,
                     absl::string_view key, int64_t* out,
                     Presence presence = Presence::kOptional) const;
  absl::Status OptInt64(const nlohmann::json& obj, absl::string_view parent,
                        absl::string_view key,
                        std::optional<int64_t>* out) const;
  absl::Status Int(const nlohmann::json& obj, absl::string_view parent,
                   absl::string_view key, int* out,
                   Presence presence = Presence::kOptional) const;
  absl::Status Bool(const nlohmann::json& obj, absl::string_view parent,
                    absl::string_view key, bool* out,
                    Presence presence = Presence::kOptional) const;
  absl::Status StringList(const nlohmann::json& obj, absl::string_view parent,
                          absl::string_view key, std::vector<std::string>* out,
                          Presence presence = Presence::kOptional,
                          bool* found = nullptr) const;
  absl::Status StringMap(const nlohmann::json& obj, absl::string_view parent,
                         absl::string_view key, JsonStringMap* out,
                         Presence presence = Presence::kOptional) const;

 private:
  // Finds obj[key]; a missing required member is an error, a missing
  // optional one gives *v == nullptr.
  absl::Status Member(const nlohmann::json& obj, absl::string_view parent,
                      absl::string_view key, Presence presence,
                      const nlohmann::json** v, std::string* field) const;

  std::string where_;
};

// Calls fn(element, "parent.key[i]") for each element of the array obj[key],
// each of which must be an object.
template <typename Fn>
absl::Status ForEachObject(const FieldReader& r, const nlohmann::json& obj,
                           absl::string_view parent, absl::string_view key,
                           Fn fn) {
  const nlohmann::json* arr = nullptr;
  JF_RETURN_IF_ERROR(r.Array(obj, parent, key, &arr));
  if (arr == nullptr) return absl::OkStatus();
  std::string field = FieldPath(parent, key);
  for (size_t i = 0; i < arr->size(); ++i) {
    std::string path = IndexPath(field, i);
    JF_RETURN_IF_ERROR(r.AsObject((*arr)[i], path));
    JF_RETURN_IF_ERROR(fn((*arr)[i], path));
  }
  return absl::OkStatus();
}

// Reads the list obj[key] of objects through `fn(element, path, &item)`.
template <typename T, typename Fn>
absl::Status ReadObjectList(const FieldReader& r, const nlohmann::json& obj,
                            absl::string_view parent, absl::string_view key,
                            std::vector<T>* out, Fn fn) {
  return ForEachObject(r, obj, parent, key,
                       [&](const nlohmann::json& e, const std::string& path) {
                         T item;
                         JF_RETURN_IF_ERROR(fn(e, path, &item));
                         out->push_back(std::move(item));
                         return absl::OkStatus();
                       });
}

// Writers, as Go's encoding/json writes an `omitempty` string: obj[key] = s
// unless s is empty.
void PutString(nlohmann::json& obj, const char* key, const std::string& s);

// A list of strings, [] when empty (never null).
nlohmann::json StringListJson(const std::vector<std::string>& l);

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_JSON_FIELDS_H_
