// Coordinates converted a chunk at a time (drivers/library/chunked_conversion.hpp): every chunk
// handed on once, in order, holding exactly the converted values, with any number of threads and
// buffers; a failing hand-on stops the conversion without hanging. On a GPU the uploaded points
// equal the host's conversion, and their cell-list histogram equals the host-pointer path's.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <random>
#include <stdexcept>
#include <vector>

#include "drivers/library/coordinates.hpp"
#include "kernels/pair_histogram/pair_histogram.hpp"
#include "kernels/pair_histogram/views.hpp"
#include "support/backend_test.hpp"

namespace {

using namespace kmol;

std::vector<Vec3<double>> random_points(std::int64_t n, double side, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(0, side);
  std::vector<Vec3<double>> points(static_cast<std::size_t>(n));
  for (auto& p : points) p = {u(gen), u(gen), u(gen)};
  return points;
}

template <class T>
void expect_converted(const std::vector<Vec3<double>>& from, const std::vector<Vec3<T>>& to) {
  ASSERT_EQ(to.size(), from.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < from.size(); ++i)
    wrong += to[i].x != T(from[i].x) || to[i].y != T(from[i].y) || to[i].z != T(from[i].z);
  EXPECT_EQ(wrong, 0u) << "points differ from their conversion";
}

TEST(ChunkedConversion, HandsEveryChunkOnOnceInOrderWithItsValues) {
  const auto from = random_points(12345, 50, 1);
  for (const int threads : {1, 2, 3, 5})
    for (const int buffers : {1, 3, 20}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, " << buffers << " buffers");
      std::vector<Vec3<float>> to(from.size());
      std::int64_t next = 0, chunks = 0;
      convert_in_chunks<float>(
          from.data(), std::int64_t(from.size()),
          [&](std::int64_t first, std::int64_t count, const Vec3<float>* chunk) {
            EXPECT_EQ(first, next);
            EXPECT_EQ(count, std::min<std::int64_t>(1000, std::int64_t(from.size()) - first));
            std::copy(chunk, chunk + count, to.begin() + first);
            next = first + count;
            ++chunks;
          },
          ChunkPlan{1000, threads, buffers});
      EXPECT_EQ(next, std::int64_t(from.size()));
      EXPECT_EQ(chunks, 13);
      expect_converted(from, to);
    }
}

TEST(ChunkedConversion, DoublesAndDefaultChunksToo) {
  const auto from = random_points(200000, 50, 2);
  std::vector<Vec3<double>> to(from.size());
  std::int64_t chunks = 0;
  convert_in_chunks<double>(from.data(), std::int64_t(from.size()),
                            [&](std::int64_t first, std::int64_t count, const Vec3<double>* chunk) {
                              std::copy(chunk, chunk + count, to.begin() + first);
                              ++chunks;
                            });
  EXPECT_EQ(chunks, 4);  // chunks of 2^16 atoms at least
  expect_converted(from, to);
}

TEST(ChunkedConversion, AFailedHandOnStopsTheConversionAndIsRethrown) {
  const auto from = random_points(10000, 50, 3);
  for (const int threads : {1, 4}) {
    std::int64_t handed = 0;
    EXPECT_THROW(convert_in_chunks<float>(
                     from.data(), std::int64_t(from.size()),
                     [&](std::int64_t, std::int64_t, const Vec3<float>*) {
                       if (++handed == 3) throw std::runtime_error("copy failed");
                     },
                     ChunkPlan{500, threads, 2}),
                 std::runtime_error);
    EXPECT_EQ(handed, 3);
  }
}

#ifdef KOKKOS_ENABLE_CUDA
template <class T>
std::vector<Vec3<T>> downloaded(const Kokkos::View<Vec3<T>*, Kokkos::CudaSpace>& points) {
  std::vector<Vec3<T>> host(points.extent(0));
  Kokkos::deep_copy(
      Kokkos::View<Vec3<T>*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host.data(), host.size()),
      points);
  return host;
}
#endif

TEST(ChunkedConversion, UploadedPointsEqualTheirConversion_Cuda) {
#ifdef KOKKOS_ENABLE_CUDA
  if (!test::gpu_present()) GTEST_SKIP() << "no GPU on this machine";
  const Kokkos::Cuda gpu;
  const auto from = random_points(300001, 80, 4);
  for (const int threads : {1, 4}) {
    expect_converted(from, downloaded(upload_coordinates<float>(gpu, from, {4096, threads, 3})));
    expect_converted(from, downloaded(upload_coordinates<double>(gpu, from, {4096, threads, 3})));
  }
  expect_converted(from, downloaded(upload_coordinates<float>(gpu, from)));
#else
  GTEST_SKIP() << "Cuda backend not built";
#endif
}

#ifdef KOKKOS_ENABLE_CUDA
// The pair histogram of points uploaded to the GPU by implementation s.impl equals that of the host
// arrays, and is not empty.
void expect_uploaded_count_as_host(const Kokkos::Cuda& gpu, const std::vector<Vec3<double>>& from,
                                   const Kokkos::View<Vec3<float>*, Kokkos::CudaSpace>& uploaded,
                                   const PairHistogramSettings& s) {
  const ConvertedCoordinates<float> host(from);
  const auto expected = pair_histogram(gpu, one_set(host.data(), host.size()), s);
  const auto counted = pair_histogram(gpu, uploaded, s);
  EXPECT_EQ(counted.impl_used, s.impl);
  EXPECT_EQ(counted.counts, expected.counts);
  std::uint64_t pairs = 0;
  for (const std::uint64_t c : counted.counts) pairs += c;
  EXPECT_GT(pairs, 0u);
}
#endif

TEST(ChunkedConversion, UploadedPointsCountAsTheHostArrays_Cuda) {
#ifdef KOKKOS_ENABLE_CUDA
  if (!test::gpu_present()) GTEST_SKIP() << "no GPU on this machine";
  const Kokkos::Cuda gpu;
  const auto from = random_points(200000, 60, 5);
  PairHistogramSettings s;
  s.box = BoxSpec::orthorhombic(60, 60, 60);
  s.r_max = 9;
  s.n_bins = 90;
  s.impl = PairHistogramImpl::cells;
  expect_uploaded_count_as_host(gpu, from, upload_coordinates<float>(gpu, from, {8192, 4, 3}), s);
#else
  GTEST_SKIP() << "Cuda backend not built";
#endif
}

// The raw kernel packs host arrays into its own layout: uploaded points reach it through a copy
// back, counted as the host arrays are.
TEST(ChunkedConversion, UploadedPointsReachTheHostReadingKernel_Cuda) {
#ifdef KOKKOS_ENABLE_CUDA
  if (!test::gpu_present()) GTEST_SKIP() << "no GPU on this machine";
  const Kokkos::Cuda gpu;
  const auto from = random_points(50000, 60, 7);
  PairHistogramSettings s;
  s.r_max = 40;
  s.n_bins = 400;
  s.impl = PairHistogramImpl::cuda;
  expect_uploaded_count_as_host(gpu, from, upload_coordinates<float>(gpu, from), s);
#else
  GTEST_SKIP() << "Cuda backend not built";
#endif
}

}  // namespace
