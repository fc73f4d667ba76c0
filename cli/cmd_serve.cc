// schedtrace serve: one of our own systems behind the child-process protocol
// (docs/FORMAT.md, "Child-process protocol"; docs/ADAPTERS.md), so that the
// whole exec: path can be tested end to end:
//
//   schedtrace replay --sut="exec:schedtrace serve --sut=impl" golden/
//
// Reads a header line, answers {"ok": true, "layers": [...]} (the layers the
// system implements; docs/FORMAT.md, "Capabilities"), then answers every
// step line with {"out": ..., "state": ...}. A later header line starts a new
// trace. A line that does not decode, or a step the system cannot apply, is
// answered {"ok": false, "error": "..."}. Exits 0 at the end of stdin.
//
// --upstream=V runs every trace as V and declares V in the header reply
// (docs/FORMAT.md, "Capabilities": the harness then skips the traces of
// other versions). --state and --ops declare narrower capabilities (and
// --state leaves the other parts out of every reply); --fatal-reply=exact
// answers a fatal step with only {"out": {"fatal": true}}, as the format
// words it; --fault makes it misbehave on purpose at step --fault-step, to
// see how a harness reports a broken child.
#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <map>
#include <set>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/suts.h"
#include "cli/upstream_flag.h"
#include "core/codec.h"
#include "core/json_codec.h"
#include "nlohmann/json.hpp"

namespace schedtrace::cli {
namespace {

using nlohmann::json;

std::set<std::string> SplitList(const std::string& s) {
  std::set<std::string> out;
  for (absl::string_view part : absl::StrSplit(s, ',', absl::SkipEmpty())) {
    out.insert(std::string(part));
  }
  return out;
}

// The layers `sut` implements for `upstream` (a version; "" is the
// default): those a fresh system accepts a header for.
std::vector<std::string> ImplementedLayers(const std::string& sut,
                                           const std::string& upstream = "") {
  std::vector<std::string> layers;
  for (Layer layer : {Layer::kQueue, Layer::kCache, Layer::kScheduler}) {
    absl::StatusOr<std::unique_ptr<System>> s = MakeSystem(sut);
    if (!s.ok()) continue;
    TraceHeader header;
    header.layer = layer;
    header.upstream = upstream;
    if ((*s)->Configure(header).code() != absl::StatusCode::kUnimplemented) {
      layers.push_back(std::string(LayerName(layer)));
    }
  }
  return layers;
}

std::string ErrorReply(const std::string& message) {
  return json{{"ok", false}, {"error", message}}.dump();
}

// What changed from `last` to `now` (both encoded snapshots), as a reply's
// `stateChanged` (docs/FORMAT.md, E13): the parts and the keys of queue and
// cache that differ, whole, but of cache.nodes only the NodeInfos that
// differ or appeared, and in cache.nodesRemoved the names of those that went.
json StateChanges(const json& last, const json& now) {
  json changed = json::object();
  for (const auto& [part, value] : now.items()) {
    auto was = last.find(part);
    if (was != last.end() && *was == value) continue;
    if ((part != "queue" && part != "cache") || was == last.end() ||
        !was->is_object() || !value.is_object()) {
      changed[part] = value;
      continue;
    }
    json keys = json::object();
    for (const auto& [key, v] : value.items()) {
      auto k = was->find(key);
      if (k != was->end() && *k == v) continue;
      if (part != "cache" || key != "nodes" || k == was->end()) {
        keys[key] = v;
        continue;
      }
      std::map<std::string, const json*> before;
      for (const json& n : *k) before[n.value("name", "")] = &n;
      json nodes = json::array();
      for (const json& n : v) {
        auto b = before.find(n.value("name", ""));
        if (b == before.end() || *b->second != n) nodes.push_back(n);
        if (b != before.end()) before.erase(b);
      }
      keys["nodes"] = std::move(nodes);
      if (!before.empty()) {
        json gone = json::array();
        for (const auto& [name, n] : before) gone.push_back(name);
        keys["nodesRemoved"] = std::move(gone);
      }
    }
    changed[part] = std::move(keys);
  }
  return changed;
}

// Keeps only the parts and keys `state` lists (docs/FORMAT.md, "Capabilities").
json FilterState(json state, const std::set<std::string>& keep) {
  json out = json::object();
  for (auto& [part, value] : state.items()) {
    if (keep.contains(part)) {
      out[part] = value;
      continue;
    }
    if (!value.is_object()) continue;
    json kept = json::object();
    for (auto& [key, v] : value.items()) {
      if (keep.contains(absl::StrCat(part, ".", key))) kept[key] = v;
    }
    if (!kept.empty()) out[part] = kept;
  }
  return out;
}

struct Fault {
  std::string kind;  // "" for none
  int step = 1;
};

// Misbehaves as asked, before answering step `step_no`; returns whether the
// normal reply is still to be written (and, for "extra", written twice).
bool InjectFault(const Fault& fault, int step_no, const std::string& reply) {
  if (fault.kind.empty()) return true;
  if (fault.kind == "stderr") {
    // A chatty child: far more than a pipe buffer holds, at every step.
    std::string noise(1 << 20, 'x');
    noise += "\n";
    std::cerr << "serve: noise before step " << step_no << "\n"
              << noise << std::flush;
    return true;
  }
  if (step_no != fault.step) return true;
  std::cerr << "serve: injected fault \"" << fault.kind << "\" at step "
            << step_no << std::endl;
  if (fault.kind == "crash") abort();
  if (fault.kind == "exit") _exit(3);
  if (fault.kind == "hang") {
    for (;;) pause();
  }
  if (fault.kind == "garbage") {
    std::cout << "this is not a reply" << std::endl;
    return false;
  }
  if (fault.kind == "extra") {
    std::cout << reply << "\n" << reply << std::endl;
    return false;
  }
  return true;
}

int Serve(const CommandLine& cl) {
  const std::string sut = cl.Last("sut", "model");
  if (sut.rfind("exec:", 0) == 0) {
    return UsageError("serve: --sut=model or --sut=impl");
  }
  if (absl::StatusOr<std::unique_ptr<System>> s = MakeSystem(sut); !s.ok()) {
    return UsageError(std::string(s.status().message()));
  }
  Fault fault;
  fault.kind = cl.Last("fault", "");
  if (!fault.kind.empty() &&
      !SplitList("crash,exit,hang,garbage,extra,stderr").contains(fault.kind)) {
    return UsageError("serve: --fault=crash|exit|hang|garbage|extra|stderr");
  }
  if (!absl::SimpleAtoi(cl.Last("fault-step", "1"), &fault.step)) {
    return UsageError("serve: --fault-step takes a step number");
  }
  const std::string fatal_reply = cl.Last("fatal-reply", "full");
  if (fatal_reply != "full" && fatal_reply != "exact") {
    return UsageError("serve: --fatal-reply=full|exact");
  }
  absl::StatusOr<std::optional<std::string>> upstream = UpstreamFlag(cl);
  if (!upstream.ok())
    return UsageError(std::string(upstream.status().message()));
  const bool filter_state = cl.Has("state");
  const bool state_changes = cl.Has("state-changes");
  json last_state;  // what the last reply showed (--state-changes)
  const std::set<std::string> state_parts = SplitList(cl.Last("state", ""));
  json hello = {{"ok", true}, {"layers", ImplementedLayers(sut)}};
  if (cl.Has("ops")) hello["ops"] = SplitList(cl.Last("ops", ""));
  if (filter_state) hello["state"] = state_parts;
  if (*upstream) hello["upstream"] = **upstream;

  std::ios::sync_with_stdio(false);
  std::unique_ptr<System> system;
  std::unique_ptr<TraceDecoder> decoder;
  std::string line;
  int line_no = 0, step_no = 0;
  while (std::getline(std::cin, line)) {
    ++line_no;
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    json probe = json::parse(line, nullptr, /*allow_exceptions=*/false);
    std::string reply;
    if (!decoder || (probe.is_object() && probe.contains("schedtrace"))) {
      decoder = std::make_unique<TraceDecoder>("<stdin>");
      step_no = 0;
      last_state = json::object();
      absl::StatusOr<TraceHeader> header = decoder->DecodeHeader(line, line_no);
      absl::Status configured = header.status();
      if (header.ok()) {
        OverrideUpstream(*upstream, *header);
        system = *MakeSystem(sut);
        configured = system->Configure(*header);
      }
      if (configured.ok()) {
        reply = hello.dump();
      } else {
        json no = hello;
        no["ok"] = false;
        no["error"] = std::string(configured.message());
        // A layer the system does not implement in this version (from
        // v1.35 the layers come one by one): the layers it does implement
        // there, so that the replayer skips the trace.
        if (absl::IsUnimplemented(configured)) {
          no["layers"] = ImplementedLayers(sut, header->upstream);
        }
        reply = no.dump();
        decoder.reset();
      }
    } else {
      ++step_no;
      absl::StatusOr<Step> step = decoder->DecodeStep(line, line_no);
      absl::StatusOr<StepOut> out =
          step.ok() ? system->Apply(*step) : step.status();
      if (!out.ok()) {
        reply = ErrorReply(std::string(out.status().message()));
      } else if (out->fatal && fatal_reply == "exact") {
        // Exactly what docs/FORMAT.md asks of a fatal step: no state.
        reply = "{\"out\":{\"fatal\":true}}";
      } else {
        json state = StateToJson(system->Snapshot());
        if (filter_state) state = FilterState(std::move(state), state_parts);
        if (state_changes) {
          json changed = StateChanges(last_state, state);
          last_state = std::move(state);
          reply = absl::StrCat("{\"out\":", EncodeOut(*out),
                               ",\"stateChanged\":", changed.dump(), "}");
        } else {
          reply = absl::StrCat("{\"out\":", EncodeOut(*out),
                               ",\"state\":", state.dump(), "}");
        }
      }
      if (!InjectFault(fault, step_no, reply)) continue;
    }
    std::cout << reply << std::endl;
  }
  return 0;
}

const CommandRegistrar kServe({
    .name = "serve",
    .order = 70,
    .synopsis = "[--sut=model|impl] [--upstream=V] [--state=PARTS] "
                "[--state-changes] "
                "[--ops=OPS] [--fatal-reply=full|exact] "
                "[--fault=KIND --fault-step=N]",
    .summary = "speak the child-process protocol on stdin/stdout (what an "
               "exec:CMD system does)",
    .flags = {{"sut", "the system behind the protocol (default model)"},
              {"upstream",
               "run every trace as this upstream version (" +
                   KnownUpstreamsText() +
                   "), whatever its header says, and declare it in the "
                   "header reply (a harness then skips the traces of other "
                   "versions)"},
              {"state",
               "declare and report only these state parts or keys, "
               "comma-separated (e.g. queue,cache.nodes)"},
              {"ops", "declare only these ops, comma-separated"},
              {.name = "state-changes",
               .help = "answer each step with what changed since the last "
                       "reply (stateChanged, docs/FORMAT.md E13) instead of "
                       "the whole state",
               .boolean = true},
              {"fatal-reply",
               "full (default): a fatal step's reply carries the system's out "
               "and state; exact: only {\"out\": {\"fatal\": true}}, as "
               "docs/FORMAT.md words it"},
              {"fault",
               "misbehave on purpose: crash, exit, hang, garbage, extra "
               "(at --fault-step) or stderr (1 MiB before every reply)"},
              {"fault-step", "the step --fault strikes at (default 1)"}},
    .run = &Serve,
});

}  // namespace
}  // namespace schedtrace::cli
