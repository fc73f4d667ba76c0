// Pins what the decoder makes of fixed inputs: 300 pseudo-random byte strings
// per target (a fixed seed, so they never change; not the corpus, which the
// nightly run grows) are decoded as the target decodes them (with the
// model's feedback), written out with the trace codec, and hashed into one
// digest per target. A change to the decoder or to the step source's draws
// that is meant to keep the sequences (a speed-up, a refactoring) must keep
// these digests; one that changes them on purpose updates them here, after
// checking the traces it now makes, and re-derives corpus/.
//
// Changed on purpose: the step source reaches its corners
// (names, high clocks, clocks landing on the queue's boundaries, scores,
// respellings, fields given empty; README, "What generated traces reach"),
// then the corners only golden reached (required node affinity, pod-affinity
// selectors, ephemeral storage and init-container memory, Equal
// tolerations, late nominations; hostile blank uids, stray permits and
// wildcard events; clock leaps, wrapped ttls: docs/COVERAGE.md), drawing
// more choices: every digest changed, and corpus/ was re-derived (README,
// "Fuzzing"). Then the versions: config bits 6-7 choose the version whose
// profile runs (fuzz/byte_format.h), so the random inputs with those bits set
// now run v1.30.12 or v1.25.12: every digest changed; committed inputs keep
// their bytes and now spread over the three versions. Then v1.30.12's
// cache and scheduler pods got fractional requests one in eight
// (FractionalRequestCorners: pod_requests_summed_as_quantities), drawn only
// in that version: the cache, scheduler and hostile digests changed, the
// queue's did not, and corpus/ keeps its inputs (the v1.30.12 ones decode
// to such pods now and then). Then config bit 4 came to choose v1.35.4,
// v1.36.3 and v1.37.2: the inputs here clear it, so that these digests
// stay, and NewVersionTracesAreUnchanged pins the queue and cache layers
// with it set. Earlier changes are in the file's history.
//
// To see what changed: write the inputs out, run `schedtrace_fuzz_tool
// decode TARGET INPUT OUT.jsonl` from a build before and after, and diff.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/codec.h"
#include "fuzz/decoder.h"
#include "gtest/gtest.h"
#include "model/system.h"

namespace schedtrace::fuzz {
namespace {

// FNV-1a, 64 bits.
uint64_t Fnv(std::string_view s, uint64_t h = 0xcbf29ce484222325ULL) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// 300 inputs of 0 to 599 bytes. Every third one sets the config byte's
// perturbation bit, so the perturbation header is read too.
// With `new_versions`, config bit 4 is set in every input (v1.35.4 to
// v1.37.2), else cleared (the versions before it).
std::vector<std::string> Inputs(const std::string& target,
                                bool new_versions = false) {
  std::mt19937_64 rng(Fnv(target));
  std::vector<std::string> inputs;
  for (int i = 0; i < 300; ++i) {
    std::string data(rng() % 600, '\0');
    for (char& c : data) c = static_cast<char>(rng() & 0xff);
    const size_t config = target == "hostile" ? 1 : 0;
    if (i % 3 == 0 && data.size() > config) data[config] |= kPerturbHeaderBit;
    if (data.size() > config) {
      data[config] =
          static_cast<char>(new_versions ? data[config] | kVersionHighBit
                                         : data[config] & ~kVersionHighBit);
    }
    inputs.push_back(std::move(data));
  }
  return inputs;
}

// The trace `target` runs on `data`, as text.
std::string DecodedText(const std::string& target, std::string_view data,
                        const DecoderOptions& options) {
  Layer layer = target == "queue"   ? Layer::kQueue
                : target == "cache" ? Layer::kCache
                                    : Layer::kScheduler;
  Mode mode = Mode::kValid;
  if (target == "hostile") {
    if (data.empty()) return "";
    layer = HostileLayer(static_cast<uint8_t>(data[0]));
    mode = Mode::kHostile;
    data.remove_prefix(1);
  }
  std::unique_ptr<System> model = model::NewSystem();
  absl::StatusOr<Trace> trace =
      DecodeTrace(layer, mode, data, model.get(), /*record=*/false, options);
  EXPECT_TRUE(trace.ok()) << trace.status();
  return trace.ok() ? EncodeTrace(*trace) : trace.status().ToString();
}

// The digest of the decoded traces of `target`'s inputs.
std::string Digest(const std::string& target,
                   const DecoderOptions& options = {},
                   bool new_versions = false) {
  uint64_t h = Fnv("");
  for (const std::string& data : Inputs(target, new_versions)) {
    h = Fnv(DecodedText(target, data, options), h);
  }
  return absl::StrFormat("%016x", h);
}

DecoderOptions Forced(double p) {
  DecoderOptions o;
  o.perturb = Perturbations::All(p);
  return o;
}

TEST(DecoderPinTest, TracesAreUnchanged) {
  EXPECT_EQ(Digest("queue"), "c4e968d3b28436fe");
  EXPECT_EQ(Digest("cache"), "984f6a6e1d4a992f");
  EXPECT_EQ(Digest("scheduler"), "86fd38713374600c");
  EXPECT_EQ(Digest("hostile"), "86d49d952453f051");
}

// Config bit 4 set: v1.35.4, v1.36.3 and v1.37.2, on the layers whose
// traces the model judges in all three.
TEST(DecoderPinTest, NewVersionTracesAreUnchanged) {
  EXPECT_EQ(Digest("queue", {}, true), "3f5e289f135b4df2");
  EXPECT_EQ(Digest("cache", {}, true), "803118bdcc33a4d2");
}

// DecoderOptions::perturb: every kind forced, whatever the input's header.
TEST(DecoderPinTest, ForcedPerturbationTracesAreUnchanged) {
  EXPECT_EQ(Digest("queue", Forced(0.1)), "0bf8643b5c8845df");
  EXPECT_EQ(Digest("cache", Forced(0.1)), "80ae8c1befeefc67");
  EXPECT_EQ(Digest("scheduler", Forced(0.1)), "b019f8e5c17b2657");
}

}  // namespace
}  // namespace schedtrace::fuzz
