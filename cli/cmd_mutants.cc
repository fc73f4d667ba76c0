// schedtrace mutants: the planted bugs of the self-test (impl/mutants.h,
// mutants/patches/, docs/MUTANTS.md), one a line: name, the system it is
// planted in (impl or model), where, upstream reference, failure mode. In
// the mutants build (`schedtrace_mutants`, linked with the mutant copies of
// impl and the model) one of them is active when SCHEDTRACE_MUTANT=<name> is
// set, for every command:
//
//   export SCHEDTRACE_MUTANT=backoff-off-by-one
//   build/schedtrace_mutants replay --sut=impl golden/
//
// In the normal build the table is listed, but neither impl nor the model
// has a planted bug to activate.
#include <iostream>

#include "cli/command.h"
#include "cli/flags.h"
#include "impl/mutants.h"

namespace schedtrace::cli {
namespace {

int Mutants(const CommandLine& cl) {
  if (cl.Has("names")) {
    for (const impl::MutantInfo& m : impl::AllMutants()) {
      std::cout << m.name << "\n";
    }
    return 0;
  }
  if (!impl::MutantsBuild()) {
    std::cout << "# not a mutants build: the planted bugs are not in it "
                 "(mutants/patches/ plants them in schedtrace_mutants, built "
                 "with -DSCHEDTRACE_MUTANTS=ON)\n";
  } else {
    std::cout << "# active: " << impl::Info(impl::ActiveMutant()).name
              << " (SCHEDTRACE_MUTANT)\n";
  }
  for (const impl::MutantInfo& m : impl::AllMutants()) {
    std::cout << m.name << "\t" << impl::PlantedInName(m.planted_in) << "\t"
              << m.where << "\t" << (m.upstream.empty() ? "-" : m.upstream)
              << "\t" << m.description << "\n";
  }
  return 0;
}

const CommandRegistrar kMutants({
    .name = "mutants",
    .order = 90,
    .synopsis = "[--names]",
    .summary = "list the planted bugs of the self-test (SCHEDTRACE_MUTANT "
               "selects one in schedtrace_mutants)",
    .flags = {{.name = "names",
               .help = "print only the names, one a line",
               .boolean = true}},
    .run = &Mutants,
});

}  // namespace
}  // namespace schedtrace::cli
