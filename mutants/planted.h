// MutantActive: the switch the planted bugs are written with (docs/MUTANTS.md).
//
// Only the mutant copies include it, never impl's or the model's own sources:
// the build (SCHEDTRACE_MUTANTS=ON) writes them to <build>/mutants/impl/ by
// applying mutants/patches/FILE.patch to impl/FILE and to
// <build>/mutants/model/ by applying mutants/patches/model/FILE.patch to
// model/FILE, and compiles them into schedtrace_impl_mutants and
// schedtrace_model_mutants instead of the originals. A patch turns the code
// into the same code with the buggy variant next to the correct one:
//
//   if (MutantActive(Mutant::kTwoQueuesOnUpdate)) {
//     BackoffUpsert(h);  // planted: forgets to leave unschedulablePods
//   } else { ... }
//
// (a model copy, in namespace model, writes impl::MutantActive and
// impl::Mutant). Neither impl nor the model includes it (ci/check-layers:
// both are below mutants/): their production libraries have no planted
// branch at all. Which mutant is active is impl/mutants.h's ActiveMutant
// (SetActiveMutant, or SCHEDTRACE_MUTANT=<name>), one table for both.
#ifndef SCHEDTRACE_MUTANTS_PLANTED_H_
#define SCHEDTRACE_MUTANTS_PLANTED_H_

#include "impl/mutants.h"

#ifndef SCHEDTRACE_MUTANTS
#error "mutants/planted.h is for the mutants build (SCHEDTRACE_MUTANTS) only"
#endif

namespace schedtrace::impl {

// Whether `m` is the active mutant: its planted branch runs.
inline bool MutantActive(Mutant m) { return ActiveMutant() == m; }

}  // namespace schedtrace::impl

#endif  // SCHEDTRACE_MUTANTS_PLANTED_H_
