#include "core/json_fields.h"

#include <limits>

#include "absl/strings/str_cat.h"

namespace schedtrace {

using nlohmann::json;

std::string FieldPath(absl::string_view parent, absl::string_view key) {
  if (parent.empty()) return std::string(key);
  return absl::StrCat(parent, ".", key);
}

std::string IndexPath(absl::string_view parent, size_t index) {
  return absl::StrCat(parent, "[", index, "]");
}

absl::string_view JsonTypeName(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a non-integer number";
    default:
      return "an unsupported value";
  }
}

namespace {

std::string Expected(absl::string_view want, const json& got) {
  return absl::StrCat("expected ", want, ", got ", JsonTypeName(got));
}

}  // namespace

absl::Status FieldReader::Error(absl::string_view field,
                                absl::string_view what) const {
  return absl::InvalidArgumentError(
      absl::StrCat(where_, "field \"", field, "\": ", what));
}

const json* FieldReader::Find(const json& obj, absl::string_view key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(std::string_view(key.data(), key.size()));
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

absl::Status FieldReader::AsObject(const json& v,
                                   absl::string_view field) const {
  if (!v.is_object()) return Error(field, Expected("an object", v));
  return absl::OkStatus();
}

absl::Status FieldReader::AsArray(const json& v,
                                  absl::string_view field) const {
  if (!v.is_array()) return Error(field, Expected("an array", v));
  return absl::OkStatus();
}

absl::Status FieldReader::AsString(const json& v, absl::string_view field,
                                   std::string* out) const {
  if (!v.is_string()) return Error(field, Expected("a string", v));
  *out = v.get<std::string>();
  return absl::OkStatus();
}

absl::Status FieldReader::AsInt64(const json& v, absl::string_view field,
                                  int64_t* out) const {
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Error(field, absl::StrCat(u, " is out of the int64 range"));
    }
    *out = static_cast<int64_t>(u);
    return absl::OkStatus();
  }
  if (v.is_number_integer()) {
    *out = v.get<int64_t>();
    return absl::OkStatus();
  }
  return Error(field, Expected("an integer", v));
}

absl::Status FieldReader::AsInt32(const json& v, absl::string_view field,
                                  int32_t* out) const {
  int64_t wide = 0;
  JF_RETURN_IF_ERROR(AsInt64(v, field, &wide));
  if (wide < std::numeric_limits<int32_t>::min() ||
      wide > std::numeric_limits<int32_t>::max()) {
    return Error(field, absl::StrCat(wide, " is out of the int32 range"));
  }
  *out = static_cast<int32_t>(wide);
  return absl::OkStatus();
}

absl::Status FieldReader::AsInt(const json& v, absl::string_view field,
                                int* out) const {
  int32_t narrow = 0;
  JF_RETURN_IF_ERROR(AsInt32(v, field, &narrow));
  *out = narrow;
  return absl::OkStatus();
}

absl::Status FieldReader::AsBool(const json& v, absl::string_view field,
                                 bool* out) const {
  if (!v.is_boolean()) return Error(field, Expected("a boolean", v));
  *out = v.get<bool>();
  return absl::OkStatus();
}

absl::Status FieldReader::AsStringList(const json& v, absl::string_view field,
                                       std::vector<std::string>* out) const {
  JF_RETURN_IF_ERROR(AsArray(v, field));
  std::vector<std::string> list;
  list.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    std::string s;
    JF_RETURN_IF_ERROR(AsString(v[i], IndexPath(field, i), &s));
    list.push_back(std::move(s));
  }
  *out = std::move(list);
  return absl::OkStatus();
}

absl::Status FieldReader::AsStringMap(const json& v, absl::string_view field,
                                      JsonStringMap* out) const {
  JF_RETURN_IF_ERROR(AsObject(v, field));
  JsonStringMap map;
  for (const auto& [key, value] : v.items()) {
    JF_RETURN_IF_ERROR(AsString(value, FieldPath(field, key), &map[key]));
  }
  *out = std::move(map);
  return absl::OkStatus();
}

absl::Status FieldReader::Member(const json& obj, absl::string_view parent,
                                 absl::string_view key, Presence presence,
                                 const json** v, std::string* field) const {
  *field = FieldPath(parent, key);
  *v = Find(obj, key);
  if (*v == nullptr && presence == Presence::kRequired) {
    return Error(*field, "missing");
  }
  return absl::OkStatus();
}

absl::Status FieldReader::Object(const json& obj, absl::string_view parent,
                                 absl::string_view key, const json** out,
                                 Presence presence) const {
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, out, &field));
  if (*out != nullptr) JF_RETURN_IF_ERROR(AsObject(**out, field));
  return absl::OkStatus();
}

absl::Status FieldReader::Array(const json& obj, absl::string_view parent,
                                absl::string_view key, const json** out,
                                Presence presence) const {
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, out, &field));
  if (*out != nullptr) JF_RETURN_IF_ERROR(AsArray(**out, field));
  return absl::OkStatus();
}

absl::Status FieldReader::String(const json& obj, absl::string_view parent,
                                 absl::string_view key, std::string* out,
                                 Presence presence) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, &v, &field));
  if (v == nullptr) return absl::OkStatus();
  return AsString(*v, field, out);
}

absl::Status FieldReader::OptString(const json& obj, absl::string_view parent,
                                    absl::string_view key,
                                    std::optional<std::string>* out) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, Presence::kOptional, &v, &field));
  if (v == nullptr) return absl::OkStatus();
  std::string s;
  JF_RETURN_IF_ERROR(AsString(*v, field, &s));
  *out = std::move(s);
  return absl::OkStatus();
}

absl::Status FieldReader::Int64(const json& obj, absl::string_view parent,
                                absl::string_view key, int64_t* out,
                                Presence presence) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, &v, &field));
  if (v == nullptr) return absl::OkStatus();
  return AsInt64(*v, field, out);
}

absl::Status FieldReader::OptInt64(const json& obj, absl::string_view parent,
                                   absl::string_view key,
                                   std::optional<int64_t>* out) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, Presence::kOptional, &v, &field));
  if (v == nullptr) return absl::OkStatus();
  int64_t n = 0;
  JF_RETURN_IF_ERROR(AsInt64(*v, field, &n));
  *out = n;
  return absl::OkStatus();
}

absl::Status FieldReader::Int(const json& obj, absl::string_view parent,
                              absl::string_view key, int* out,
                              Presence presence) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, &v, &field));
  if (v == nullptr) return absl::OkStatus();
  return AsInt(*v, field, out);
}

absl::Status FieldReader::Bool(const json& obj, absl::string_view parent,
                               absl::string_view key, bool* out,
                               Presence presence) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, &v, &field));
  if (v == nullptr) return absl::OkStatus();
  return AsBool(*v, field, out);
}

absl::Status FieldReader::StringList(const json& obj, absl::string_view parent,
                                     absl::string_view key,
                                     std::vector<std::string>* out,
                                     Presence presence, bool* found) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, &v, &field));
  if (found != nullptr) *found = v != nullptr;
  if (v == nullptr) return absl::OkStatus();
  return AsStringList(*v, field, out);
}

absl::Status FieldReader::StringMap(const json& obj, absl::string_view parent,
                                    absl::string_view key, JsonStringMap* out,
                                    Presence presence) const {
  const json* v = nullptr;
  std::string field;
  JF_RETURN_IF_ERROR(Member(obj, parent, key, presence, &v, &field));
  if (v == nullptr) return absl::OkStatus();
  return AsStringMap(*v, field, out);
}

void PutString(nlohmann::json& obj, const char* key, const std::string& s) {
  if (!s.empty()) obj[key] = s;
}

nlohmann::json StringListJson(const std::vector<std::string>& l) {
  return l.empty() ? nlohmann::json::array() : nlohmann::json(l);
}

}  // namespace schedtrace
