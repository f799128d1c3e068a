// The host threads' copies, zeroing and loops (kernels/host_copy.hpp): every byte or index once,
// nothing outside the range, for sizes around the threads' piece of 256 KiB and thread counts
// from one to more than the pieces; a failing index's exception reaches the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/host_copy.hpp"

namespace {

constexpr std::size_t kPiece = std::size_t(1) << 18;
const std::size_t kSizes[] = {0, 1, kPiece - 1, kPiece, kPiece + 1, 5 * kPiece + 4093};
const int kThreads[] = {1, 3, 16};

unsigned char pattern(std::size_t i) { return static_cast<unsigned char>(i * 131 + 7); }

TEST(HostCopy, CopyInParallelCopiesEveryByteAndNothingBeyond) {
  for (const std::size_t bytes : kSizes)
    for (const int threads : kThreads) {
      std::vector<unsigned char> from(bytes), to(bytes + 64, 0xAB);
      for (std::size_t i = 0; i < bytes; ++i) from[i] = pattern(i);
      kmol::copy_in_parallel(to.data(), from.data(), bytes, threads);
      for (std::size_t i = 0; i < bytes; ++i)
        ASSERT_EQ(to[i], pattern(i)) << bytes << " bytes, " << threads << " threads, byte " << i;
      for (std::size_t i = bytes; i < to.size(); ++i) ASSERT_EQ(to[i], 0xAB) << bytes << " bytes";
    }
}

TEST(HostCopy, ZeroInParallelZeroesExactlyTheRange) {
  for (const std::size_t bytes : kSizes)
    for (const int threads : kThreads) {
      std::vector<unsigned char> to(bytes + 64, 0xAB);
      kmol::zero_in_parallel(to.data() + 32, bytes, threads);
      for (std::size_t i = 0; i < to.size(); ++i)
        ASSERT_EQ(to[i], i >= 32 && i < 32 + bytes ? 0 : 0xAB)
            << bytes << " bytes, " << threads << " threads, byte " << i;
    }
}

TEST(HostCopy, ForEachInParallelRunsEveryIndexOnce) {
  for (const std::int64_t count : {0, 1, 7, 180})
    for (const int threads : kThreads) {
      std::vector<std::atomic<int>> runs(static_cast<std::size_t>(count));
      kmol::for_each_in_parallel(count, threads, [&](std::int64_t k) { ++runs[std::size_t(k)]; });
      for (std::int64_t k = 0; k < count; ++k)
        ASSERT_EQ(runs[std::size_t(k)].load(), 1) << count << " indices, index " << k;
    }
}

TEST(HostCopy, ForEachInParallelRethrowsAFailureOnceEveryIndexHasRun) {
  for (const int threads : kThreads) {
    std::atomic<int> ran{0};
    EXPECT_THROW(
        kmol::for_each_in_parallel(40, threads,
                                   [&](std::int64_t k) {
                                     ++ran;
                                     if (k == 3 || k == 17)
                                       throw std::runtime_error("map " + std::to_string(k));
                                   }),
        std::runtime_error)
        << threads << " threads";
    EXPECT_EQ(ran.load(), 40) << threads << " threads";
  }
}

}  // namespace
