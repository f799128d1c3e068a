#include "kernels/host_copy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>

namespace kmol {

namespace {
// Bytes a thread takes at a time: whole pages, enough to amortise a thread's start.
constexpr std::size_t kPiece = std::size_t(1) << 18;

// piece(first, size) for every piece of `bytes`, the pieces spread over the threads.
template <class Piece>
void for_each_piece(std::size_t bytes, int threads, const Piece& piece) {
  const std::int64_t pieces = std::int64_t((bytes + kPiece - 1) / kPiece);
#pragma omp parallel for num_threads(std::max(1, threads)) schedule(static) if (pieces > 1)
  for (std::int64_t c = 0; c < pieces; ++c) {
    const std::size_t first = std::size_t(c) * kPiece;
    piece(first, std::min(kPiece, bytes - first));
  }
}
}  // namespace

void copy_in_parallel(void* to, const void* from, std::size_t bytes, int threads) {
  auto* out = static_cast<unsigned char*>(to);
  const auto* in = static_cast<const unsigned char*>(from);
  for_each_piece(bytes, threads, [&](std::size_t first, std::size_t size) {
    std::memcpy(out + first, in + first, size);
  });
}

void zero_in_parallel(void* to, std::size_t bytes, int threads) {
  auto* out = static_cast<unsigned char*>(to);
  for_each_piece(bytes, threads,
                 [&](std::size_t first, std::size_t size) { std::memset(out + first, 0, size); });
}

void copy_blocks_in_parallel(void* const* to, const void* const* from, std::size_t bytes,
                             std::int64_t count, int threads) {
#pragma omp parallel for num_threads(std::max(1, threads)) schedule(static) if (count > 1)
  for (std::int64_t k = 0; k < count; ++k) std::memcpy(to[k], from[k], bytes);
}

void for_each_in_parallel(std::int64_t count, int threads,
                          const std::function<void(std::int64_t)>& f) {
  std::exception_ptr failure;  // the first, rethrown here: none may leave the parallel region
#pragma omp parallel for num_threads(std::max(1, threads)) schedule(static) if (count > 1)
  for (std::int64_t k = 0; k < count; ++k) {
    try {
      f(k);
    } catch (...) {
#pragma omp critical(kmol_for_each_in_parallel)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace kmol
