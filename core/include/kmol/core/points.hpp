#pragma once
// Atoms as the entry points take them: n points of three coordinates, from an array of Vec3<T>,
// a flat array x0,y0,z0,x1,... of 3n values, or any contiguous range of either (std::vector,
// std::array, kmol::Span). A flat array is the same memory as n Vec3s (a Vec3<T> is three T and
// nothing else), so it is read where it lies, never copied.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

#include "kmol/core/errors.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

static_assert(sizeof(Vec3<float>) == 3 * sizeof(float) && alignof(Vec3<float>) == alignof(float),
              "Vec3<float> must be three floats for flat arrays to be read as points");
static_assert(sizeof(Vec3<double>) == 3 * sizeof(double) &&
                  alignof(Vec3<double>) == alignof(double),
              "Vec3<double> must be three doubles for flat arrays to be read as points");

// A pointer and a count of elements: C++17's stand-in for std::span, for arrays held elsewhere.
template <class T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, std::size_t size) : data_(data), size_(size) {}
  constexpr T* data() const { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// n points where the caller keeps them.
template <class T>
struct Points {
  const Vec3<T>* data = nullptr;
  std::int64_t n = 0;
};

// A flat array x0,y0,z0,x1,... read as Vec3s in place.
template <class T, class = std::enable_if_t<std::is_floating_point_v<T>>>
const Vec3<T>* as_points(const T* xyz) {
  return reinterpret_cast<const Vec3<T>*>(xyz);
}

namespace detail {

template <class Range>
using range_element_t =
    std::remove_cv_t<std::remove_pointer_t<decltype(std::data(std::declval<const Range&>()))>>;

template <class E>
struct point_scalar {};  // neither coordinates nor Vec3s: not a range of points
template <class T>
struct point_scalar<Vec3<T>> {
  using type = T;
};
template <>
struct point_scalar<float> {
  using type = float;
};
template <>
struct point_scalar<double> {
  using type = double;
};

template <class Range, class = void>
struct range_points {};
template <class Range>
struct range_points<Range, std::void_t<typename point_scalar<range_element_t<Range>>::type,
                                       decltype(std::size(std::declval<const Range&>()))>> {
  using scalar = typename point_scalar<range_element_t<Range>>::type;
};

}  // namespace detail

// The scalar of a contiguous range of points (float or double); only ranges of Vec3s or of
// coordinates have one, so overloads taking ranges drop out for anything else.
template <class Range>
using points_scalar_t = typename detail::range_points<Range>::scalar;

// The points of a contiguous range of Vec3s, or of 3n coordinates. `field` names the argument in
// the InputError a flat range whose length is not a multiple of 3 gets.
template <class Range>
Points<points_scalar_t<Range>> points(const Range& range, const char* field = "coordinates") {
  using T = points_scalar_t<Range>;
  const auto size = static_cast<std::int64_t>(std::size(range));
  if constexpr (std::is_same_v<detail::range_element_t<Range>, Vec3<T>>) {
    return {std::data(range), size};
  } else {
    if (size % 3 != 0)
      throw InputError({"", field, -1},
                       std::to_string(size) + " values, not three per atom (x0,y0,z0,x1,...)");
    return {as_points(std::data(range)), size / 3};
  }
}

// The length of a per-atom range (charges, radii, ...) checked against the atoms'.
template <class Range>
auto per_atom(const Range& values, std::int64_t n, const char* field) {
  const auto size = static_cast<std::int64_t>(std::size(values));
  if (size != n)
    throw InputError({"", field, -1}, std::to_string(size) + " values for " + std::to_string(n) +
                                          " atoms (one per atom expected)");
  return std::data(values);
}

}  // namespace kmol
