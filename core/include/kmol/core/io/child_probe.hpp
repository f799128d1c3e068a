#pragma once
// Runs a walk over a file's structure in a forked child process, for libraries (libhdf5) that can
// crash or loop on a damaged file where kmol cannot check the file first: if the child dies, runs
// past its time limit or past its address-space limit, the caller refuses the file instead of
// crashing or hanging. The child inherits the parent's memory, so the walk is the parent's own
// code; it reports nothing back but how it ended.
//
// fork() copies only the calling thread: a walk must not need a lock another thread of the
// parent may hold (probe before frame-parallel readers start).
#include <cstddef>
#include <functional>
#include <string>

namespace kmol::io {

struct ChildLimits {
  double seconds = 10;                 // wall time of the walk
  std::size_t extra_bytes = 1u << 30;  // address space the child may add to the parent's
};

struct ChildOutcome {
  enum Kind { finished, failed, signalled, timed_out, out_of_memory, could_not_start } kind;
  int detail = 0;  // the signal, or the exit status
  // "was killed by signal 11 (Segmentation fault)", "ran past its 10 s limit", ...
  std::string description() const;
};

// Runs walk() in a child (stdout and stderr discarded, no core dump, SIGINT and SIGTERM at their
// default action); std::bad_alloc in it counts as out_of_memory, any other exception as failed.
ChildOutcome run_in_child(const std::function<void()>& walk, const ChildLimits& limits);

}  // namespace kmol::io
