// Interrupts (SIGINT, SIGTERM) and the child processes they must not
// outlive.
//
// Every child process the harness starts (run/child_process.h) runs in a
// process group of its own, registered here for as long as it lives. The
// handlers InstallInterruptHandlers() sets kill every registered group at
// once (SIGKILL) and record the signal; the runner then stops starting
// traces, lets the replays in flight notice that their children died, reaps
// them, prints what completed and exits 128 + signal (130 for SIGINT, 143
// for SIGTERM). A second signal while that happens exits at once, after
// killing the groups again.
//
//   InstallInterruptHandlers();                   // once, in main
//   ...
//   if (Interrupted()) return 128 + InterruptSignal();
//
//   // around fork, so no signal falls between fork and registration:
//   BlockInterrupts block;
//   pid_t pid = fork();  ...  RegisterChildGroup(pid);
//
// Registration and the handlers are async-signal-safe and thread-safe (a
// fixed table of atomics), so children started by parallel replays are all
// covered.
#ifndef SCHEDTRACE_RUN_INTERRUPT_H_
#define SCHEDTRACE_RUN_INTERRUPT_H_

#include <signal.h>
#include <sys/types.h>

namespace schedtrace {

// Sets the SIGINT and SIGTERM handlers. Idempotent.
void InstallInterruptHandlers();

// Whether SIGINT or SIGTERM arrived; the signal's number (0 if none).
bool Interrupted();
int InterruptSignal();

// Marks the process interrupted by `sig` and kills every registered group,
// as the handler does (for tests and for callers that interrupt a run
// themselves).
void Interrupt(int sig);

// A process group the harness started; false when the table (256 entries,
// far more than the children one run keeps at once) is full.
bool RegisterChildGroup(pid_t pgid);
void UnregisterChildGroup(pid_t pgid);
// How many groups are registered now.
int RegisteredChildGroups();

// Blocks SIGINT and SIGTERM in the calling thread for its lifetime, so that
// a fork and the registration of its child happen before any handler runs.
// The child must restore its signal mask before exec.
class BlockInterrupts {
 public:
  BlockInterrupts();
  ~BlockInterrupts();
  BlockInterrupts(const BlockInterrupts&) = delete;
  BlockInterrupts& operator=(const BlockInterrupts&) = delete;

 private:
  sigset_t old_;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_RUN_INTERRUPT_H_
