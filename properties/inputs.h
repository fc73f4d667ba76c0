// The state each property reads, so that a system that shows only part of
// its state (an exec: child declaring `"state": [...]`, docs/FORMAT.md,
// "Capabilities") gets every property whose inputs it shows checked, and
// the others reported as not checked rather than judged on parts it hid.
//
// A property's inputs are the state paths (a part, "waiting", or a key of a
// part compared key by key, "queue.active") that it reads, that the History
// facts it uses are built from (History::Observe reads the states too), and
// that the known-violation matchers of its violations read
// (properties/known_violations.cc): when all are shown, two systems showing
// the same thing get the same verdict. Everything else a property reads is
// the trace's steps and the system's `out`, which every system shows.
//
//   for (const Unchecked& u : UncheckedProperties(layer, shown))
//     std::cout << u.property << " needs " << absl::StrJoin(u.needs, ", ");
#ifndef SCHEDTRACE_PROPERTIES_INPUTS_H_
#define SCHEDTRACE_PROPERTIES_INPUTS_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace.h"

namespace schedtrace::properties {

// Whether a system shows the state at `path`; null: it shows everything
// (run/replay.h ReportsState has this type).
using Shown = std::function<bool(std::string_view path)>;

// Whether property `id` (1..11) can fire on a trace of `layer` at all (its
// inputs exist in that layer's state): 3, 4, 5, 9 and 11 are about the
// scheduler layer, 2 needs both the queue and the cache, 6 the cache.
bool PropertyApplies(int id, Layer layer);

// The state paths property `id` reads on `layer` (sorted; empty when it does
// not apply there).
std::vector<std::string> PropertyInputs(int id, Layer layer);

struct Unchecked {
  int property = 0;
  std::vector<std::string> needs;  // the inputs not shown, sorted
  bool operator==(const Unchecked&) const = default;
};

// The properties that apply on `layer` and read a path `shown` does not
// show, in order of id. Empty when `shown` is null.
std::vector<Unchecked> UncheckedProperties(Layer layer, const Shown& shown);

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_INPUTS_H_
