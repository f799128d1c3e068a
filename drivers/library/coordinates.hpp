#pragma once
// Coordinates converted to the precision a kernel takes, by every host thread into memory that no
// single thread touched first: one thread converting (and page-faulting) 100 M atoms takes longer
// than the GPU takes to bin and count them. For a GPU, converted on the way to its memory.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include "drivers/library/chunked_conversion.hpp"
#include "kernels/default_init_allocator.hpp"
#include "kmol/core/vec3.hpp"
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>

#include "kernels/cuda_check.hpp"
#endif

namespace kmol {

// n doubles converted to T by every host thread.
template <class T>
MapValues<T> converted_values(const double* from, std::size_t n) {
  MapValues<T> values(n);
  T* const to = values.data();
  Kokkos::parallel_for(
      "kmol::convert_values",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
          0, std::int64_t(n)),
      [=](std::int64_t i) { to[i] = T(from[i]); });
  Kokkos::DefaultHostExecutionSpace().fence();
  return values;
}

template <class T>
class ConvertedCoordinates {
 public:
  explicit ConvertedCoordinates(const std::vector<Vec3<double>>& from)
      : values_(
            converted_values<T>(reinterpret_cast<const double*>(from.data()), 3 * from.size())) {
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T) && sizeof(Vec3<double>) == 3 * sizeof(double),
                  "points are read and written as arrays of reals");
  }
  const Vec3<T>* data() const { return reinterpret_cast<const Vec3<T>*>(values_.data()); }
  std::int64_t size() const { return std::int64_t(values_.size() / 3); }

 private:
  MapValues<T> values_;
};

#ifdef KOKKOS_ENABLE_CUDA
// Coordinates in the GPU's memory, converted to T by the host threads a chunk at a time while the
// chunks before cross the bus (chunked_conversion.hpp): the call pays about the copy alone.
// Pageable copies, as a call's first upload in kept_arrays.hpp: page-locking memory takes longer
// than a one-shot call's copy of it. T stays the host's conversion rather than the GPU's because
// the bus is the bottleneck: doubles would double the bytes crossing it.
template <class T>
Kokkos::View<Vec3<T>*, Kokkos::CudaSpace> upload_coordinates(const Kokkos::Cuda& gpu,
                                                             const std::vector<Vec3<double>>& from,
                                                             const ChunkPlan& plan = {}) {
  static constexpr CudaCheck check{"coordinates: upload"};
  const Kokkos::View<Vec3<T>*, Kokkos::CudaSpace> points(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kmol::coordinates"), from.size());
  convert_in_chunks<T>(
      from.data(), std::int64_t(from.size()),
      [&](std::int64_t first, std::int64_t count, const Vec3<T>* chunk) {
        check(cudaMemcpyAsync(points.data() + first, chunk, std::size_t(count) * sizeof(Vec3<T>),
                              cudaMemcpyHostToDevice, gpu.cuda_stream()),
              "copy");
      },
      plan);
  check(cudaStreamSynchronize(gpu.cuda_stream()), "copy");
  return points;
}
#endif

}  // namespace kmol
