#include "contained_call.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "kmol/core/errors.hpp"

namespace kmol::io {
namespace {

int child_pipe = -1;  // the write end, in a child of contained_call

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
  _exit(0);
}

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

// The child's limits grow with the file: 2 GiB plus 100 bytes of memory per byte of file (the
// reader's structures are a few times the file's size), 20 s plus 1 s per 5 MB.
std::int64_t memory_limit(std::int64_t size) { return (std::int64_t(2) << 30) + 100 * size; }
int seconds_limit(std::int64_t size) { return 20 + int(size / 5000000); }

// The address space this process maps now (the parent's threads and arrays come with the fork).
std::int64_t mapped_bytes() {
  long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return std::int64_t(pages) * sysconf(_SC_PAGESIZE);
}

[[noreturn]] void run_child(const std::function<std::string()>& work, std::int64_t size) {
  // The parent's handlers (a fuzzer's timeout, kmol's safe stops) are not the child's.
  // A crash inside the library ends the child by its signal, for the parent to report.
  for (int s : {SIGALRM, SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    signal(s, SIG_DFL);
  // Library notes and banners are the parent's to report.
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) dup2(null, STDERR_FILENO);
  if (!address_sanitizer) {  // the sanitizer's shadow memory needs more address space
    const auto limit = rlim_t(mapped_bytes() + memory_limit(size));
    const rlimit memory{limit, limit};
    setrlimit(RLIMIT_AS, &memory);
  }
  // A library that exits (libgromacs does on some errors) ends the child with that reason, before
  // any handler the parent registered runs.
  std::atexit([] { finish('-', "it ended the process (the file is damaged)"); });
  alarm(unsigned(seconds_limit(size)));
  try {
    finish('+', work());
  } catch (const InputError& e) {
    finish('=', e.what());
  } catch (const std::bad_alloc&) {
    finish('-',
           "a size in the file is damaged (reading it needs more memory than the file "
           "can describe)");
  } catch (const std::length_error&) {
    finish('-', "a size in the file is damaged (a string or list longer than the file)");
  } catch (const std::exception& e) {
    finish('-', e.what());
  } catch (...) {
    finish('-', "the library failed without saying why");
  }
}

// Everything the child writes until it closes the pipe, or until the deadline.
bool read_until_closed(int fd, std::string& out, std::chrono::steady_clock::time_point deadline) {
  char buffer[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, int(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) return false;
    if (ready <= 0) continue;
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    out.append(buffer, std::size_t(n));
  }
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

bool fail_contained_call(const std::string& message) {
  if (child_pipe < 0) return false;
  finish('-', message);
}

std::string contained_call(const std::string& path, const std::string& what,
                           const std::function<std::string()>& work, const std::string& library) {
  const std::int64_t size = file_size(path);
  int ends[2];
  if (pipe(ends) != 0) throw InputError({path, "", -1}, "cannot start a process to read it");
  const pid_t child = fork();
  if (child < 0) {
    close(ends[0]);
    close(ends[1]);
    throw InputError({path, "", -1}, "cannot start a process to read it");
  }
  if (child == 0) {
    close(ends[0]);
    child_pipe = ends[1];
    run_child(work, size);
  }
  close(ends[1]);
  std::string reply;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds_limit(size) + 5);
  const bool closed = read_until_closed(ends[0], reply, deadline);
  close(ends[0]);
  if (!closed) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string reading = library + " cannot read " + what + ": ";
  if (!closed || (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM))
    throw InputError({path, "", -1}, reading + "it did not finish in " +
                                         std::to_string(seconds_limit(size)) +
                                         " s (the file is damaged)");
  if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
    throw Interrupted(WTERMSIG(status), "stopped while reading " + path);
  if (WIFSIGNALED(status))
    throw InputError({path, "", -1}, reading + "it crashed (" + signal_name(WTERMSIG(status)) +
                                         "): the file is damaged");
  if (!reply.empty() && reply[0] == '=') throw InputError({}, reply.substr(1));
  if (reply.empty() || (reply[0] != '+' && reply[0] != '-'))
    throw InputError({path, "", -1}, reading + "it stopped without a result (the file is damaged)");
  if (reply[0] == '-') throw InputError({path, "", -1}, reading + one_line(reply.substr(1)));
  return reply.substr(1);
}

}  // namespace kmol::io
