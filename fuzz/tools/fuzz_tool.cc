// schedtrace_fuzz_tool: the fuzz targets' inputs outside libFuzzer.
//
//   schedtrace_fuzz_tool seed TARGET OUTDIR [--perturb=SPEC] PATH...
//       every golden trace under PATH as a seed of TARGET (one file each,
//       named after the trace: <dir>-<stem>.bin); codec seeds are the traces
//       themselves, quantity seeds every distinct quantity string they carry.
//       --perturb (queue, cache, scheduler only; anywhere after TARGET;
//       SPEC as `schedtrace gen --perturb`, e.g. all:0.125) writes seeds that
//       decode with informer perturbations: the perturbation header of the
//       levels nearest SPEC and draw nibbles from a seed hashed from the
//       file's name (WithPerturbations, WithDraws), named
//       perturbed-<dir>-<stem>.bin
//   schedtrace_fuzz_tool decode TARGET INPUT [OUT.jsonl]
//       a differential target's input as the trace it ran (source
//       "regression"), a replayable, minimizable .jsonl: valid targets with
//       expectations recorded from the model, hostile without (so an input
//       that crashes the model still decodes)
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

#include "fuzz/checks.h"
#include "fuzz/decoder.h"
#include "fuzz/encoder.h"
#include "fuzz/lockstep.h"
#include "harness/codec.h"
#include "harness/generator.h"
#include "harness/trace_files.h"
#include "model/system.h"

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

// FNV-1a: a seed from a file name, the same on every platform.
uint64_t NameSeed(std::string_view name) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : name) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

int Seed(const std::string& target, std::vector<std::string> args) {
  std::optional<PerturbLevels> levels;
  for (auto it = args.begin(); it != args.end();) {
    constexpr std::string_view kFlag = "--perturb=";
    if (!it->starts_with(kFlag)) {
      ++it;
      continue;
    }
    if (target != "queue" && target != "cache" && target != "scheduler") {
      return Usage("seed: --perturb is for queue, cache and scheduler only");
    }
    absl::StatusOr<Perturbations> p =
        ParsePerturbations(std::string_view(*it).substr(kFlag.size()));
    if (!p.ok()) {
      return Usage("seed: " + std::string(p.status().message()));
    }
    levels = LevelsFor(*p);
    it = args.erase(it);
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
    std::string bytes = target == "hostile" ? EncodeForHostile(*trace)
                                            : EncodeForFuzzing(*trace);
    std::string name = fs::path(f).parent_path().filename().string() + "-" +
                       fs::path(f).stem().string();
    if (levels) {
      name = "perturbed-" + name;
      bytes = WithDraws(LayerOf(target), WithPerturbations(bytes, *levels),
                        NameSeed(name));
    }
    name += ".bin";
    written += WriteFile(outdir / name, bytes);
  }
  int i = 0;
  for (const std::string& q : quantities) {
    written += WriteFile(outdir / ("q" + std::to_string(i++)), q);
  }
  std::cout << "seed " << target << ": " << written << " seeds in "
            << outdir.string() << "\n";
  return 0;
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
  // Valid mode needs the model's feedback and records its expectations;
  // hostile mode needs no feedback, and its trace is written without
  // expectations, so that an input that crashes the model still decodes
  // (minimize it differentially: --sut=impl --against=model).
  std::unique_ptr<System> model = model::NewSystem();
  const bool valid = mode == Mode::kValid;
  absl::StatusOr<Trace> trace = DecodeTrace(
      layer, mode, body, valid ? model.get() : nullptr, /*record=*/valid);
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
