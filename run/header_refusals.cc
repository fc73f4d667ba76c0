#include "run/header_refusals.h"

#include "absl/strings/str_cat.h"

namespace schedtrace {

std::optional<std::string> HeaderRefusals::Settled(Layer layer,
                                                   std::string_view version) {
  std::lock_guard<std::mutex> lock(mu_);
  // In ChildProcess::Configure's order: the version first, then the layer.
  if (auto it = declared_.find(layer);
      it != declared_.end() && it->second.version != version) {
    const Refusal& skip = it->second.skip;
    ++saved_[absl::StrCat(skip.reason, "another version")];
    return absl::StrCat(skip.child, skip.reason, std::string(version));
  }
  if (auto it = refused_layers_.find(layer); it != refused_layers_.end()) {
    ++saved_[it->second.reason];
    return absl::StrCat(it->second.child, it->second.reason);
  }
  return std::nullopt;
}

void HeaderRefusals::RefusedLayer(Layer layer, const std::string& child,
                                  const std::string& reason) {
  std::lock_guard<std::mutex> lock(mu_);
  refused_layers_.emplace(layer, Refusal{child, reason});
}

void HeaderRefusals::DeclaredVersion(Layer layer, const std::string& version,
                                     const std::string& child,
                                     const std::string& reason) {
  std::lock_guard<std::mutex> lock(mu_);
  declared_.emplace(layer, Version{version, Refusal{child, reason}});
}

std::vector<std::pair<std::string, int>> HeaderRefusals::TakeSaved() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<std::string, int>> out(saved_.begin(), saved_.end());
  saved_.clear();
  return out;
}

}  // namespace schedtrace
