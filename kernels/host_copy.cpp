#include "kernels/host_copy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace kmol {

void copy_in_parallel(void* to, const void* from, std::size_t bytes, int threads) {
  constexpr std::size_t chunk = std::size_t(1)
                                << 18;  // bytes: whole pages, enough to amortise a thread's start
  const std::int64_t chunks = std::int64_t((bytes + chunk - 1) / chunk);
  auto* out = static_cast<unsigned char*>(to);
  const auto* in = static_cast<const unsigned char*>(from);
#pragma omp parallel for num_threads(std::max(1, threads)) schedule(static) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::size_t first = std::size_t(c) * chunk;
    std::memcpy(out + first, in + first, std::min(chunk, bytes - first));
  }
}

void copy_blocks_in_parallel(void* const* to, const void* const* from, std::size_t bytes,
                             std::int64_t count, int threads) {
#pragma omp parallel for num_threads(std::max(1, threads)) schedule(static) if (count > 1)
  for (std::int64_t k = 0; k < count; ++k) std::memcpy(to[k], from[k], bytes);
}

}  // namespace kmol
