// What the RapidCheck tests (properties/rc_source_test.cc) read from the
// environment, and how they report. Header-only: only tests include it (the
// properties library does not link RapidCheck).
//
//   RC_CASES, RC_SEED  the number of cases (default per test) and the seed
//                      (default fixed, so CI is reproducible)
//   SCHEDTRACE_GEN     the step source's options as `schedtrace gen` spells
//                      them (README, "The generator's flags"), e.g.
//                      SCHEDTRACE_GEN="--pods=40 --queue-pool=40"
//   RC_PERTURB         the informer perturbations (--perturb's syntax), read
//                      last
#ifndef SCHEDTRACE_PROPERTIES_RC_PARAMS_H_
#define SCHEDTRACE_PROPERTIES_RC_PARAMS_H_

#include <cstdlib>
#include <sstream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "rapidcheck.h"
#include "run/gen_options.h"

namespace schedtrace::properties {

// The options the source draws with: GenOptions' defaults with informer
// perturbations at "all:0.05", then SCHEDTRACE_GEN, then RC_PERTURB. Every
// flag of `schedtrace gen` is read except --seed and --steps (RC_SEED's and
// RapidCheck's) and --hostile (the tests judge valid sequences); those are
// errors rather than silently ignored. An error names the variable.
inline absl::StatusOr<GenOptions> RcGenOptions(GenOptions defaults = {}) {
  defaults.perturb = Perturbations::All(0.05);
  GenOptions options = defaults;
  if (const char* flags = std::getenv("SCHEDTRACE_GEN")) {
    absl::StatusOr<GenOptions> g = ApplyGenFlags(flags, defaults);
    if (!g.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("SCHEDTRACE_GEN: ", g.status().message()));
    }
    if (g->seed != defaults.seed || g->steps != defaults.steps || g->hostile) {
      return absl::InvalidArgumentError(
          "SCHEDTRACE_GEN: the RapidCheck tests take every flag of "
          "`schedtrace gen` but --seed, --steps and --hostile (RC_SEED and "
          "RapidCheck choose the seed and the length)");
    }
    options = *g;
  }
  if (const char* spec = std::getenv("RC_PERTURB")) {
    absl::StatusOr<Perturbations> p = ParsePerturbations(spec);
    if (!p.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("RC_PERTURB: ", p.status().message()));
    }
    options.perturb = *p;
  }
  return options;
}

// RC_CASES (default `cases`) and RC_SEED (default a fixed seed).
inline rc::detail::TestParams RcParams(int cases = 150) {
  rc::detail::TestParams p;
  p.maxSuccess = cases;
  p.maxSize = 60;  // steps per sequence at most
  p.seed = 20261122;
  if (const char* c = std::getenv("RC_CASES")) p.maxSuccess = std::atoi(c);
  if (const char* s = std::getenv("RC_SEED")) p.seed = std::strtoull(s, 0, 10);
  return p;
}

// The failure's text ("" when it passed).
inline std::string Describe(const rc::detail::TestResult& r) {
  std::ostringstream os;
  rc::detail::printResultMessage(r, os);
  return os.str();
}

}  // namespace schedtrace::properties

#endif  // SCHEDTRACE_PROPERTIES_RC_PARAMS_H_
