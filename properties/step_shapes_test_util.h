// What an informer perturbation looks like in a sequence of steps, for the
// tests that check a source makes them (rc_generator_test with the seeded
// stream, rc_source_test with RapidCheck's).
#ifndef SCHEDTRACE_PROPERTIES_STEP_SHAPES_TEST_UTIL_H_
#define SCHEDTRACE_PROPERTIES_STEP_SHAPES_TEST_UTIL_H_

#include "core/trace.h"

namespace schedtrace::properties {

// A resync: an update carrying the object unchanged.
inline bool IsResync(const Step& s) {
  return (s.op == Op::kPodUpdate || s.op == Op::kQUpdate ||
          s.op == Op::kCUpdatePod) &&
         s.old_pod && *s.old_pod == *s.new_pod;
}

// A re-create: a delete, then (`next`) an add of the same key with a new
// uid.
inline bool IsRecreate(const Step& s, const Step* next) {
  return (s.op == Op::kPodDelete || s.op == Op::kQDelete ||
          s.op == Op::kCRemovePod) &&
         next &&
         (next->op == Op::kPodAdd || next->op == Op::kQAdd ||
          next->op == Op::kCAddPod) &&
         next->pod->Key() == s.pod->Key() && next->pod->uid != s.pod->uid;
}

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_STEP_SHAPES_TEST_UTIL_H_
