// Where a step source (run/step_source.h) takes every choice it makes:
// which op, which pod, how far the clock moves, whether a perturbation
// fires. The source decides what is valid; the stream only answers "which
// of these". The adapters:
//
//   RandomChoices   a seeded mt19937_64 (`schedtrace gen`, `diff --count`,
//                   the mutants' nets, ci/nightly-diff)
//   RcChoices       RapidCheck draws (properties/rc_choices.h): shrinking
//                   works on the choices, so a failing sequence shrinks to
//                   fewer steps and simpler choices, never to an invalid one
//   ByteChoices     a byte string read front to back: the libFuzzer
//                   targets' adapter (fuzz/decoder.h), so a mutated byte
//                   is a changed choice
//   RecordingChoices  any stream, with every choice it answers written as
//                   the bytes ByteChoices reads back as the same choice
//                   (fuzz seeds from seeded runs, fuzz/encoder.h)
//
// Every adapter reads "simpler" the same way: the lowest value of a range,
// and a chance that does not fire. A stream that runs dry keeps answering
// with them.
//
//   RandomChoices choices(7);
//   int i = choices.Uniform(0, 4);      // 0..4
//   if (choices.Chance(0.2)) ...;       // fires one time in five
#ifndef SCHEDTRACE_RUN_CHOICE_STREAM_H_
#define SCHEDTRACE_RUN_CHOICE_STREAM_H_

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace schedtrace {

class ChoiceStream {
 public:
  virtual ~ChoiceStream() = default;
  // A value in [lo, hi], lo <= hi.
  virtual int Uniform(int lo, int hi) = 0;
  // True with probability p (0..1).
  virtual bool Chance(double p) = 0;
  // The stream for choices a source gained after its first version (object
  // variety): a seeded stream keeps them apart, so a seed's sequence of
  // steps stays what it was when they were added. Other streams are one.
  virtual ChoiceStream& Variety() { return *this; }
};

// The seeded stream: the same seed, the same choices, in every process.
// Uniform and Chance are std::uniform_int_distribution and
// std::bernoulli_distribution on an mt19937_64, so a seed gives the traces
// the generators gave before the stream existed.
class RandomChoices : public ChoiceStream {
 public:
  explicit RandomChoices(uint64_t seed);
  int Uniform(int lo, int hi) override { return main_.Uniform(lo, hi); }
  bool Chance(double p) override { return main_.Chance(p); }
  ChoiceStream& Variety() override { return variety_; }

 private:
  class Rng : public ChoiceStream {
   public:
    explicit Rng(uint64_t seed) : rng_(seed) {}
    int Uniform(int lo, int hi) override;
    bool Chance(double p) override;

   private:
    std::mt19937_64 rng_;
  };
  Rng main_;
  Rng variety_;
};

// Choices read from bytes: Uniform takes as few bytes as its range needs (one
// for up to 256 values), little-endian, and answers lo + value mod range;
// Chance takes one byte and fires when it is at least 256 - ceil(256p) (so
// byte 0 never fires a chance below 1 and byte 255 fires every chance above
// 0). Past the end every byte reads as 0.
class ByteChoices : public ChoiceStream {
 public:
  // `data` must outlive the stream.
  explicit ByteChoices(std::string_view data) : data_(data) {}
  int Uniform(int lo, int hi) override;
  bool Chance(double p) override;
  // Whether every byte has been read (a source stops there).
  bool exhausted() const { return reads_ >= data_.size(); }
  // How many bytes the choices so far took, those read past the end (as 0)
  // included.
  size_t reads() const { return reads_; }

  // The bytes Uniform(lo, hi) takes (0 when lo == hi).
  static int UniformBytes(int lo, int hi);

 private:
  uint8_t Byte() {
    const size_t at = reads_++;
    return at < data_.size() ? static_cast<uint8_t>(data_[at]) : 0;
  }
  std::string_view data_;
  size_t reads_ = 0;
};

// Answers every choice from `inner` and appends to bytes() what ByteChoices
// reads back as the same answer: a seeded run written as a fuzz input.
// Chance is written as 255 (fired) or 0. Variety() draws on the inner
// stream's Variety() and writes to the same bytes, in call order, as
// ByteChoices (one stream) reads them.
class RecordingChoices : public ChoiceStream {
 public:
  // `inner` must outlive the stream.
  explicit RecordingChoices(ChoiceStream& inner)
      : inner_(inner), variety_(inner.Variety(), bytes_) {}
  int Uniform(int lo, int hi) override;
  bool Chance(double p) override;
  ChoiceStream& Variety() override { return variety_; }
  const std::string& bytes() const { return bytes_; }

 private:
  // The variety draws, written to the owner's bytes.
  class Side : public ChoiceStream {
   public:
    Side(ChoiceStream& inner, std::string& bytes)
        : inner_(inner), bytes_(bytes) {}
    int Uniform(int lo, int hi) override;
    bool Chance(double p) override;

   private:
    ChoiceStream& inner_;
    std::string& bytes_;
  };
  static int Record(std::string& bytes, int lo, int hi, int value);
  static bool Record(std::string& bytes, bool fired);

  ChoiceStream& inner_;
  std::string bytes_;
  Side variety_;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_CHOICE_STREAM_H_
