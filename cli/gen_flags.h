// The generator's flags on the command line: `schedtrace gen` and
// `schedtrace diff` (generated traces) take the same set, every option of
// run/gen_options.h's GenOptions, parsed and checked in one place
// (ApplyGenFlags there; the RapidCheck tests read the same flags from
// SCHEDTRACE_GEN).
//
//   .flags = JoinFlags({{layer_flag}, GenFlagSpecs(), {sut_flag}}),
//   ...
//   absl::StatusOr<GenOptions> options = GenOptionsFromFlags(cl);
//   if (!options.ok()) return
//   UsageError(std::string(options.status().message()));
#ifndef SCHEDTRACE_CLI_GEN_FLAGS_H_
#define SCHEDTRACE_CLI_GEN_FLAGS_H_

#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "run/generator.h"

namespace schedtrace::cli {

// One FlagSpec per GenFlags() entry, in its order, each help ending in its
// default. `seed_help`, when not empty, replaces --seed's help (diff: the
// first trace's seed).
std::vector<FlagSpec> GenFlagSpecs(const std::string& seed_help = "");

// The lists one after the other (a command's own flags around the
// generator's).
std::vector<FlagSpec> JoinFlags(
    std::initializer_list<std::vector<FlagSpec>> lists);

// The generator flags `cl` gives (the last value of each) applied to
// GenOptions{}: the options, or an InvalidArgument error for UsageError,
// naming the flag and its bad value.
absl::StatusOr<GenOptions> GenOptionsFromFlags(const CommandLine& cl);

// The first generator flag `cl` gives, in GenFlags() order; "" for none.
std::string FirstGenFlag(const CommandLine& cl);

}  // namespace schedtrace::cli

#endif  // SCHEDTRACE_CLI_GEN_FLAGS_H_
