// Which layer of which upstream version each system judges: the one place
// every per-version runner asks (`schedtrace versions`, the fuzz targets'
// version bits, the RapidCheck properties, the generator tests).
//
// The authority is each system's own UpstreamFor (model/upstream.h,
// impl/upstream.h): it refuses a layer it does not judge yet with an
// Unimplemented status, and these functions ask it with a header of that
// layer and version at the default config. When a system comes to judge a
// layer, every runner follows without another edit.
//
//   for (const std::string& v : properties::JudgedUpstreams(Layer::kQueue))
//     ...  // every version whose queue layer model and impl both judge
//
// Header only, so that what links it links the impl it runs (the mutants'
// build links a planted copy of impl instead of impl).
#ifndef SCHEDTRACE_PROPERTIES_JUDGED_UPSTREAMS_H_
#define SCHEDTRACE_PROPERTIES_JUDGED_UPSTREAMS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "core/trace.h"
#include "core/upstream_versions.h"
#include "impl/upstream.h"
#include "model/upstream.h"

namespace schedtrace::properties {

// The header these functions ask with: `layer` of `version`, default
// config.
inline TraceHeader JudgedHeader(std::string_view version, Layer layer) {
  TraceHeader h;
  h.layer = layer;
  h.upstream = std::string(version);
  return h;
}

// Whether the model judges `layer` of `version` (a known version; "" is
// kDefaultUpstream): its UpstreamFor does not refuse it as unimplemented.
inline bool ModelJudges(std::string_view version, Layer layer) {
  return !absl::IsUnimplemented(
      model::UpstreamFor(JudgedHeader(version, layer)).status());
}

// The same for impl.
inline bool ImplJudges(std::string_view version, Layer layer) {
  return !absl::IsUnimplemented(
      impl::UpstreamFor(JudgedHeader(version, layer)).status());
}

// Whether both judge it: what a differential runner (diff --a=model
// --b=impl, the lockstep fuzz targets) can compare.
inline bool BothJudge(std::string_view version, Layer layer) {
  return ModelJudges(version, layer) && ImplJudges(version, layer);
}

// The known versions (KnownUpstreams(), oldest first) whose `layer` the
// model judges.
inline std::vector<std::string> ModelJudgedUpstreams(Layer layer) {
  std::vector<std::string> versions;
  for (const std::string& v : KnownUpstreams()) {
    if (ModelJudges(v, layer)) versions.push_back(v);
  }
  return versions;
}

// The known versions, oldest first, whose `layer` model and impl both
// judge.
inline std::vector<std::string> JudgedUpstreams(Layer layer) {
  std::vector<std::string> versions;
  for (const std::string& v : KnownUpstreams()) {
    if (BothJudge(v, layer)) versions.push_back(v);
  }
  return versions;
}

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_JUDGED_UPSTREAMS_H_
