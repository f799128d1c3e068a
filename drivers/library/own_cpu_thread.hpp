#pragma once
// Threads on CPUs of their own, for the threads that feed GPUs (the worker pool's GPU threads and
// the frame pipeline's readers). With OMP_PROC_BIND, libgomp pins the main thread to one core when
// it loads, and every thread it starts inherits that core: there a reader woken by a freed frame
// preempts the GPU thread that freed it, and the GPU idles during every frame's read.
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <thread>
#include <utility>

namespace kmol {

// Starts f on the index-th of the machine's online CPUs counted from the last (OpenMP binds its
// threads from the first, and the first stays the main thread's), or on any of them when there
// are too few. CPUs outside the process's cpuset are dropped by the kernel.
template <class F>
std::thread thread_on_own_cpu(int index, F&& f) {
  return std::thread([index, f = std::forward<F>(f)]() mutable {
    const int online = int(std::min<long>(sysconf(_SC_NPROCESSORS_ONLN), CPU_SETSIZE));
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (index < online - 1) {
      CPU_SET(online - 1 - index, &cpus);
    } else {
      for (int c = 0; c < online; ++c) CPU_SET(c, &cpus);
    }
    pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
    f();
  });
}

}  // namespace kmol
