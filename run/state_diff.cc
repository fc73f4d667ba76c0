#include "run/state_diff.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "absl/strings/str_cat.h"

namespace schedtrace {
namespace {

using nlohmann::json;

constexpr std::string_view kAbsent = "(absent)";

std::string Show(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// What a Difference shows as `actual`: what was sent when that is known
// (`use_sent`; null: nothing was sent there), else the actual value.
std::string ShowActual(const json* actual, const json* sent, bool use_sent) {
  const json* shown = use_sent ? sent : actual;
  return shown == nullptr ? std::string(kAbsent) : Show(*shown);
}

const json* SentKey(const json* sent, const std::string& key) {
  if (sent == nullptr || !sent->is_object()) return nullptr;
  auto it = sent->find(key);
  return it == sent->end() ? nullptr : &*it;
}

const json* SentIndex(const json* sent, size_t i) {
  if (sent == nullptr || !sent->is_array() || i >= sent->size()) {
    return nullptr;
  }
  return &(*sent)[i];
}

// How the elements of the list at `path` are matched.
enum class KeyBy { kPosition, kPod, kName, kSelf };

KeyBy KeyOf(const std::string& path) {
  const std::string p = PathWithoutKeys(path);
  for (const char* pods : {"state.queue.active", "state.queue.backoff",
                           "state.queue.unschedulable", "out.bindings",
                           "out.statusUpdates", "out.events"}) {
    if (p == pods) return KeyBy::kPod;
  }
  if (p == "state.cache.nodes") return KeyBy::kName;
  for (const char* keys :
       {"state.cache.assumed", "state.cache.bindingFinished",
        "state.cache.nodes.pods", "state.waiting", "state.parked"}) {
    if (p == keys) return KeyBy::kSelf;
  }
  // A node's list of nominated pods (a node name may hold dots).
  if (path.starts_with("state.nominated.") &&
      path.find('[') == std::string::npos) {
    return KeyBy::kSelf;
  }
  return KeyBy::kPosition;
}

std::optional<std::string> ElementKey(const json& e, KeyBy by) {
  const char* field = by == KeyBy::kPod ? "pod" : "name";
  switch (by) {
    case KeyBy::kPosition:
      return std::nullopt;
    case KeyBy::kSelf:
      if (e.is_string()) return e.get<std::string>();
      return std::nullopt;
    case KeyBy::kPod:
    case KeyBy::kName:
      if (e.is_object()) {
        auto it = e.find(field);
        if (it != e.end() && it->is_string()) return it->get<std::string>();
      }
      return std::nullopt;
  }
  return std::nullopt;
}

// The key of every element of `list` and where each is; false when an
// element has no key or a key repeats (the list is then diffed by position).
bool KeysOf(const json& list, KeyBy by, std::vector<std::string>& keys,
            std::unordered_map<std::string, size_t>& index) {
  keys.reserve(list.size());
  for (const json& e : list) {
    std::optional<std::string> k = ElementKey(e, by);
    if (!k || !index.emplace(*k, keys.size()).second) return false;
    keys.push_back(*std::move(k));
  }
  return true;
}

// Which of the common elements stay in place when the rest moved: a longest
// subsequence increasing in both lists (`want[c]` increases with c; `got[c]`
// are distinct positions in the actual list, below `size`). Among the
// longest, the one keeping most elements at the same position in both lists,
// so that [a, b, c] -> [c, b] says c moved, not b. O(n log n): a Fenwick
// tree over actual positions holds the best chain ending below each.
std::vector<bool> StayInPlace(const std::vector<size_t>& want,
                              const std::vector<size_t>& got, size_t size) {
  const size_t n = got.size();
  // A chain's score: its length first, then how many stay at their index.
  const int64_t unit = static_cast<int64_t>(n) + 1;
  struct Best {
    int64_t score = 0;
    ptrdiff_t end = -1;  // the element ending the chain
  };
  std::vector<Best> tree(size + 1);
  std::vector<ptrdiff_t> prev(n, -1);
  Best overall;
  for (size_t c = 0; c < n; ++c) {
    Best below;  // the best chain ending at an actual position < got[c]
    for (size_t i = got[c]; i > 0; i -= i & (~i + 1)) {
      if (tree[i].score > below.score) below = tree[i];
    }
    Best here{below.score + unit + (want[c] == got[c] ? 1 : 0),
              static_cast<ptrdiff_t>(c)};
    prev[c] = below.end;
    if (here.score > overall.score) overall = here;
    for (size_t i = got[c] + 1; i <= size; i += i & (~i + 1)) {
      if (here.score > tree[i].score) tree[i] = here;
    }
  }
  std::vector<bool> kept(n, false);
  for (ptrdiff_t c = overall.end; c >= 0; c = prev[static_cast<size_t>(c)]) {
    kept[static_cast<size_t>(c)] = true;
  }
  return kept;
}

// A list whose elements name a pod, a node or a key, matched by that name.
// False (nothing appended) when the names do not identify the elements.
bool DiffKeyed(const json& expected, const json& actual, const json* sent,
               bool use_sent, const std::string& path, KeyBy by,
               std::vector<Difference>& out) {
  std::vector<std::string> want, got;
  std::unordered_map<std::string, size_t> want_at, got_at;
  if (!KeysOf(expected, by, want, want_at) ||
      !KeysOf(actual, by, got, got_at)) {
    return false;
  }
  std::unordered_map<std::string, const json*> sent_by_key;
  if (use_sent && sent != nullptr && sent->is_array()) {
    for (const json& e : *sent) {
      if (std::optional<std::string> k = ElementKey(e, by)) {
        sent_by_key.emplace(*std::move(k), &e);
      }
    }
  }
  auto sent_of = [&](const std::string& key) -> const json* {
    auto it = sent_by_key.find(key);
    return it == sent_by_key.end() ? nullptr : it->second;
  };
  auto at = [&path](const std::string& key) {
    return absl::StrCat(path, "[", key, "]");
  };
  std::vector<size_t> common_want, common_got;  // positions, expected order
  for (size_t i = 0; i < want.size(); ++i) {
    auto it = got_at.find(want[i]);
    if (it == got_at.end()) {
      out.push_back({at(want[i]), "missing", Show(expected[i]),
                     use_sent ? ShowActual(nullptr, sent_of(want[i]), true)
                              : std::string(kAbsent)});
    } else {
      common_want.push_back(i);
      common_got.push_back(it->second);
    }
  }
  for (size_t j = 0; j < got.size(); ++j) {
    if (want_at.contains(got[j])) continue;
    out.push_back({at(got[j]), "extra", std::string(kAbsent),
                   ShowActual(&actual[j], sent_of(got[j]), use_sent)});
  }
  std::vector<bool> kept = StayInPlace(common_want, common_got, got.size());
  for (size_t c = 0; c < common_want.size(); ++c) {
    if (kept[c]) continue;
    out.push_back({at(want[common_want[c]]), "moved",
                   absl::StrCat("#", common_want[c] + 1),
                   absl::StrCat("#", common_got[c] + 1)});
  }
  for (size_t c = 0; c < common_want.size(); ++c) {
    const std::string& key = want[common_want[c]];
    DiffValues(expected[common_want[c]], actual[common_got[c]], sent_of(key),
               use_sent, at(key), out);
  }
  return true;
}

// The keys of `object` in `order` first, then the others sorted.
std::vector<std::string> OrderedKeys(const json& object,
                                     std::initializer_list<const char*> order) {
  std::vector<std::string> keys;
  for (const char* k : order) {
    if (object.contains(k)) keys.push_back(k);
  }
  for (const auto& [k, v] : object.items()) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      keys.push_back(k);
    }
  }
  return keys;
}

}  // namespace

void DiffValues(const json& expected, const json& actual, const json* sent,
                bool use_sent, const std::string& path,
                std::vector<Difference>& out) {
  if (expected == actual) return;
  if (expected.is_object() && actual.is_object()) {
    for (const auto& [key, value] : expected.items()) {
      const std::string sub = absl::StrCat(path, ".", key);
      const json* s = use_sent ? SentKey(sent, key) : nullptr;
      auto it = actual.find(key);
      if (it == actual.end()) {
        out.push_back(
            {sub, "missing", Show(value),
             use_sent ? ShowActual(nullptr, s, true) : std::string(kAbsent)});
      } else {
        DiffValues(value, *it, s, use_sent, sub, out);
      }
    }
    for (const auto& [key, value] : actual.items()) {
      if (expected.contains(key)) continue;
      out.push_back({absl::StrCat(path, ".", key), "extra",
                     std::string(kAbsent),
                     ShowActual(&value, SentKey(sent, key), use_sent)});
    }
    return;
  }
  if (expected.is_array() && actual.is_array()) {
    if (KeyBy by = KeyOf(path);
        by != KeyBy::kPosition &&
        DiffKeyed(expected, actual, sent, use_sent, path, by, out)) {
      return;
    }
    if (expected.size() == actual.size()) {
      for (size_t i = 0; i < expected.size(); ++i) {
        DiffValues(expected[i], actual[i], SentIndex(sent, i), use_sent,
                   absl::StrCat(path, "[", i, "]"), out);
      }
      return;
    }
  }
  out.push_back(
      {path, "changed", Show(expected), ShowActual(&actual, sent, use_sent)});
}

void DiffOut(const json& expected, const json& actual,
             std::vector<Difference>& out) {
  DiffValues(expected, actual, nullptr, false, "out", out);
}

void DiffState(const json& expected, const json& actual, const json* sent,
               const ReportsState& reports, std::vector<Difference>& out) {
  const bool use_sent = sent != nullptr;
  auto unreported = [&reports](const std::string& path) {
    return reports && !reports(path);
  };
  if (!expected.is_object() || !actual.is_object()) {
    DiffValues(expected, actual, sent, use_sent, "state", out);
    return;
  }
  for (const std::string& part : OrderedKeys(
           expected, {"queue", "nominated", "cache", "waiting", "parked"})) {
    if (unreported(part)) continue;
    const std::string root = absl::StrCat("state.", part);
    const json& want = expected[part];
    const json* sent_part = use_sent ? SentKey(sent, part) : nullptr;
    auto it = actual.find(part);
    if (it == actual.end()) {
      out.push_back({root, "missing", Show(want),
                     use_sent ? ShowActual(nullptr, sent_part, true)
                              : std::string(kAbsent)});
      continue;
    }
    const json& got = *it;
    const bool key_by_key = part == "queue" || part == "cache";
    if (!key_by_key || !want.is_object() || !got.is_object()) {
      DiffValues(want, got, sent_part, use_sent, root, out);
      continue;
    }
    const std::vector<std::string> keys =
        part == "queue"
            ? OrderedKeys(want, {"active", "backoff", "unschedulable",
                                 "schedulingCycle", "moveRequestCycle"})
            : OrderedKeys(want, {"nodes", "assumed", "bindingFinished"});
    for (const std::string& key : keys) {
      if (unreported(absl::StrCat(part, ".", key))) continue;
      const std::string sub = absl::StrCat(root, ".", key);
      const json* s = use_sent ? SentKey(sent_part, key) : nullptr;
      auto k = got.find(key);
      if (k == got.end()) {
        out.push_back(
            {sub, "missing", Show(want[key]),
             use_sent ? ShowActual(nullptr, s, true) : std::string(kAbsent)});
      } else {
        DiffValues(want[key], *k, s, use_sent, sub, out);
      }
    }
  }
}

std::optional<std::vector<std::string>> ListKeys(const json& list,
                                                 const std::string& path) {
  const KeyBy by = KeyOf(path);
  if (by == KeyBy::kPosition || !list.is_array()) return std::nullopt;
  std::vector<std::string> keys;
  std::unordered_map<std::string, size_t> index;
  if (!KeysOf(list, by, keys, index)) return std::nullopt;
  return keys;
}

std::string PathWithoutKeys(const std::string& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '[') {
      size_t close = path.find(']', i);
      if (close == std::string::npos) break;
      i = close;
      continue;
    }
    out += path[i];
  }
  return out;
}

}  // namespace schedtrace
