// The step source (run/step_source.h) on RapidCheck's draws. A run's
// choices are drawn up front, one fixed-length block per step (and one for
// the header), as a RapidCheck container: shrinking then removes whole
// steps — the steps after a removed one keep their own choices — and
// lowers each choice towards the simplest (the low end of a range, a
// chance that does not fire). Whatever RapidCheck tries, the source makes
// every step from it, so every sequence it tries is valid. Header-only:
// only tests include it (the properties library does not link RapidCheck).
//
//   rc::check([] {
//     RcChoices choices = RcChoices::Draw();
//     TraceHeader h = source->Header(choices);
//     for (int i = 0; choices.NextStep(); ++i) {
//       Step step = source->Next(choices);
//       ...
//     }
//   });
#ifndef SCHEDTRACE_PROPERTIES_RC_CHOICES_H_
#define SCHEDTRACE_PROPERTIES_RC_CHOICES_H_

#include <cstdint>
#include <vector>

#include "rapidcheck.h"
#include "run/choice_stream.h"

namespace schedtrace::properties {

class RcChoices : public ChoiceStream {
 public:
  // Choices per block: more than any one step draws (a new pod's
  // attributes and a perturbation's included); a step that draws more
  // gets the simplest answers past the end.
  static constexpr int kBlock = 48;
  static constexpr int kSpan = 1 << 16;

  // Draws the blocks: the header's, then one per step (RapidCheck's size
  // bounds their number).
  static RcChoices Draw() {
    // Each value over the whole span whatever RapidCheck's size (inRange
    // alone narrows its range with the size).
    const auto value = rc::gen::resize(100, rc::gen::inRange(0, kSpan));
    const auto block = rc::gen::container<std::vector<int>>(kBlock, value);
    RcChoices c;
    c.header_ = *block;
    c.steps_ = *rc::gen::container<std::vector<std::vector<int>>>(block);
    c.block_ = &c.header_;
    return c;
  }

  // Moves to the next step's block; false when there are no more steps.
  bool NextStep() {
    if (next_ >= steps_.size()) return false;
    block_ = &steps_[next_++];
    at_ = 0;
    return true;
  }

  int Uniform(int lo, int hi) override {
    const int64_t range = int64_t{hi} - lo + 1;
    return static_cast<int>(lo + Take() % range);
  }
  // Fires when the value is in the top share p of the span: the shrunk
  // value, 0, fires no chance below 1.
  bool Chance(double p) override {
    if (p >= 1) return true;
    return Take() >= kSpan - static_cast<int>(p * kSpan);
  }

 private:
  int Take() { return at_ < block_->size() ? (*block_)[at_++] : 0; }
  std::vector<int> header_;
  std::vector<std::vector<int>> steps_;
  const std::vector<int>* block_ = nullptr;
  size_t at_ = 0;
  size_t next_ = 0;
};

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_RC_CHOICES_H_
