#include "cli/version_diff.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/codec.h"
#include "core/upstream_versions.h"
#include "model/system.h"
#include "nlohmann/json.hpp"
#include "properties/judged_upstreams.h"
#include "run/driven_system.h"
#include "run/state_diff.h"
#include "run/step_summary.h"

namespace schedtrace::cli {
namespace {

using nlohmann::json;

std::unique_ptr<System> MakeOn(const VersionDiffOptions& options,
                               const model::Upstream& profile) {
  return options.make_system ? options.make_system(profile)
                             : model::NewSystemOnProfile(profile);
}

bool KeepGoing(const VersionDiffOptions& options) {
  return !options.keep_going || options.keep_going();
}

// The trace's header as `version` reads it.
TraceHeader HeaderAs(const Trace& trace, const std::string& version) {
  TraceHeader h = trace.header;
  h.upstream = version;
  return h;
}

// What a version's run did at its last step (a snapshot taken after it).
VersionStep Did(const std::string& version, const DrivenSystem& run) {
  VersionStep did;
  did.version = version;
  if (run.refused()) {
    did.out = absl::StrCat("error: ", run.out().status().message());
    return did;
  }
  did.out = EncodeOut(*run.out());
  did.state = EncodeState(run.after());
  return did;
}

// `profile` from the header up to step `step` (0: the header alone), on a
// fresh system, without the version's config checks (a hybrid profile has
// none): what it did at `step`. nullopt when interrupted.
std::optional<VersionStep> RunTo(const Trace& trace,
                                 const model::Upstream& profile, int step,
                                 const VersionDiffOptions& options) {
  VersionStep did;
  did.version = profile.version;
  std::unique_ptr<System> system = MakeOn(options, profile);
  DrivenSystem run(*system);
  if (absl::Status s =
          run.Configure(HeaderAs(trace, profile.version), /*snapshots=*/false);
      !s.ok()) {
    did.out = absl::StrCat("refused: ", s.message());
    return did;
  }
  for (int i = 0; i < step; ++i) {
    if (!KeepGoing(options)) return std::nullopt;
    const bool last = i + 1 == step;
    run.Apply(trace.steps[i], /*snapshot=*/last);
    // A refusal before the step is what it did there too.
    if (last || run.refused()) return Did(profile.version, run);
    if (run.ended()) {
      did.out = "error: ended by a fatal step before this one";
      return did;
    }
  }
  return did;
}

// A JSON text as its value; anything else as a string.
json ValueOf(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return j.is_discarded() ? json(text) : j;
}

std::vector<Difference> Differences(const VersionStep& older,
                                    const VersionStep& newer, int step) {
  std::vector<Difference> d;
  if (step == 0) {
    d.push_back({"header", "changed",
                 older.out.empty() ? "(accepted)" : older.out,
                 newer.out.empty() ? "(accepted)" : newer.out});
    return d;
  }
  const json a = ValueOf(older.out), b = ValueOf(newer.out);
  if (a.is_object() && b.is_object()) {
    DiffOut(a, b, d);
  } else if (older.out != newer.out) {
    d.push_back({"out", "changed", older.out, newer.out});
  }
  if (!older.state.empty() && !newer.state.empty()) {
    DiffState(ValueOf(older.state), ValueOf(newer.state), nullptr, nullptr, d);
  } else if (older.state != newer.state) {
    d.push_back({"state", "changed",
                 older.state.empty() ? "(absent)" : older.state,
                 newer.state.empty() ? "(absent)" : newer.state});
  }
  return d;
}

// Step 1 and 2 of the search (version_diff.h); false when interrupted.
bool Attribute(const Trace& trace, int step, const VersionStep& older_did,
               const VersionStep& newer_did, PairChange& change,
               const VersionDiffOptions& options) {
  const model::Upstream older = *model::UpstreamProfile(change.older);
  const model::Upstream newer = *model::UpstreamProfile(change.newer);
  std::vector<const model::UpstreamSwitch*> differ;
  for (const model::UpstreamSwitch& s : model::UpstreamSwitches()) {
    if (older.*s.field != newer.*s.field) differ.push_back(&s);
  }
  if (step == 0) {
    change.cause = Cause::kHeader;
    return true;
  }
  if (differ.empty()) {
    change.cause = Cause::kNoSwitch;
    return true;
  }
  for (const model::UpstreamSwitch* s : differ) {
    model::Upstream hybrid = older;
    hybrid.*s->field = newer.*s->field;
    std::optional<VersionStep> did = RunTo(trace, hybrid, step, options);
    if (!did) return false;
    if (did->SameAs(newer_did, options.compare_state))
      change.switches.push_back(s);
  }
  if (!change.switches.empty()) {
    change.cause = Cause::kAlone;
    return true;
  }
  for (size_t i = 0; i < differ.size(); ++i) {
    for (size_t j = i + 1; j < differ.size(); ++j) {
      model::Upstream hybrid = older;
      hybrid.*differ[i]->field = newer.*differ[i]->field;
      hybrid.*differ[j]->field = newer.*differ[j]->field;
      std::optional<VersionStep> did = RunTo(trace, hybrid, step, options);
      if (!did) return false;
      if (!did->SameAs(newer_did, options.compare_state)) continue;
      if (change.switches.empty()) {
        change.switches = {differ[i], differ[j]};
      } else {
        ++change.other_pairs;
      }
    }
  }
  if (!change.switches.empty()) {
    change.cause = Cause::kTogether;
    return true;
  }
  for (const model::UpstreamSwitch* s : differ) {
    model::Upstream hybrid = newer;
    hybrid.*s->field = older.*s->field;
    std::optional<VersionStep> did = RunTo(trace, hybrid, step, options);
    if (!did) return false;
    if (did->SameAs(older_did, options.compare_state))
      change.switches.push_back(s);
  }
  if (!change.switches.empty()) {
    change.cause = Cause::kNeeded;
    return true;
  }
  change.cause = Cause::kCombination;
  change.switches = differ;
  return true;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ParseVersionList(std::string_view list,
                                                          size_t at_least) {
  std::set<std::string> given;
  for (absl::string_view part :
       absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    const std::string v(part);
    if (v.empty() || !IsKnownUpstream(v)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--versions takes known versions (", KnownUpstreamsText(),
          ") apart by commas, not \"", v, "\""));
    }
    if (!given.insert(v).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("--versions names ", v, " twice"));
    }
  }
  if (given.size() < at_least) {
    return absl::InvalidArgumentError(
        "--versions needs at least two versions to compare");
  }
  std::vector<std::string> ordered;
  for (const std::string& v : KnownUpstreams()) {
    if (given.contains(v)) ordered.push_back(v);
  }
  return ordered;
}

VersionDiff CompareVersions(const Trace& trace,
                            const VersionDiffOptions& options) {
  VersionDiff d;
  // The versions asked for whose layer the model judges; the others sit
  // this trace out (properties/judged_upstreams.h).
  for (const std::string& v :
       options.versions.empty() ? KnownUpstreams() : options.versions) {
    if (properties::ModelJudges(v, trace.header.layer)) {
      d.versions.push_back(v);
    } else {
      d.not_judged.push_back(v);
    }
  }
  d.steps = static_cast<int>(trace.steps.size());
  const size_t n = d.versions.size();
  if (n < 2) return d;  // nothing to compare: `same`, no step run
  const int header_line = trace.header_line > 0 ? trace.header_line : 1;

  // Each version's run and what it did at the last step it ran, kept as
  // values: compared as such at every step (cheaper than their JSON), and
  // encoded only where versions differ or stop.
  struct Run {
    std::unique_ptr<System> system;
    std::optional<DrivenSystem> run;  // once the version's profile is known
    bool stopped = false;  // refused a step or the header, or ended (fatal)
    bool at_header = true;
    std::string refusal;  // "refused: ..." or "error: ...", else ""
    bool SameAs(const Run& o, bool with_state) const {
      return refusal == o.refusal && at_header == o.at_header &&
             (!refusal.empty() || at_header ||
              (*run->out() == *o.run->out() &&
               (!with_state || run->after() == o.run->after())));
    }
    VersionStep Encoded(const std::string& version) const {
      VersionStep did;
      did.version = version;
      did.out = refusal;
      if (refusal.empty() && !at_header) {
        did.out = EncodeOut(*run->out());
        did.state = EncodeState(run->after());
      }
      return did;
    }
  };
  std::vector<Run> runs(n);
  // Each adjacent pair (v, v + 1): whether it is decided (differed, or
  // stopped alike), and its change when it differed.
  std::vector<bool> decided(n > 0 ? n - 1 : 0, false);
  std::vector<std::optional<PairChange>> pairs(decided.size());

  // Compares the pairs still open after a step (0: the header); records
  // the first difference of the trace; false when every pair is decided.
  auto compare = [&](int step, int line, const std::string& op,
                     const std::string& summary) {
    bool any_open = false;
    for (size_t p = 0; p < decided.size(); ++p) {
      if (decided[p]) continue;
      if (!runs[p].SameAs(runs[p + 1], options.compare_state)) {
        const VersionStep a = runs[p].Encoded(d.versions[p]);
        const VersionStep b = runs[p + 1].Encoded(d.versions[p + 1]);
        decided[p] = true;
        PairChange c;
        c.older = d.versions[p];
        c.newer = d.versions[p + 1];
        c.step = step;
        c.line = line;
        c.op = op;
        c.summary = summary;
        c.older_did = a;
        c.newer_did = b;
        c.differences = Differences(a, b, step);
        pairs[p] = std::move(c);
        if (d.same) {  // the trace's first difference: every version ran
          d.same = false;
          d.step = step;
          d.line = line;
          d.op = op;
          d.summary = summary;
          for (size_t v = 0; v < n; ++v) {
            d.did.push_back(runs[v].Encoded(d.versions[v]));
          }
        }
      } else if (runs[p].stopped) {
        decided[p] = true;  // stopped alike (so is the other)
      } else {
        any_open = true;
      }
    }
    return any_open;
  };

  // The header, each version with its own config checks.
  for (size_t v = 0; v < n; ++v) {
    const std::string& version = d.versions[v];
    const TraceHeader header = HeaderAs(trace, version);
    absl::StatusOr<model::Upstream> profile = model::UpstreamFor(header);
    absl::Status configured = profile.status();
    if (profile.ok()) {
      runs[v].system = MakeOn(options, *profile);
      runs[v].run.emplace(*runs[v].system);
      configured = runs[v].run->Configure(header, /*snapshots=*/false);
    }
    if (!configured.ok()) {
      runs[v].refusal = absl::StrCat("refused: ", configured.message());
      runs[v].stopped = true;
    }
  }
  bool open = compare(0, header_line, "", "");
  if (d.same && runs.front().stopped) {  // every version refused alike
    d.stopped = true;
    d.line = header_line;
    for (size_t v = 0; v < n; ++v) {
      d.did.push_back(runs[v].Encoded(d.versions[v]));
    }
    return d;
  }

  // The steps, side by side, while some pair still agrees; the versions
  // no open pair needs go no further.
  for (int i = 0; open && i < d.steps; ++i) {
    if (!KeepGoing(options)) {
      d.interrupted = true;
      return d;
    }
    const Step& step = trace.steps[i];
    for (size_t v = 0; v < n; ++v) {
      const bool needed =
          (v > 0 && !decided[v - 1]) || (v + 1 < n && !decided[v]);
      if (runs[v].stopped || !needed) continue;
      Run& r = runs[v];
      r.run->Apply(step, /*snapshot=*/true);
      r.at_header = false;
      if (r.run->refused()) {
        r.refusal = absl::StrCat("error: ", r.run->out().status().message());
      }
      // A refusal, or upstream's exit: the trace ends here for it.
      r.stopped = r.run->refused() || r.run->ended();
    }
    if (d.same) d.steps_run = i + 1;
    const bool errors = !runs.front().refusal.empty();
    open = compare(i + 1, step.line, std::string(OpName(step.op)),
                   StepSummary(step));
    if (d.same && !open && errors) {  // every version stopped alike here
      d.stopped = true;
      d.step = i + 1;
      d.line = step.line;
      d.op = std::string(OpName(step.op));
      d.summary = StepSummary(step);
      for (size_t v = 0; v < n; ++v) {
        d.did.push_back(runs[v].Encoded(d.versions[v]));
      }
    }
  }
  if (d.same) return d;

  // Why, upgrade by upgrade.
  for (std::optional<PairChange>& c : pairs) {
    if (!c) continue;
    if (!Attribute(trace, c->step, c->older_did, c->newer_did, *c, options)) {
      d.interrupted = true;
      return d;
    }
    d.changes.push_back(std::move(*c));
  }
  return d;
}

}  // namespace schedtrace::cli
