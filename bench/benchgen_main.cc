// schedtrace-benchgen: writes a large benchmark input (bench/bench_gen.h).
//
//   schedtrace-benchgen [--seed=N] [--nodes=N] [--pods=N]
//                       [--mode=churn|pending] [--drive=model|impl]
//                       [--out=FILE]
//
// A program of its own rather than a `schedtrace gen` mode: it is needed only
// to make benchmark inputs (bench/make-inputs), and streams a few hundred MB
// of steps that `gen`'s in-memory, expectation-recording design is not for.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "bench/bench_gen.h"
#include "impl/system.h"
#include "model/system.h"

namespace {

int Usage(const std::string& message) {
  std::cerr << "schedtrace-benchgen: " << message << "\n"
            << "usage: schedtrace-benchgen [--seed=N] [--nodes=N] [--pods=N] "
               "[--mode=churn|pending] [--drive=model|impl] [--out=FILE]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  schedtrace::bench::BenchGenOptions options;
  std::string drive = "model";
  std::string out_path;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) {
      return Usage("unexpected argument " + arg);
    }
    std::string name = arg.substr(2, eq - 2);
    std::string value = arg.substr(eq + 1);
    bool ok = true;
    if (name == "seed") {
      ok = absl::SimpleAtoi(value, &options.seed);
    } else if (name == "nodes") {
      ok = absl::SimpleAtoi(value, &options.nodes) && options.nodes > 0;
    } else if (name == "pods") {
      ok = absl::SimpleAtoi(value, &options.pods) && options.pods >= 0;
    } else if (name == "mode") {
      ok = value == "churn" || value == "pending";
      options.mode = value == "pending"
                         ? schedtrace::bench::BenchGenMode::kPending
                         : schedtrace::bench::BenchGenMode::kChurn;
    } else if (name == "drive") {
      ok = value == "model" || value == "impl";
      drive = value;
    } else if (name == "out") {
      out_path = value;
    } else {
      return Usage("unknown flag --" + name);
    }
    if (!ok) return Usage("bad value for --" + name + ": " + value);
  }
  std::unique_ptr<schedtrace::System> sut =
      drive == "impl" ? schedtrace::impl::NewSystem()
                      : schedtrace::model::NewSystem();
  std::ofstream file;
  if (!out_path.empty()) {
    file.open(out_path, std::ios::binary);
    if (!file) return Usage("cannot write " + out_path);
  }
  std::ostream& out = out_path.empty() ? std::cout : file;
  absl::StatusOr<schedtrace::bench::BenchGenStats> stats =
      schedtrace::bench::GenerateBenchTrace(*sut, options, out);
  if (!stats.ok()) {
    std::cerr << "schedtrace-benchgen: " << stats.status() << "\n";
    return 1;
  }
  std::cerr << "schedtrace-benchgen: " << stats->steps << " steps, at most "
            << stats->max_pending << " pods pending at once, " << stats->bound
            << " bound at the end;";
  for (const auto& [op, n] : stats->ops) std::cerr << " " << op << " " << n;
  std::cerr << "\n";
  return 0;
}
