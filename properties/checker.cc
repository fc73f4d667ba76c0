#include "properties/checker.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "core/upstream_versions.h"

namespace schedtrace::properties {

Checker::Checker(const TraceHeader& header, CheckMode mode, Shown shown)
    : mode_(mode),
      shown_(std::move(shown)),
      version_(EffectiveUpstream(header.upstream)),
      history_(header) {}

Checker::Checker(const TraceHeader* header, CheckMode mode, Shown shown)
    : mode_(mode),
      shown_(std::move(shown)),
      version_(EffectiveUpstream(header->upstream)),
      history_(header) {}

const std::vector<Finding>& Checker::Observe(const State& before,
                                             const Step& step,
                                             const StepOut& out,
                                             const State& after,
                                             const StateTouch* touch) {
  if (!shown_asked_) {
    shown_asked_ = true;
    unchecked_ = UncheckedProperties(history_.layer(), shown_);
    for (const Unchecked& u : unchecked_) skip_[u.property] = true;
    skips_any_ = !unchecked_.empty();
  }
  history_.Observe(before, step, out, &after);
  Observation o{before, step, out, after, history_, touch};
  violations_.clear();
  if (mode_ == CheckMode::kIncremental) {
    incremental_.Check(o, &violations_);
  } else {
    CheckAll(o, &violations_);
  }
  findings_.clear();
  for (Violation& v : violations_) {
    // Both modes evaluate every property (the incremental one keeps its
    // indexes whole); what the system does not show is dropped here.
    if (skips_any_ && v.property >= 1 && v.property <= 11 &&
        skip_[v.property]) {
      continue;
    }
    const KnownViolation* known = Classify(o, v, version_);
    if (known != nullptr) {
      if (counts_.empty()) counts_.resize(KnownViolations().size());
      ++counts_[known - KnownViolations().data()];
    }
    findings_.push_back(Finding{std::move(v), known});
  }
  return findings_;
}

const std::map<std::string, int>& Checker::known_counts() const {
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] > 0) {
      known_counts_[std::string(KnownViolations()[i].id)] = counts_[i];
    }
  }
  return known_counts_;
}

StepCheck AsStepCheck(const TraceHeader& header,
                      std::map<std::string, int>* known_counts, CheckMode mode,
                      Shown shown, std::vector<Unchecked>* unchecked,
                      std::function<void(const std::string&)> on_known) {
  auto checker = std::make_shared<Checker>(header, mode, std::move(shown));
  return [checker, known_counts, unchecked, on_known = std::move(on_known)](
             const State& before, const Step& step, const StepOut& out,
             const State& after, const StateTouch& touch) -> std::string {
    const std::vector<Finding>& findings =
        checker->Observe(before, step, out, after, &touch);
    if (unchecked != nullptr && unchecked->empty()) {
      *unchecked = checker->unchecked();  // known from the first step on
    }
    for (const Finding& f : findings) {
      if (f.known != nullptr) {
        if (known_counts != nullptr)
          ++(*known_counts)[std::string(f.known->id)];
        if (on_known) {
          on_known(absl::StrCat(std::string(f.known->id), ": ",
                                f.violation.Format()));
        }
        continue;
      }
      return f.violation.Format();
    }
    return "";
  };
}

}  // namespace schedtrace::properties
