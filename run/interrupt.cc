#include "run/interrupt.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>

namespace schedtrace {
namespace {

constexpr size_t kMaxGroups = 256;
std::atomic<pid_t> groups[kMaxGroups];
std::atomic<int> signal_seen{0};

void KillAll() {
  for (std::atomic<pid_t>& g : groups) {
    pid_t pgid = g.load();
    if (pgid > 0) kill(-pgid, SIGKILL);
  }
}

void Handler(int sig) {
  int expected = 0;
  if (!signal_seen.compare_exchange_strong(expected, sig)) {
    // A second signal: the user insists. Kill again and leave now.
    KillAll();
    _exit(128 + expected);
  }
  KillAll();
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = &Handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool Interrupted() { return signal_seen.load() != 0; }
int InterruptSignal() { return signal_seen.load(); }

void Interrupt(int sig) {
  int expected = 0;
  signal_seen.compare_exchange_strong(expected, sig);
  KillAll();
}

bool RegisterChildGroup(pid_t pgid) {
  for (std::atomic<pid_t>& g : groups) {
    pid_t empty = 0;
    if (g.compare_exchange_strong(empty, pgid)) return true;
  }
  return false;
}

void UnregisterChildGroup(pid_t pgid) {
  for (std::atomic<pid_t>& g : groups) {
    pid_t mine = pgid;
    if (g.compare_exchange_strong(mine, 0)) return;
  }
}

int RegisteredChildGroups() {
  int n = 0;
  for (const std::atomic<pid_t>& g : groups) n += g.load() > 0;
  return n;
}

BlockInterrupts::BlockInterrupts() {
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old_);
}

BlockInterrupts::~BlockInterrupts() {
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
}

}  // namespace schedtrace
