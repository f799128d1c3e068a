#pragma once
#include <string_view>

namespace kmol {

enum class Precision { single, double_ };

template <class T>
struct PrecisionTraits;

template <>
struct PrecisionTraits<float> {
  static constexpr Precision precision = Precision::single;
  static constexpr std::string_view name = "single";
};

template <>
struct PrecisionTraits<double> {
  static constexpr Precision precision = Precision::double_;
  static constexpr std::string_view name = "double";
};

constexpr std::string_view to_string(Precision p) {
  return p == Precision::single ? "single" : "double";
}

}  // namespace kmol
