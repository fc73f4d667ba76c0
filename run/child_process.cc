#include "run/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/codec.h"
#include "core/json_codec.h"
#include "core/upstream_versions.h"
#include "nlohmann/json.hpp"
#include "run/interrupt.h"

namespace schedtrace {
namespace {

// Applies a reply's `stateChanged` (docs/FORMAT.md, E13) to `state`, what
// the child showed before, and says in `touch` what it changed: each part
// and key given replaces the one held, but `cache.nodes`, whose NodeInfos
// replace those of the same name (or join the list, in name order), and
// `cache.nodesRemoved`, the names of those that went.
absl::Status ApplyStateChanged(const nlohmann::json& changed, State& state,
                               StateTouch& touch) {
  using T = StateTouch;
  if (!changed.is_object()) return absl::InvalidArgumentError("not an object");
  nlohmann::json parts = changed;
  std::vector<std::string> removed;
  if (auto cache = parts.find("cache");
      cache != parts.end() && cache->is_object()) {
    if (auto gone = cache->find("nodesRemoved"); gone != cache->end()) {
      if (!gone->is_array()) {
        return absl::InvalidArgumentError(
            "state.cache.nodesRemoved is not a list of names");
      }
      for (const nlohmann::json& name : *gone) {
        if (!name.is_string()) {
          return absl::InvalidArgumentError(
              "state.cache.nodesRemoved is not a list of names");
        }
        removed.push_back(name.get<std::string>());
      }
      cache->erase(gone);
    }
  }
  absl::StatusOr<State> given = StateFromJson(parts);
  if (!given.ok()) return given.status();
  touch.Clear();
  if (given->queue) {
    QueueState& q = state.queue ? *state.queue : state.queue.emplace();
    const nlohmann::json& keys = parts["queue"];
    if (keys.contains("active")) {
      q.active = std::move(given->queue->active);
      touch.Add(T::kActive);
    }
    if (keys.contains("backoff")) {
      q.backoff = std::move(given->queue->backoff);
      touch.Add(T::kBackoff);
    }
    if (keys.contains("unschedulable")) {
      q.unschedulable = std::move(given->queue->unschedulable);
      touch.Add(T::kUnschedulable);
    }
    if (keys.contains("schedulingCycle")) {
      q.scheduling_cycle = given->queue->scheduling_cycle;
      touch.Add(T::kCycles);
    }
    if (keys.contains("moveRequestCycle")) {
      q.move_request_cycle = given->queue->move_request_cycle;
      touch.Add(T::kCycles);
    }
  }
  if (given->nominated) {
    state.nominated = std::move(given->nominated);
    touch.Add(T::kNominated);
  }
  if (given->cache || !removed.empty()) {
    CacheState& c = state.cache ? *state.cache : state.cache.emplace();
    const nlohmann::json& keys = parts["cache"];
    auto at = [&c](const std::string& name) {
      return std::lower_bound(c.nodes.begin(), c.nodes.end(), name,
                              [](const NodeInfoState& n, const std::string& k) {
                                return n.name < k;
                              });
    };
    for (const std::string& name : removed) {
      auto it = at(name);
      if (it == c.nodes.end() || it->name != name) {
        return absl::InvalidArgumentError(
            absl::StrCat("state.cache.nodesRemoved names ", name,
                         ", which it never showed"));
      }
      c.nodes.erase(it);
      touch.Add(T::kNodeSet);
    }
    if (given->cache) {
      for (NodeInfoState& n : given->cache->nodes) {
        auto it = at(n.name);
        if (it != c.nodes.end() && it->name == n.name) {
          touch.AddNode(n.name);
          *it = std::move(n);
        } else {
          touch.Add(T::kNodeSet);
          c.nodes.insert(it, std::move(n));
        }
      }
      if (keys.contains("assumed")) {
        c.assumed = std::move(given->cache->assumed);
        touch.Add(T::kAssumed);
      }
      if (keys.contains("bindingFinished")) {
        c.binding_finished = std::move(given->cache->binding_finished);
        touch.Add(T::kBindingFinished);
      }
    }
  }
  if (given->waiting) {
    state.waiting = std::move(given->waiting);
    touch.Add(T::kWaiting);
  }
  if (given->parked) {
    state.parked = std::move(given->parked);
    touch.Add(T::kParked);
  }
  return absl::OkStatus();
}

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Shows at most `n` bytes of what a child wrote.
std::string Excerpt(std::string_view s, size_t n = 200) {
  if (s.size() <= n) return std::string(s);
  return absl::StrCat(std::string(s.substr(0, n)), "... (", s.size(),
                      " bytes)");
}

void CloseFd(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

bool SetNonBlocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

// Writing to a child that died must fail with EPIPE, not kill the harness.
void IgnoreSigpipeOnce() {
  static const bool done = [] {
    signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)done;
}

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) {
    return absl::StrCat("the child exited with status ", WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    const char* name = strsignal(WTERMSIG(status));
    return absl::StrCat("the child was killed by signal ", WTERMSIG(status),
                        name ? absl::StrCat(" (", name, ")") : "");
  }
  return "the child stopped";
}

absl::StatusOr<std::optional<std::set<std::string>>> NameList(const json& reply,
                                                              const char* key) {
  auto it = reply.find(key);
  if (it == reply.end() || it->is_null()) return std::nullopt;
  if (!it->is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "header reply: field \"", key, "\": expected a list of strings"));
  }
  std::set<std::string> names;
  for (const json& e : *it) {
    if (!e.is_string()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "header reply: field \"", key, "\": expected a list of strings"));
    }
    names.insert(e.get<std::string>());
  }
  return names;
}

}  // namespace

bool Capabilities::SupportsLayer(Layer layer) const {
  return !layers || layers->contains(std::string(LayerName(layer)));
}

bool Capabilities::SupportsOp(Op op) const {
  return !ops || ops->contains(std::string(OpName(op)));
}

bool Capabilities::ReportsState(std::string_view path) const {
  if (!state || state->contains(std::string(path))) return true;
  size_t dot = path.find('.');
  if (dot != std::string_view::npos) {
    return state->contains(std::string(path.substr(0, dot)));
  }
  const std::string prefix = std::string(path) + ".";
  for (const std::string& s : *state) {
    if (s.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

absl::StatusOr<Capabilities> ParseCapabilities(std::string_view reply_json) {
  json reply = json::parse(reply_json, nullptr, /*allow_exceptions=*/false);
  if (!reply.is_object()) {
    return absl::InvalidArgumentError("header reply: not a JSON object");
  }
  Capabilities caps;
  absl::StatusOr<std::optional<std::set<std::string>>> list =
      NameList(reply, "layers");
  if (!list.ok()) return list.status();
  caps.layers = *std::move(list);
  list = NameList(reply, "ops");
  if (!list.ok()) return list.status();
  caps.ops = *std::move(list);
  list = NameList(reply, "state");
  if (!list.ok()) return list.status();
  caps.state = *std::move(list);
  if (auto it = reply.find("upstream"); it != reply.end() && !it->is_null()) {
    if (!it->is_string() || it->get<std::string>().empty() ||
        !IsKnownUpstream(it->get<std::string>())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "header reply: field \"upstream\": expected one of ",
          KnownUpstreamsText(), ", not ",
          Excerpt(it->dump(-1, ' ', false, json::error_handler_t::replace))));
    }
    caps.upstream = it->get<std::string>();
  }
  return caps;
}

ChildProcess::ChildProcess(std::string command, ChildOptions options)
    : command_(std::move(command)), options_(options) {}

ChildProcess::~ChildProcess() { Stop(); }

std::string ChildProcess::StderrTail() const {
  std::vector<std::string> lines(stderr_lines_.begin(), stderr_lines_.end());
  if (!stderr_partial_.empty()) lines.push_back(stderr_partial_);
  return absl::StrJoin(lines, "\n");
}

void ChildProcess::AddStderr(std::string_view bytes) {
  stderr_partial_.append(bytes);
  size_t start = 0, nl;
  while ((nl = stderr_partial_.find('\n', start)) != std::string::npos) {
    stderr_lines_.push_back(Excerpt(
        std::string_view(stderr_partial_).substr(start, nl - start), 500));
    if (stderr_lines_.size() > static_cast<size_t>(options_.stderr_lines)) {
      stderr_lines_.pop_front();
    }
    start = nl + 1;
  }
  stderr_partial_.erase(0, start);
  // A child spamming one endless line keeps only its end.
  if (stderr_partial_.size() > 4096) {
    stderr_partial_.erase(0, stderr_partial_.size() - 500);
  }
}

void ChildProcess::DrainStderr() {
  char buf[4096];
  while (stderr_fd_ >= 0) {
    ssize_t n = read(stderr_fd_, buf, sizeof(buf));
    if (n > 0) {
      AddStderr(std::string_view(buf, n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      if (n == 0) CloseFd(&stderr_fd_);  // EOF; EAGAIN leaves it open
      return;
    }
  }
}

absl::Status ChildProcess::Start() {
  Stop();
  if (Interrupted()) return absl::CancelledError("interrupted");
  IgnoreSigpipeOnce();
  stdout_buf_.clear();
  stderr_partial_.clear();
  stderr_lines_.clear();
  exit_description_.clear();
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) {
    return absl::InternalError(absl::StrCat("pipe: ", strerror(errno)));
  }
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    return absl::InternalError(absl::StrCat("pipe: ", strerror(errno)));
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
    return absl::InternalError(absl::StrCat("pipe: ", strerror(errno)));
  }
  // Prepared before fork: the child may only make async-signal-safe calls.
  std::string sh = "/bin/sh", dash_c = "-c";
  char* argv[] = {sh.data(), dash_c.data(), command_.data(), nullptr};
  // No SIGINT or SIGTERM between fork and the registration of the child's
  // group: the handler must find every child (run/interrupt.h).
  BlockInterrupts block;
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // one group: Stop() kills grandchildren too
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    struct sigaction dfl = {};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, nullptr);  // ignored signals survive exec
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execv("/bin/sh", argv);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (pid < 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  }
  setpgid(pid, pid);  // also here, so the group exists whichever runs first
  RegisterChildGroup(pid);
  pid_ = pid;
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  stderr_fd_ = err[0];
  for (int fd : {stdin_fd_, stdout_fd_, stderr_fd_}) {
    if (!SetNonBlocking(fd)) {
      return Fail(absl::StatusCode::kInternal,
                  absl::StrCat("fcntl: ", strerror(errno)));
    }
  }
  return absl::OkStatus();
}

void ChildProcess::Stop() {
  CloseFd(&stdin_fd_);
  if (pid_ > 0) {
    // A child that already exited (it crashed, or ended on its own) keeps
    // its real status; give one that is exiting a moment to finish.
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    for (int i = 0; r == 0 && i < 20; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      r = waitpid(pid_, &status, WNOHANG);
    }
    if (r == 0) {
      if (kill(-pid_, SIGKILL) != 0) kill(pid_, SIGKILL);
      while ((r = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
      }
      if (r == pid_) exit_description_ = "the child was killed";
    } else if (r == pid_) {
      exit_description_ = DescribeWaitStatus(status);
      kill(-pid_, SIGKILL);  // grandchildren it may have left behind
    }
    UnregisterChildGroup(pid_);
    pid_ = -1;
  }
  DrainStderr();
  CloseFd(&stdout_fd_);
  CloseFd(&stderr_fd_);
  configured_ = false;
}

absl::Status ChildProcess::Fail(absl::StatusCode code,
                                const std::string& message) {
  Stop();
  std::string text = absl::StrCat("exec:", command_, ": ", message);
  if (!exit_description_.empty())
    absl::StrAppend(&text, "; ", exit_description_);
  std::string tail = StderrTail();
  if (tail.empty()) {
    absl::StrAppend(&text, "; no stderr output");
  } else {
    absl::StrAppend(&text, "; last stderr lines:\n    | ",
                    absl::StrJoin(absl::StrSplit(tail, '\n'), "\n    | "));
  }
  return absl::Status(code, text);
}

absl::StatusOr<std::string> ChildProcess::Exchange(const std::string& line,
                                                   const std::string& what) {
  if (pid_ < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("exec:", command_, ": no child running for ", what));
  }
  if (absl::Status s = RefuseUnaskedOutput(what); !s.ok()) return s;
  const std::string pending = line + "\n";
  size_t written = 0;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(options_.timeout_ms);
  for (;;) {
    if (written == pending.size()) {
      size_t nl = stdout_buf_.find('\n');
      if (nl != std::string::npos) {
        std::string reply = stdout_buf_.substr(0, nl);
        stdout_buf_.erase(0, nl + 1);
        if (!reply.empty() && reply.back() == '\r') reply.pop_back();
        return reply;
      }
    }
    if (stdout_buf_.size() > options_.max_line_bytes) {
      return Fail(absl::StatusCode::kDataLoss,
                  absl::StrCat("reply to ", what, " is longer than ",
                               options_.max_line_bytes, " bytes"));
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - Clock::now())
                          .count();
    if (left <= 0) {
      return Fail(absl::StatusCode::kDeadlineExceeded,
                  absl::StrCat("no reply to ", what, " within ",
                               options_.timeout_ms, " ms (--timeout-ms)"));
    }
    if (absl::Status s =
            PollOnce(pending, &written, static_cast<int>(left), what);
        !s.ok()) {
      return s;
    }
  }
}

absl::Status ChildProcess::RefuseUnaskedOutput(const std::string& what) {
  // A line that arrived after the last reply was not asked for.
  char buf[65536];
  for (;;) {
    ssize_t n = read(stdout_fd_, buf, sizeof(buf));
    if (n > 0) {
      stdout_buf_.append(buf, n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;  // EAGAIN, or EOF (seen again by PollOnce)
  }
  if (!stdout_buf_.empty()) {
    return Fail(absl::StatusCode::kDataLoss,
                absl::StrCat("wrote more than one line for one request: \"",
                             Excerpt(stdout_buf_), "\" before ", what));
  }
  return absl::OkStatus();
}

absl::Status ChildProcess::PollOnce(const std::string& pending, size_t* written,
                                    int timeout_ms, const std::string& what) {
  pollfd fds[3];
  int n = 0;
  int in_i = -1, out_i = -1, err_i = -1;
  if (*written < pending.size()) {
    in_i = n;
    fds[n++] = {stdin_fd_, POLLOUT, 0};
  }
  out_i = n;
  fds[n++] = {stdout_fd_, POLLIN, 0};
  if (stderr_fd_ >= 0) {
    err_i = n;
    fds[n++] = {stderr_fd_, POLLIN, 0};
  }
  int ready = poll(fds, n, timeout_ms);
  if (ready < 0) {
    if (errno == EINTR) return absl::OkStatus();
    return Fail(absl::StatusCode::kInternal,
                absl::StrCat("poll: ", strerror(errno)));
  }
  if (err_i >= 0 && fds[err_i].revents != 0) DrainStderr();
  if (in_i >= 0 && fds[in_i].revents != 0) {
    ssize_t w =
        write(stdin_fd_, pending.data() + *written, pending.size() - *written);
    if (w > 0) {
      *written += w;
    } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
      return Fail(absl::StatusCode::kUnavailable,
                  absl::StrCat("stopped reading its stdin before ", what,
                               " was written (", strerror(errno), ")"));
    }
  }
  if (fds[out_i].revents != 0) {
    char buf[65536];
    ssize_t r = read(stdout_fd_, buf, sizeof(buf));
    if (r > 0) {
      stdout_buf_.append(buf, r);
    } else if (r == 0) {
      std::string partial = stdout_buf_.empty()
                                ? ""
                                : absl::StrCat(" (after an unfinished line \"",
                                               Excerpt(stdout_buf_), "\")");
      return Fail(
          absl::StatusCode::kUnavailable,
          absl::StrCat("closed its stdout before answering ", what, partial));
    } else if (errno != EAGAIN && errno != EINTR) {
      return Fail(absl::StatusCode::kInternal,
                  absl::StrCat("read: ", strerror(errno)));
    }
  }
  return absl::OkStatus();
}

absl::Status ChildProcess::RefuseLayer(const std::string& reason) {
  const std::string child = absl::StrCat("exec:", command_, ": ");
  if (options_.refusals) {
    options_.refusals->RefusedLayer(layer_, child, reason);
  }
  return absl::UnimplementedError(absl::StrCat(child, reason));
}

absl::Status ChildProcess::Configure(const TraceHeader& header) {
  state_ = State{};
  out_as_sent_.reset();
  state_reply_.reset();
  state_as_sent_.reset();
  capabilities_ = Capabilities{};
  layer_ = header.layer;
  const std::string trace_version(EffectiveUpstream(header.upstream));
  // A layer or version an earlier child of this command refused: skipped
  // with its message, no child started.
  if (options_.refusals) {
    if (std::optional<std::string> skip =
            options_.refusals->Settled(header.layer, trace_version)) {
      return absl::UnimplementedError(*skip);
    }
  }
  if (absl::Status s = Start(); !s.ok()) return s;
  absl::StatusOr<std::string> reply =
      Exchange(EncodeHeader(header), "the header");
  if (!reply.ok()) return reply.status();
  json j = json::parse(*reply, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean()) {
    return Fail(absl::StatusCode::kDataLoss,
                absl::StrCat("reply to the header is not {\"ok\": true} or "
                             "{\"ok\": false, \"error\": ...}: \"",
                             Excerpt(*reply), "\""));
  }
  absl::StatusOr<Capabilities> caps = ParseCapabilities(*reply);
  if (!caps.ok()) {
    return Fail(absl::StatusCode::kDataLoss,
                std::string(caps.status().message()));
  }
  capabilities_ = *std::move(caps);
  // A child that says which version it implements is judged against that
  // version's traces only, whether or not it accepted this header.
  if (capabilities_.upstream) {
    const std::string child = absl::StrCat("exec:", command_, ": ");
    const std::string reason = absl::StrCat(
        "the child implements ", *capabilities_.upstream, ", the trace is ");
    if (options_.refusals) {
      options_.refusals->DeclaredVersion(header.layer, *capabilities_.upstream,
                                         child, reason);
    }
    if (*capabilities_.upstream != trace_version) {
      Stop();
      return absl::UnimplementedError(
          absl::StrCat(child, reason, trace_version));
    }
  }
  const std::string layer(LayerName(header.layer));
  if (!j["ok"].get<bool>()) {
    std::string error = j.contains("error") && j["error"].is_string()
                            ? j["error"].get<std::string>()
                            : "(no error message)";
    if (!capabilities_.SupportsLayer(header.layer)) {
      Stop();
      return RefuseLayer(
          absl::StrCat("does not support the ", layer, " layer: ", error));
    }
    return Fail(absl::StatusCode::kFailedPrecondition,
                absl::StrCat("refused the header: ", error));
  }
  if (!capabilities_.SupportsLayer(header.layer)) {
    Stop();
    return RefuseLayer(
        absl::StrCat("does not support the ", layer,
                     " layer (its header reply lists the layers it does)"));
  }
  configured_ = true;
  return absl::OkStatus();
}

absl::StatusOr<StepOut> ChildProcess::Apply(const Step& step) {
  out_as_sent_.reset();
  state_reply_.reset();
  state_as_sent_.reset();
  const std::string what = absl::StrCat("the step at line ", step.line, " (",
                                        std::string(OpName(step.op)), ")");
  if (!configured_) {
    return absl::FailedPreconditionError(
        absl::StrCat("exec:", command_, ": ", what,
                     ": no child (Configure failed, or an earlier step did)"));
  }
  if (!capabilities_.SupportsOp(step.op)) {
    return absl::UnimplementedError(
        absl::StrCat("exec:", command_, ": does not support op ",
                     std::string(OpName(step.op)),
                     " (its header reply lists the ops it "
                     "does)"));
  }
  absl::StatusOr<std::string> reply =
      Exchange(EncodeStep(step, /*with_expect=*/false), what);
  if (!reply.ok()) return reply.status();
  json j = json::parse(*reply, nullptr, /*allow_exceptions=*/false);
  auto malformed = [&](const std::string& why) {
    return Fail(absl::StatusCode::kDataLoss,
                absl::StrCat("reply to ", what, " ", why, ": \"",
                             Excerpt(*reply), "\""));
  };
  if (!j.is_object()) return malformed("is not a JSON object");
  if (auto ok = j.find("ok"); ok != j.end() && *ok == false) {
    std::string error = j.contains("error") && j["error"].is_string()
                            ? j["error"].get<std::string>()
                            : "(no error message)";
    absl::Status failed =
        Fail(absl::StatusCode::kInternal,
             absl::StrCat("could not apply ", what, ": ", error));
    // {"ok": false, "notApplicable": true}: the child's version cannot apply
    // this step at all (docs/FORMAT.md, E12).
    if (auto na = j.find("notApplicable"); na != j.end() && *na == true) {
      return MarkNotApplicable(std::move(failed), error);
    }
    return failed;
  }
  if (!j.contains("out")) return malformed("has no \"out\"");
  absl::StatusOr<StepOut> out = OutFromJson(j["out"]);
  if (!out.ok()) {
    return malformed(
        absl::StrCat("has a bad \"out\" (", out.status().message(), ")"));
  }
  touch_.SetAll();
  const bool changed = j.contains("stateChanged");
  if (j.contains("state") && changed) {
    return malformed("has both \"state\" and \"stateChanged\"");
  }
  if (j.contains("state")) {
    absl::StatusOr<State> state = StateFromJson(j["state"]);
    if (!state.ok()) {
      return malformed(
          absl::StrCat("has a bad \"state\" (", state.status().message(), ")"));
    }
    state_ = *std::move(state);
  } else if (changed) {
    // What changed since the last reply (docs/FORMAT.md, E13).
    if (absl::Status s = ApplyStateChanged(j["stateChanged"], state_, touch_);
        !s.ok()) {
      return malformed(
          absl::StrCat("has a bad \"stateChanged\" (", s.message(), ")"));
    }
  } else if (out->fatal) {
    state_ = State{};  // the spec: a fatal step records no state
  } else {
    return malformed("has no \"state\"");
  }
  // Kept as sent: decoding forgets what the StepOut cannot hold (an
  // `"error": false`, an unknown key), and the replayer must not.
  out_as_sent_ = j["out"].dump(-1, ' ', false, json::error_handler_t::replace);
  // The state as sent is only read on a divergence: keep the line (moved,
  // not copied) and extract the state from it then.
  if (j.contains("state")) state_reply_ = *std::move(reply);
  return out;
}

void ChildProcess::RefreshInto(State& out, const StateTouch& touch) const {
  CopyTouched(state_, touch, out);
}

std::optional<std::string_view> ChildProcess::StateAsSent() const {
  if (!state_reply_) return std::nullopt;
  if (!state_as_sent_) {
    json j = json::parse(*state_reply_, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object() || !j.contains("state")) {
      return std::nullopt;  // cannot happen: Apply parsed this line
    }
    state_as_sent_ =
        j["state"].dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return *state_as_sent_;
}

}  // namespace schedtrace
