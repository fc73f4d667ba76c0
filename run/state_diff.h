// The structural differ behind a divergence: every difference
// between an expected and an actual `out` or state, not only the first.
//
// Lists whose elements name a pod or a node are matched by that key rather
// than by position: queue.active / backoff / unschedulable entries by "pod",
// cache.nodes by "name", the key lists (cache.assumed, bindingFinished, a
// node's pods, waiting, parked, each node's list in nominated) by the key
// itself, out.bindings / statusUpdates / events by "pod". Against such a
// list a Difference is
//   missing  state.queue.backoff[d/p]   expected the element, actual (absent)
//   extra    state.queue.active[d/r]    expected (absent), actual the element
//   moved    state.queue.active[d/q]    expected "#2", actual "#1" (1-based
//            positions; the fewest elements that explain the new order)
//   changed  state.queue.backoff[d/p].backoffExpiresAt  both values
// (a list whose keys repeat is diffed by position instead). Anything else
// differs as objects key by key (an absent key: missing / extra), lists of
// equal length element by element (`[i]`), and otherwise whole (changed).
//
// Usage: on a mismatch only (the hot paths compare with CompareStep's fast
// first-difference check and call this afterwards):
//   std::vector<Difference> d;
//   DiffOut(expected_out, actual_out, d);
//   DiffState(expected_state, actual_state, sent_state_or_null, reports, d);
// `sent` is the value as the system wrote it (a child's reply), which the
// comparison does not read (it compares `actual`, the canonical re-encoding)
// but which is what a Difference shows as `actual`: a key the child left out
// shows `(absent)`, not its default.
#ifndef SCHEDTRACE_RUN_STATE_DIFF_H_
#define SCHEDTRACE_RUN_STATE_DIFF_H_

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "run/replay.h"

namespace schedtrace {

// Appends every difference between `expected` and `actual` at `path`
// ("out", "state.queue.active", ...). `sent`: the counterpart of `actual` as
// sent, or null when `actual` is what was sent (then `use_sent` is false).
// With `use_sent` true a null `sent` means the system sent nothing there.
void DiffValues(const nlohmann::json& expected, const nlohmann::json& actual,
                const nlohmann::json* sent, bool use_sent,
                const std::string& path, std::vector<Difference>& out);

// `expect.out` against the out the system showed.
void DiffOut(const nlohmann::json& expected, const nlohmann::json& actual,
             std::vector<Difference>& out);

// `expect.state` against the canonical encoding of the system's state, with
// CompareStep's rules: parts (and keys of queue and cache) the expectation
// leaves out are not compared, nor are those `reports` says the system does
// not report; parts in format order (queue, nominated, cache, waiting,
// parked, then any other sorted), keys of queue and cache likewise. `sent`:
// the state as the child sent it, or null.
void DiffState(const nlohmann::json& expected, const nlohmann::json& actual,
               const nlohmann::json* sent, const ReportsState& reports,
               std::vector<Difference>& out);

// The key of each element of the list at `path` (a pod key, a node name,
// the element itself: the keys DiffValues matches the list's elements by),
// in the list's order; nullopt when the list at `path` is matched by
// position, or an element has no key, or a key repeats (then DiffValues
// diffs it by position too). The first difference of a divergence names
// an element by this key (`state.cache.nodes[n1].requested.cpu`), as every
// Difference does.
std::optional<std::vector<std::string>> ListKeys(const nlohmann::json& list,
                                                 const std::string& path);

// `path` without its list keys and indices: "state.queue.backoff[d/p].attempts"
// -> "state.queue.backoff.attempts" (what a failure signature groups by).
std::string PathWithoutKeys(const std::string& path);

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_STATE_DIFF_H_
