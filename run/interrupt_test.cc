#include "run/interrupt.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace schedtrace {
namespace {

// Each test runs in a forked process: the interrupt flag is process-wide
// and would stop every child process later tests start.
template <typename F>
int InChild(F f) {
  pid_t pid = fork();
  if (pid == 0) _exit(f());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

// Live (not zombie) processes in process group `pgid`, from /proc.
int LiveInGroup(pid_t pgid) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(e.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    long ppid = 0, pgrp = 0;
    rest >> state >> ppid >> pgrp;
    n += pgrp == pgid && state != 'Z';
  }
  return n;
}

// A child in its own process group that sleeps; its grandchild too.
pid_t SleepingGroup() {
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", "sleep 60 & sleep 60; wait", nullptr);
    _exit(127);
  }
  setpgid(pid, pid);
  return pid;
}

TEST(InterruptTest, RegistrationCounts) {
  EXPECT_EQ(InChild([] {
              if (RegisteredChildGroups() != 0) return 1;
              if (!RegisterChildGroup(1234) || !RegisterChildGroup(5678)) {
                return 2;
              }
              if (RegisteredChildGroups() != 2) return 3;
              UnregisterChildGroup(1234);
              UnregisterChildGroup(999);  // unknown: nothing happens
              if (RegisteredChildGroups() != 1) return 4;
              return Interrupted() ? 5 : 0;
            }),
            0);
}

TEST(InterruptTest, InterruptKillsEveryRegisteredGroup) {
  EXPECT_EQ(InChild([] {
              pid_t a = SleepingGroup(), b = SleepingGroup();
              RegisterChildGroup(a);
              RegisterChildGroup(b);
              std::this_thread::sleep_for(std::chrono::milliseconds(50));
              Interrupt(SIGTERM);
              if (!Interrupted() || InterruptSignal() != SIGTERM) return 1;
              int status = 0;
              for (pid_t p : {a, b}) {
                if (waitpid(p, &status, 0) != p) return 2;
                if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
                  return 3;
                }
                // The group is gone, grandchildren included (a zombie
                // waiting for init to reap it is dead already).
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                if (LiveInGroup(p) != 0) return 4;
              }
              return 0;
            }),
            0);
}

TEST(InterruptTest, TheHandlerKillsGroupsAndASecondSignalExits) {
  EXPECT_EQ(InChild([] {
              InstallInterruptHandlers();
              pid_t a = SleepingGroup();
              RegisterChildGroup(a);
              std::this_thread::sleep_for(std::chrono::milliseconds(50));
              raise(SIGINT);
              if (InterruptSignal() != SIGINT) return 1;
              int status = 0;
              if (waitpid(a, &status, 0) != a || !WIFSIGNALED(status)) {
                return 2;
              }
              raise(SIGINT);  // the user insists: exits 130 at once
              return 3;
            }),
            130);
}

}  // namespace
}  // namespace schedtrace
