#include "kmol/core/io/contained_call.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "kmol/core/errors.hpp"

namespace kmol::io {
namespace {

// The child's reply: one status byte, then the result or the message.
constexpr char reply_result = '+', reply_refusal = '=', reply_failure = '-', reply_no_memory = '!';

int child_pipe = -1;  // the write end, in a child of run_in_child

#if defined(__SANITIZE_ADDRESS__)
constexpr bool address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool address_sanitizer = true;
#else
constexpr bool address_sanitizer = false;
#endif
#else
constexpr bool address_sanitizer = false;
#endif

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data += n;
    size -= std::size_t(n);
  }
}

[[noreturn]] void finish(char status, const std::string& payload) {
  write_all(child_pipe, &status, 1);
  write_all(child_pipe, payload.data(), payload.size());
  close(child_pipe);
  _exit(0);  // no atexit handlers, no stdio flush: those are the parent's
}

int wall_seconds(const ChildLimits& limits) { return int(std::ceil(limits.seconds)) + 8; }

// The address space this process maps now (the parent's threads and arrays come with the fork).
std::int64_t mapped_bytes() {
  long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return std::int64_t(pages) * sysconf(_SC_PAGESIZE);
}

[[noreturn]] void run_child(const std::function<std::string()>& work, const ChildLimits& limits,
                            std::int64_t parent_bytes, const sigset_t& parent_mask) {
  // Default actions: the parent's handlers (kmol's safe stops, a sanitizer's or fuzzer's
  // reports) act for the parent; a crash here only has to end this process.
  for (int s : {SIGALRM, SIGXCPU, SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    signal(s, SIG_DFL);
  sigprocmask(SIG_SETMASK, &parent_mask, nullptr);
  // Library notes and banners are the parent's to report.
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  if (!address_sanitizer) {  // the sanitizer's shadow memory needs more address space
    const auto bytes = rlim_t(parent_bytes + limits.extra_bytes);
    const rlimit memory{bytes, bytes};
    setrlimit(RLIMIT_AS, &memory);
  }
  // A library that exits (libgromacs does on some errors) ends the child with that reason, before
  // any handler the parent registered runs.
  std::atexit([] { finish(reply_failure, "it ended the process (the file is damaged)"); });
  // CPU time ends a loop however loaded the machine is; the alarm, 8 s later in wall time, ends a
  // child that waits forever (or one a loaded machine starves).
  const auto cpu = rlim_t(std::ceil(limits.seconds));
  const rlimit cpu_time{cpu, cpu + 1};
  setrlimit(RLIMIT_CPU, &cpu_time);
  alarm(unsigned(wall_seconds(limits)));
  try {
    finish(reply_result, work());
  } catch (const InputError& e) {
    finish(reply_refusal, e.what());
  } catch (const std::bad_alloc&) {
    finish(reply_no_memory, "");
  } catch (const std::length_error&) {
    finish(reply_failure, "a size in the file is damaged (a string or list longer than the file)");
  } catch (const std::exception& e) {
    finish(reply_failure, e.what());
  } catch (...) {
    finish(reply_failure, "the library failed without saying why");
  }
}

double now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Whatever the pipe holds now (its read end does not block).
void drain(int fd, std::string& out) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    out.append(buffer, std::size_t(n));
  }
}

ChildOutcome outcome_of(int status, const std::string& reply) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    if (signal == SIGINT || signal == SIGTERM)
      throw Interrupted(signal, "stopped while a child process read a file");
    const bool late = signal == SIGALRM || signal == SIGXCPU;
    return {late ? ChildOutcome::timed_out : ChildOutcome::signalled, signal, ""};
  }
  const int code = WEXITSTATUS(status);
  if (reply.empty()) return {ChildOutcome::failed, code, ""};
  const std::string rest = reply.substr(1);
  switch (reply[0]) {
    case reply_result:
      return {ChildOutcome::finished, 0, rest};
    case reply_refusal:
      return {ChildOutcome::refused, 0, rest};
    case reply_no_memory:
      return {ChildOutcome::out_of_memory, 0, rest};
    default:
      return {ChildOutcome::failed, code, rest};
  }
}

// "signal SIGSEGV": the signal's name, not the shell's wording of a crash ("Segmentation fault"),
// which reads as the crash of kmol itself.
std::string signal_name(int signal) {
  const char* abbreviation = sigabbrev_np(signal);
  return abbreviation ? std::string("signal SIG") + abbreviation
                      : "signal " + std::to_string(signal);
}

std::int64_t file_size(const std::string& path) {
  struct stat s {};
  return stat(path.c_str(), &s) == 0 ? std::int64_t(s.st_size) : 0;
}

// A library's message on one line, without its trailing period or blank space.
std::string one_line(const std::string& message) {
  std::string out;
  for (char c : message) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '.')) out.pop_back();
  return out;
}

}  // namespace

ChildLimits ChildLimits::for_file(std::int64_t bytes) {
  return {10 + double(bytes) / 5e6, (std::int64_t(2) << 30) + 100 * bytes};
}

std::string ChildOutcome::description() const {
  switch (kind) {
    case finished:
      return "finished";
    case refused:
      return "refused the file (" + reply + ")";
    case failed:
      return reply.empty() ? "failed (exit status " + std::to_string(detail) + ")"
                           : "failed (" + one_line(reply) + ")";
    case signalled:
      return "was killed by " + signal_name(detail);
    case timed_out:
      return "ran past its time limit";
    case out_of_memory:
      return "ran out of its memory limit";
    case could_not_start:
      break;
  }
  return "could not start (" + std::string(std::strerror(detail)) + ")";
}

ChildOutcome run_in_child(const std::function<std::string()>& work, const ChildLimits& limits) {
  const std::int64_t parent_bytes = mapped_bytes();
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return {ChildOutcome::could_not_start, errno, ""};
  fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK);
  // Signals wait until the child has reset kmol's handlers, which act for the parent.
  sigset_t all, parent_mask;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &parent_mask);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(ends[0]);
    child_pipe = ends[1];
    run_child(work, limits, parent_bytes, parent_mask);
  }
  const int fork_error = errno;
  sigprocmask(SIG_SETMASK, &parent_mask, nullptr);
  close(ends[1]);
  if (pid < 0) {
    close(ends[0]);
    return {ChildOutcome::could_not_start, fork_error, ""};
  }
  // The child's alarm ends a loop in user code; the deadline ends one that blocks it. The reply
  // is read as it comes (a long one fills the pipe); slices of 50 ms, since another child of this
  // process may hold a copy of the write end and keep it from closing.
  const double deadline = now() + wall_seconds(limits) + 2;
  std::string reply;
  int status = 0;
  for (;;) {
    pollfd end{ends[0], POLLIN, 0};
    poll(&end, 1, 50);
    drain(ends[0], reply);
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      close(ends[0]);
      return {ChildOutcome::could_not_start, errno, ""};
    }
    if (now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      close(ends[0]);
      return {ChildOutcome::timed_out, SIGKILL, ""};
    }
  }
  drain(ends[0], reply);
  close(ends[0]);
  return outcome_of(status, reply);
}

bool fail_contained_call(const std::string& message) {
  if (child_pipe < 0) return false;
  finish(reply_failure, message);
}

std::string contained_call(const std::string& path, const std::string& what,
                           const std::function<std::string()>& work, const std::string& library) {
  const ChildLimits limits = ChildLimits::for_file(file_size(path));
  ChildOutcome outcome;
  try {
    outcome = run_in_child(work, limits);
  } catch (const Interrupted& e) {
    throw Interrupted(e.signal(), "stopped while reading " + path);
  }
  std::string why;
  switch (outcome.kind) {
    case ChildOutcome::finished:
      return outcome.reply;
    case ChildOutcome::refused:
      throw InputError({}, outcome.reply);
    case ChildOutcome::could_not_start:
      throw RunFailure(path + ": cannot start a process to read it: " + outcome.description());
    case ChildOutcome::timed_out:
      why = outcome.detail == SIGXCPU
                ? "it did not finish in " + std::to_string(int(std::ceil(limits.seconds))) +
                      " s of computing (the file is damaged)"
                : "it did not finish in " + std::to_string(wall_seconds(limits)) +
                      " s (the file is damaged)";
      break;
    case ChildOutcome::signalled:
      why = "it crashed (" + signal_name(outcome.detail) + "): the file is damaged";
      break;
    case ChildOutcome::out_of_memory:
      why =
          "a size in the file is damaged (reading it needs more memory than the file can describe)";
      break;
    case ChildOutcome::failed:
      why = outcome.reply.empty() ? "it stopped without a result (the file is damaged)"
                                  : one_line(outcome.reply);
      break;
  }
  throw InputError({path, "", -1}, library + " cannot read " + what + ": " + why);
}

}  // namespace kmol::io
