#pragma once
// Coordinates converted to the precision a kernel takes, by every host thread into memory that no
// single thread touched first: one thread converting (and page-faulting) 100 M atoms takes longer
// than the GPU takes to bin and count them.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

#include "kernels/default_init_allocator.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

template <class T>
class ConvertedCoordinates {
 public:
  explicit ConvertedCoordinates(const std::vector<Vec3<double>>& from) {
    static_assert(sizeof(Vec3<T>) == 3 * sizeof(T), "points are read as one array of reals");
    values_.resize(3 * from.size());
    T* const to = values_.data();
    const Vec3<double>* const in = from.data();
    Kokkos::parallel_for(
        "kmol::convert_coordinates",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::IndexType<std::int64_t>>(
            0, std::int64_t(from.size())),
        [=](std::int64_t i) {
          to[3 * i] = T(in[i].x);
          to[3 * i + 1] = T(in[i].y);
          to[3 * i + 2] = T(in[i].z);
        });
    Kokkos::DefaultHostExecutionSpace().fence();
  }
  const Vec3<T>* data() const { return reinterpret_cast<const Vec3<T>*>(values_.data()); }
  std::int64_t size() const { return std::int64_t(values_.size() / 3); }

 private:
  MapValues<T> values_;
};

}  // namespace kmol
