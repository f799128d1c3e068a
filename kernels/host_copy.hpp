#pragma once
// Copies between host buffers with several OpenMP threads: for maps going to or from page-locked
// staging memory, where one thread alone copies at a fraction of the memory bandwidth (and takes
// alone the page faults of a freshly allocated destination).
#include <cstddef>
#include <cstdint>

namespace kmol {

void copy_in_parallel(void* to, const void* from, std::size_t bytes, int threads);

// from[k] to to[k], `bytes` each, for k < count: the blocks spread over the threads.
void copy_blocks_in_parallel(void* const* to, const void* const* from, std::size_t bytes,
                             std::int64_t count, int threads);

}  // namespace kmol
