#pragma once
// Copies between host buffers with several OpenMP threads: for maps going to or from page-locked
// staging memory, where one thread alone copies at a fraction of the memory bandwidth (and takes
// alone the page faults of a freshly allocated destination).
#include <cstddef>
#include <cstdint>
#include <functional>

namespace kmol {

void copy_in_parallel(void* to, const void* from, std::size_t bytes, int threads);

// Zeroes `bytes` at `to` (the same pieces over the threads as copy_in_parallel).
void zero_in_parallel(void* to, std::size_t bytes, int threads);

// from[k] to to[k], `bytes` each, for k < count: the blocks spread over the threads.
void copy_blocks_in_parallel(void* const* to, const void* const* from, std::size_t bytes,
                             std::int64_t count, int threads);

// f(k) for k < count, the k spread over the threads: for host work on fresh memory (sizing
// several output maps), whose page faults one thread alone would take in turn. The first
// exception an f throws is rethrown once all have run.
void for_each_in_parallel(std::int64_t count, int threads,
                          const std::function<void(std::int64_t)>& f);

}  // namespace kmol
