// HeaderRefusals: what a child's header replies settled during one run — a
// layer it refuses, the one upstream version it implements — so that its
// other traces of that layer are skipped without starting it again
// (docs/FORMAT.md, "Child-process protocol": a child is asked once per
// layer). Every ChildProcess of one command shares one (ChildOptions); a
// trace the memo settles is skipped with the very message the child's own
// reply gave, so reports group it with the first.
//
//   auto memo = std::make_shared<HeaderRefusals>();
//   ChildProcess a(cmd, {.refusals = memo}), b(cmd, {.refusals = memo});
//   a.Configure(cache_header);  // the child answers {"layers": ["queue"]}
//   b.Configure(cache_header);  // Unimplemented, no child started
//   memo->TakeSaved();          // {{"does not support the cache ...", 1}}
//
// Thread-safe: traces run on several threads (-j).
#ifndef SCHEDTRACE_RUN_HEADER_REFUSALS_H_
#define SCHEDTRACE_RUN_HEADER_REFUSALS_H_

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace.h"

namespace schedtrace {

class HeaderRefusals {
 public:
  // The skip message for a trace of `layer` and effective upstream
  // `version`, when an earlier reply settled it (counted as a start saved);
  // nullopt when the child has to be asked.
  std::optional<std::string> Settled(Layer layer, std::string_view version);

  // A header reply refused `layer`: its skip is `child` ("exec:CMD: ",
  // naming the child) then `reason` ("does not support the cache layer").
  void RefusedLayer(Layer layer, const std::string& child,
                    const std::string& reason);
  // A header reply to a trace of `layer` declared `version`: a trace of
  // another version is skipped with `child`, `reason` ("the child
  // implements v1.30.12, the trace is ") and the trace's version.
  void DeclaredVersion(Layer layer, const std::string& version,
                       const std::string& child, const std::string& reason);

  // How many starts each settled refusal saved since the last call (its
  // reason, without the child's name: "the child implements v1.30.12, the
  // trace is another version"; the count), in reason order; resets the
  // counts.
  std::vector<std::pair<std::string, int>> TakeSaved();

 private:
  struct Refusal {
    std::string child, reason;
  };
  struct Version {
    std::string version;
    Refusal skip;  // the reason ends where the trace's version goes
  };
  std::mutex mu_;
  std::map<Layer, Refusal> refused_layers_;
  std::map<Layer, Version> declared_;
  std::map<std::string, int> saved_;  // reason -> starts saved
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_HEADER_REFUSALS_H_
