#include "kmol/core/io/child_probe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <new>

namespace kmol::io {
namespace {

constexpr int exit_bad_alloc = 97, exit_exception = 98;

// The parent's address space now (VmSize), so the child's limit is what it may add to it.
std::size_t address_space_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  return pages * std::size_t(sysconf(_SC_PAGESIZE));
}

[[noreturn]] void child(const std::function<void()>& walk, const ChildLimits& limits,
                        std::size_t parent_bytes, const sigset_t& parent_mask) {
  // Default actions: the parent's handlers (kmol's stops, a sanitizer's or fuzzer's crash
  // reports) act for the parent, and a crash here only has to end this process.
  for (int s : {SIGINT, SIGTERM, SIGALRM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    signal(s, SIG_DFL);
  sigprocmask(SIG_SETMASK, &parent_mask, nullptr);
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  const rlim_t bytes = rlim_t(parent_bytes + limits.extra_bytes);
  const rlimit memory{bytes, bytes};
  setrlimit(RLIMIT_AS, &memory);
  alarm(unsigned(std::ceil(limits.seconds)));
  int status = 0;
  try {
    walk();
  } catch (const std::bad_alloc&) {
    status = exit_bad_alloc;
  } catch (...) {
    status = exit_exception;
  }
  _exit(status);  // no atexit handlers, no stdio flush: those are the parent's
}

double now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

ChildOutcome outcome_of(int status) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return {signal == SIGALRM ? ChildOutcome::timed_out : ChildOutcome::signalled, signal};
  }
  const int code = WEXITSTATUS(status);
  if (code == 0) return {ChildOutcome::finished, 0};
  if (code == exit_bad_alloc) return {ChildOutcome::out_of_memory, code};
  return {ChildOutcome::failed, code};
}

}  // namespace

std::string ChildOutcome::description() const {
  switch (kind) {
    case finished:
      return "finished";
    case failed:
      return "failed (exit status " + std::to_string(detail) + ")";
    case signalled: {  // the signal's name: the shell's wording ("Segmentation fault") reads as
                       // kmol's own crash
      const char* name = sigabbrev_np(detail);
      return "was killed by signal " + (name ? "SIG" + std::string(name) : std::to_string(detail));
    }
    case timed_out:
      return "ran past its time limit";
    case out_of_memory:
      return "ran out of its memory limit";
    case could_not_start:
      break;
  }
  return "could not start (" + std::string(std::strerror(detail)) + ")";
}

ChildOutcome run_in_child(const std::function<void()>& walk, const ChildLimits& limits) {
  const std::size_t parent_bytes = address_space_bytes();
  // The child holds the write end until it exits: its end wakes the parent's poll at once.
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return {ChildOutcome::could_not_start, errno};
  // Signals wait until the child has reset kmol's handlers, which act for the parent.
  sigset_t all, parent_mask;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &parent_mask);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(ends[0]);
    child(walk, limits, parent_bytes, parent_mask);
  }
  const int fork_error = errno;
  sigprocmask(SIG_SETMASK, &parent_mask, nullptr);
  close(ends[1]);
  if (pid < 0) {
    close(ends[0]);
    return {ChildOutcome::could_not_start, fork_error};
  }
  // The child's alarm ends a loop in user code; the deadline ends one that blocks it. Slices
  // of 50 ms: another child of this process may hold a copy of the write end.
  const double deadline = now() + limits.seconds + 2;
  int status = 0;
  for (;;) {
    pollfd end{ends[0], POLLIN, 0};
    poll(&end, 1, 50);
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      close(ends[0]);
      return {ChildOutcome::could_not_start, errno};
    }
    if (now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      close(ends[0]);
      return {ChildOutcome::timed_out, SIGKILL};
    }
  }
  close(ends[0]);
  return outcome_of(status);
}

}  // namespace kmol::io
