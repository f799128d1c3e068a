#pragma once
// What every algorithm's views.hpp needs to read a Kokkos application's Views in place: the
// pointer to a View's contiguous elements in its own memory space, after checking at compile time
// that the execution space can read that memory and at run time that the layout is the one the
// kernels index (InputError naming the field otherwise).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "kmol/core/errors.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol::views_detail {

template <class V>
struct Scalar {
  using type = V;
};
template <class T>
struct Scalar<Vec3<T>> {
  using type = T;
};

// The real type of a View of T, T[3] rows or Vec3<T>.
template <class View>
using scalar_t = typename Scalar<typename View::non_const_value_type>::type;

template <class ExecSpace, class View>
constexpr void require_readable() {
  static_assert(Kokkos::is_view<View>::value, "a Kokkos::View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible,
                "the execution space cannot read this View's memory space");
}

// Points: a View of Vec3<T> (rank 1, contiguous) or rows of three T (rank 2, LayoutRight).
template <class ExecSpace, class View>
const Vec3<scalar_t<View>>* points(const View& v, const char* field) {
  using T = scalar_t<View>;
  require_readable<ExecSpace, View>();
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "coordinates are float or double");
  if constexpr (View::rank == 2) {
    static_assert(std::is_same_v<typename View::array_layout, Kokkos::LayoutRight>,
                  "rows of three coordinates: LayoutRight");
    if (v.extent(1) != 3) throw InputError({"", field, -1}, "expected rows of 3 coordinates");
  } else {
    static_assert(View::rank == 1 && std::is_same_v<typename View::non_const_value_type, Vec3<T>>,
                  "a View of Vec3<T> or of T[3] rows");
    if (!v.span_is_contiguous()) throw InputError({"", field, -1}, "expected a contiguous View");
  }
  return reinterpret_cast<const Vec3<T>*>(v.data());
}

// One value per atom or per map point, `n` of them (`what` names them in the refusal): a
// contiguous rank-1 View of T.
template <class ExecSpace, class T, class View>
const T* values(const View& v, std::int64_t n, const char* field, const char* what) {
  require_readable<ExecSpace, View>();
  static_assert(View::rank == 1 && std::is_same_v<typename View::non_const_value_type, T>,
                "a rank-1 View of the kernel's value type");
  if (std::int64_t(v.extent(0)) != n)
    throw InputError({"", field, -1}, "expected " + std::to_string(n) + " " + what + ", not " +
                                          std::to_string(v.extent(0)));
  if (!v.span_is_contiguous()) throw InputError({"", field, -1}, "expected a contiguous View");
  return v.data();
}

// An input's atoms from a View of positions already in the space's memory (positions, n and
// resident, which every such input has); returns their number.
template <class ExecSpace, class Input, class Positions>
std::int64_t place_atoms(Input& input, const Positions& positions, const char* field) {
  input.positions = points<ExecSpace>(positions, field);
  input.n = std::int64_t(positions.extent(0));
  input.resident = true;
  return input.n;
}

}  // namespace kmol::views_detail
