// schedtrace_fuzz_tool: the fuzz targets' inputs outside libFuzzer.
//
//   schedtrace_fuzz_tool seed TARGET OUTDIR [--perturb=SPEC]
//                        [--generated=N] PATH...
//       every golden trace under PATH as a seed of TARGET (one file each,
//       named after the trace: <dir>-<stem>.bin; fuzz/encoder.h searches
//       for the choices that make the step source send steps like the
//       trace's); codec seeds are the traces themselves, quantity seeds
//       every distinct quantity string they carry.
//       --perturb (queue, cache, scheduler only; SPEC as `schedtrace gen
//       --perturb`, e.g. all:0.125) gives the seeds the perturbation header
//       of the levels nearest SPEC, named perturbed-<dir>-<stem>.bin.
//       --generated=N (queue, cache, scheduler, hostile) also writes N
//       seeded runs of the step source, seeds 1..N, each pool in turn
//       (gen-<pool>-<seed>.bin; with --perturb perturbed-gen-...): exactly
//       the steps `schedtrace gen` makes with those options
//   schedtrace_fuzz_tool decode TARGET INPUT [OUT.jsonl]
//       a differential target's input as the trace it ran (source
//       "regression"), a replayable, minimizable .jsonl: valid targets with
//       expectations recorded from the model, hostile without
//   schedtrace_fuzz_tool run TARGET PATH...
//       runs TARGET's check on every input file under PATH (no libFuzzer,
//       no sanitizers needed); one line per failure, the known upstream
//       violations hit (per id), and `N passed, M failed`
//
// TARGET is queue, cache, scheduler, hostile, codec or quantity (the
// binaries are fuzz_TARGET). Exit status: 0 nothing failed, 1 failures,
// 2 bad command line or unreadable input.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "core/codec.h"
#include "fuzz/checks.h"
#include "fuzz/decoder.h"
#include "fuzz/encoder.h"
#include "fuzz/lockstep.h"
#include "model/system.h"
#include "run/generator.h"
#include "run/trace_files.h"

namespace schedtrace::fuzz {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string>& Targets() {
  static const std::vector<std::string> kTargets = {
      "queue", "cache", "scheduler", "hostile", "codec", "quantity"};
  return kTargets;
}

bool IsDifferential(const std::string& t) {
  return t == "queue" || t == "cache" || t == "scheduler" || t == "hostile";
}

Layer LayerOf(const std::string& t) {
  return t == "queue"   ? Layer::kQueue
         : t == "cache" ? Layer::kCache
                        : Layer::kScheduler;
}

int Usage(const std::string& why) {
  std::cerr << "schedtrace_fuzz_tool: " << why
            << "\nusage: schedtrace_fuzz_tool seed TARGET OUTDIR "
               "[--perturb=SPEC] PATH...\n"
               "       schedtrace_fuzz_tool decode TARGET INPUT [OUT.jsonl]\n"
               "       schedtrace_fuzz_tool run TARGET PATH...\n"
               "TARGET: queue cache scheduler hostile codec quantity\n"
               "--perturb=SPEC (seed, queue cache scheduler only): "
               "resync:P,race:P,...\n"
               "  or all:P, as schedtrace gen --perturb\n";
  return 2;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

bool WriteFile(const fs::path& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
  return static_cast<bool>(out);
}

// Every regular file under `paths` (files as given, directories recursed),
// sorted.
std::vector<std::string> InputFiles(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
        if (e.is_regular_file()) files.push_back(e.path().string());
      }
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every quantity string a trace carries (containers, overhead, allocatable).
void CollectQuantities(const Trace& trace, std::set<std::string>* out) {
  auto pod = [&](const PodPtr& p) {
    if (p == nullptr) return;
    for (const auto* cs : {&p->containers, &p->init_containers}) {
      for (const Container& c : *cs) {
        for (const auto& [_, q] : c.requests) out->insert(q.text());
      }
    }
    for (const auto& [_, q] : p->overhead) out->insert(q.text());
  };
  auto node = [&](const NodePtr& n) {
    if (n == nullptr) return;
    for (const auto& [_, q] : n->allocatable) out->insert(q.text());
  };
  for (const Step& s : trace.steps) {
    pod(s.pod);
    pod(s.old_pod);
    pod(s.new_pod);
    node(s.node);
    node(s.old_node);
    node(s.new_node);
  }
}

// `n` seeded runs of the step source as seeds of `target`: seed i with pool
// i mod 4 (the hostile target's layer i mod 3).
int Generated(const std::string& target, const fs::path& outdir,
              const std::string& prefix, const PerturbLevels& levels, int n) {
  int written = 0;
  for (int i = 1; i <= n; ++i) {
    const int pool = i % static_cast<int>(kPools.size());
    std::string bytes;
    if (target == "hostile") {
      const Layer layer = HostileLayer(static_cast<uint8_t>(i));
      bytes = std::string(1, static_cast<char>(HostileLayerByte(layer))) +
              Recorded(layer, Mode::kHostile,
                       ConfigByte(pool, i / 3 % 4, false), {}, i, 60);
    } else {
      bytes = Recorded(LayerOf(target), Mode::kValid,
                       ConfigByte(pool, 0, false), levels, i, 60);
    }
    written += WriteFile(outdir / (prefix + "gen-" + std::to_string(pool) +
                                   "-" + std::to_string(i) + ".bin"),
                         bytes);
  }
  std::cout << "seed " << target << ": " << written << " generated seeds in "
            << outdir.string() << "\n";
  return 0;
}

int Seed(const std::string& target, std::vector<std::string> args) {
  PerturbLevels levels = {};
  bool perturbed = false;
  int generated = 0;
  for (auto it = args.begin(); it != args.end();) {
    constexpr std::string_view kPerturb = "--perturb=";
    constexpr std::string_view kGenerated = "--generated=";
    if (it->starts_with(kGenerated)) {
      if (!IsDifferential(target)) {
        return Usage("seed: --generated is for the differential targets");
      }
      const std::string n = it->substr(kGenerated.size());
      if (!absl::SimpleAtoi(n, &generated) || generated < 0) {
        return Usage("seed: --generated=" + n + " is not a count");
      }
      it = args.erase(it);
      continue;
    }
    if (!it->starts_with(kPerturb)) {
      ++it;
      continue;
    }
    if (target != "queue" && target != "cache" && target != "scheduler") {
      return Usage("seed: --perturb is for queue, cache and scheduler only");
    }
    absl::StatusOr<Perturbations> p =
        ParsePerturbations(std::string_view(*it).substr(kPerturb.size()));
    if (!p.ok()) {
      return Usage("seed: " + std::string(p.status().message()));
    }
    levels = LevelsFor(*p);
    perturbed = true;
    it = args.erase(it);
  }
  const std::string prefix = perturbed ? "perturbed-" : "";
  if (generated > 0 && args.size() == 1) {
    fs::create_directories(args[0]);
    return Generated(target, args[0], prefix, levels, generated);
  }
  if (args.size() < 2) return Usage("seed: OUTDIR and at least one PATH");
  const fs::path outdir = args[0];
  fs::create_directories(outdir);
  absl::StatusOr<std::vector<std::string>> files =
      FindTraceFiles({args.begin() + 1, args.end()});
  if (!files.ok()) return Usage(std::string(files.status().message()));
  int written = 0;
  std::set<std::string> quantities;
  for (const std::string& f : *files) {
    if (target == "codec") {
      std::string text;
      if (!ReadFile(f, &text)) return Usage("cannot read " + f);
      // The header and the first steps, at most 2.5 KB: keeps the corpus
      // small and the codec target fast.
      if (text.size() > 2560) {
        const size_t cut = text.rfind('\n', 2560);
        text.resize(cut == std::string::npos ? 0 : cut + 1);
      }
      if (text.empty()) continue;
      written += WriteFile(outdir / fs::path(f).filename(), text);
      continue;
    }
    absl::StatusOr<Trace> trace = ReadTraceFile(f);
    if (!trace.ok()) {
      std::cerr << "skipping " << f << ": " << trace.status().message() << "\n";
      continue;
    }
    if (target == "quantity") {
      CollectQuantities(*trace, &quantities);
      continue;
    }
    if (target != "hostile" && trace->header.layer != LayerOf(target)) {
      continue;
    }
    const std::string bytes = target == "hostile"
                                  ? EncodeForHostile(*trace)
                                  : EncodeForFuzzing(*trace, levels);
    const std::string name = prefix +
                             fs::path(f).parent_path().filename().string() +
                             "-" + fs::path(f).stem().string() + ".bin";
    written += WriteFile(outdir / name, bytes);
  }
  int i = 0;
  for (const std::string& q : quantities) {
    written += WriteFile(outdir / ("q" + std::to_string(i++)), q);
  }
  std::cout << "seed " << target << ": " << written << " seeds in "
            << outdir.string() << "\n";
  return generated > 0 ? Generated(target, outdir, prefix, levels, generated)
                       : 0;
}

int Decode(const std::string& target, const std::vector<std::string>& args) {
  if (!IsDifferential(target)) {
    return Usage("decode: only the differential targets have traces");
  }
  if (args.empty()) return Usage("decode: INPUT");
  std::string data;
  if (!ReadFile(args[0], &data)) return Usage("cannot read " + args[0]);
  Layer layer = LayerOf(target);
  Mode mode = Mode::kValid;
  std::string_view body = data;
  if (target == "hostile") {
    if (data.empty()) return Usage("decode: empty hostile input");
    layer = HostileLayer(static_cast<uint8_t>(data[0]));
    mode = Mode::kHostile;
    body.remove_prefix(1);
  }
  // The source steers by the model's outs, as in the target; valid mode
  // records the model's expectations, hostile mode writes none (minimize
  // it differentially: --sut=impl --against=model).
  std::unique_ptr<System> model = model::NewSystem();
  const bool valid = mode == Mode::kValid;
  absl::StatusOr<Trace> trace =
      DecodeTrace(layer, mode, body, model.get(), /*record=*/valid);
  if (!trace.ok()) {
    std::cerr << "decode: " << trace.status().message() << "\n";
    return 1;
  }
  trace->header.source = "regression";
  trace->header.name =
      "fuzz/" + target + "/" + fs::path(args[0]).filename().string();
  trace->header.description =
      "decoded from fuzz_" + target + " input " +
      fs::path(args[0]).filename().string() +
      (valid ? "; expectations recorded from the model" : "; no expectations");
  const std::string text = EncodeTrace(*trace);
  if (args.size() < 2) {
    std::cout << text;
    return 0;
  }
  return WriteFile(args[1], text) ? 0 : 2;
}

int Run(const std::string& target, const std::vector<std::string>& args) {
  if (args.empty()) return Usage("run: at least one PATH");
  int passed = 0, failed = 0;
  std::map<std::string, int> known;
  int impl_skipped = 0;
  for (const std::string& f : InputFiles(args)) {
    std::string data;
    if (!ReadFile(f, &data)) return Usage("cannot read " + f);
    std::string signature, message;
    if (IsDifferential(target)) {
      LockstepResult r;
      if (target == "hostile") {
        if (data.empty()) {
          ++passed;
          continue;
        }
        r = RunLockstep(HostileLayer(static_cast<uint8_t>(data[0])),
                        Mode::kHostile, std::string_view(data).substr(1));
      } else {
        r = RunLockstep(LayerOf(target), Mode::kValid, data);
      }
      impl_skipped += r.impl_skipped;
      for (const auto& [id, n] : r.known_counts) known[id] += n;
      if (r.failed) {
        signature = r.signature;
        message = r.message;
      }
    } else {
      std::optional<CheckFailure> c =
          target == "codec" ? CheckCodecRoundTrip(data) : CheckQuantity(data);
      if (c) {
        signature = c->signature;
        message = c->message;
      }
    }
    if (signature.empty()) {
      ++passed;
    } else {
      ++failed;
      std::cout << "FAIL " << f << ": " << signature << "\n" << message << "\n";
    }
  }
  for (const auto& [id, n] : known) {
    std::cout << "known violation " << id << ": " << n << " hits\n";
  }
  if (impl_skipped > 0) {
    std::cout << "impl does not implement the layer yet: " << impl_skipped
              << " inputs ran on the model alone\n";
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace
}  // namespace schedtrace::fuzz

int main(int argc, char** argv) {
  using namespace schedtrace::fuzz;
  if (argc < 3) return Usage("need a command and a TARGET");
  const std::string cmd = argv[1], target = argv[2];
  const auto& ts = Targets();
  if (std::find(ts.begin(), ts.end(), target) == ts.end()) {
    return Usage("unknown TARGET " + target);
  }
  std::vector<std::string> args(argv + 3, argv + argc);
  if (cmd == "seed") return Seed(target, args);
  if (cmd == "decode") return Decode(target, args);
  if (cmd == "run") return Run(target, args);
  return Usage("unknown command " + cmd);
}
