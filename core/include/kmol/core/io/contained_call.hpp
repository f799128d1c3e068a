#pragma once
// Library calls that may crash, loop, exhaust memory or end the process on a damaged file
// (libgromacs, libhdf5, libnetcdf) run in a forked child process with a time and address-space
// limit; the child sends its result back through a pipe, so whatever the library does to the
// child becomes kmol's refusal of the file. The child inherits the parent's memory: the work is
// the parent's own code.
//
// fork() copies only the calling thread: the work must not need a lock another thread of the
// parent may hold (run it before frame-parallel readers start).
#include <cstdint>
#include <functional>
#include <string>

namespace kmol::io {

struct ChildLimits {
  double seconds = 10;                               // CPU time of the work; 8 s more in wall time
  std::int64_t extra_bytes = std::int64_t(1) << 30;  // address space it may add to the parent's

  // For reading a file of `bytes`: 10 s (CPU) plus 1 s per 5 MB, 2 GiB plus 100 bytes per byte (a
  // reader's structures are a few times the file's size).
  static ChildLimits for_file(std::int64_t bytes);
};

struct ChildOutcome {
  enum Kind { finished, refused, failed, signalled, timed_out, out_of_memory, could_not_start };
  Kind kind = finished;
  int detail = 0;     // the signal, the exit status or errno
  std::string reply;  // finished: what the work returned; otherwise its message, if any
  // "was killed by signal SIGSEGV", "ran past its time limit", ...
  std::string description() const;
};

// Runs work() in a child (stdout and stderr discarded, no core dump, signals at their default
// actions). In the child an InputError ends it as refused (its message the reply), std::bad_alloc
// as out_of_memory, any other exception or an exit() as failed. Throws Interrupted when the child
// was stopped by SIGINT or SIGTERM (Ctrl-C reaches the whole process group).
ChildOutcome run_in_child(const std::function<std::string()>& work, const ChildLimits& limits);

// run_in_child for reading `path`, limits by its size: returns what work returned. Throws
// InputError naming `path` when the child dies, runs past its limits or fails ("<library> cannot
// read <what>: ..."); a std::bad_alloc or std::length_error in it is reported as a size the file
// gets wrong, not by the exception's name; an InputError in it is rethrown as it is.
std::string contained_call(const std::string& path, const std::string& what,
                           const std::function<std::string()>& work,
                           const std::string& library = "libgromacs");

// In a child of run_in_child: ends it as failed with `message`. Elsewhere returns false and does
// nothing.
bool fail_contained_call(const std::string& message);

}  // namespace kmol::io
