#pragma once
// Coordinates converted to a kernel's precision a chunk at a time, each chunk handed on (to a GPU
// copy) as soon as it is whole. One thread of the OpenMP team hands the chunks on in order while
// the others convert the next ones into a few reused buffers:
// - a copy from pageable memory keeps its calling thread busy for the whole copy (the driver
//   stages it), so the conversion runs beside the copy instead of before it;
// - the handing thread is one of the team, so no thread beyond the team's competes for a core (an
//   extra thread costs a whole time slice each time it takes a converting thread's core);
// - a few reused buffers touch, and page-fault, a few MB instead of 12 bytes per atom.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>

#include "kernels/default_init_allocator.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

struct ChunkPlan {
  std::int64_t chunk_atoms = 0;  // 0: chunk_atoms_for(n)
  int threads = 0;               // 0: OpenMP's maximum
  int buffers = 4;               // chunks converted ahead of the one being handed on, at most
};

// 16 chunks, of 2^16 to 2^20 atoms: smaller chunks cost more in copy overhead than they save in
// overlap, larger ones touch more memory.
inline std::int64_t chunk_atoms_for(std::int64_t n) {
  return std::clamp<std::int64_t>((n + 15) / 16, std::int64_t(1) << 16, std::int64_t(1) << 20);
}

namespace chunked_detail {

// Who may go on: chunk k is whole once all converters have done their slice of it; its buffer
// may be refilled once the chunk that last used it has been handed on. Every side waits by
// yielding rather than sleeping: each thread of the team has a core of its own, so waiting takes
// no core from another thread, and a waiting thread goes on without being woken.
class Progress {
 public:
  explicit Progress(std::int64_t chunks) : converted_(new std::atomic<int>[std::size_t(chunks)]) {
    for (std::int64_t k = 0; k < chunks; ++k) converted_[k].store(0, std::memory_order_relaxed);
  }
  void slice_done(std::int64_t k) { converted_[k].fetch_add(1, std::memory_order_release); }
  void wait_whole(std::int64_t k, int converters) const {
    while (converted_[k].load(std::memory_order_acquire) < converters) std::this_thread::yield();
  }
  void handed_on(std::int64_t chunks) { handed_.store(chunks, std::memory_order_release); }
  void fail() { failed_.store(true, std::memory_order_release); }
  // False when the hand-on failed (nothing more is converted).
  bool wait_handed(std::int64_t chunks) const {
    while (handed_.load(std::memory_order_acquire) < chunks) {
      if (failed_.load(std::memory_order_acquire)) return false;
      std::this_thread::yield();
    }
    return true;
  }

 private:
  std::unique_ptr<std::atomic<int>[]> converted_;
  std::atomic<std::int64_t> handed_{0};
  std::atomic<bool> failed_{false};
};

template <class T>
void convert(const Vec3<double>* from, T* to, std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i) {
    to[3 * i] = T(from[i].x);
    to[3 * i + 1] = T(from[i].y);
    to[3 * i + 2] = T(from[i].z);
  }
}

}  // namespace chunked_detail

// Converts from[0, n) to T and calls hand_on(first, count, converted) for each chunk, in order,
// from the calling thread; `converted` (count points) is valid until hand_on returns. An
// exception from hand_on stops the conversion and is rethrown.
template <class T, class HandOn>
void convert_in_chunks(const Vec3<double>* from, std::int64_t n, HandOn&& hand_on,
                       const ChunkPlan& plan = {}) {
  static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "points are written as one array of reals");
  if (n <= 0) return;
  const std::int64_t chunk = plan.chunk_atoms > 0 ? plan.chunk_atoms : chunk_atoms_for(n),
                     chunks = (n + chunk - 1) / chunk,
                     buffers = std::min<std::int64_t>(std::max(plan.buffers, 1), chunks);
  MapValues<T> ring(std::size_t(3 * buffers * chunk));
  const auto buffer = [&](std::int64_t k) { return ring.data() + 3 * (k % buffers) * chunk; };
  const auto size_of = [&](std::int64_t k) { return std::min(chunk, n - k * chunk); };
  chunked_detail::Progress progress(chunks);
  std::exception_ptr failure;
  const int threads = plan.threads > 0 ? plan.threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads)
  {
    const int me = omp_get_thread_num(), converters = omp_get_num_threads() - 1;
    if (me == 0) {
      try {
        for (std::int64_t k = 0; k < chunks; ++k) {
          if (converters == 0)  // a team of one converts each chunk itself
            chunked_detail::convert(from + k * chunk, buffer(k), size_of(k));
          progress.wait_whole(k, converters);
          hand_on(k * chunk, size_of(k), reinterpret_cast<const Vec3<T>*>(buffer(k)));
          progress.handed_on(k + 1);
        }
      } catch (...) {
        failure = std::current_exception();
        progress.fail();
      }
    } else {
      for (std::int64_t k = 0; k < chunks; ++k) {
        if (!progress.wait_handed(k + 1 - buffers)) break;
        const std::int64_t count = size_of(k), begin = count * (me - 1) / converters,
                           end = count * me / converters;
        chunked_detail::convert(from + k * chunk + begin, buffer(k) + 3 * begin, end - begin);
        progress.slice_done(k);
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace kmol
