#pragma once
// The number at the start of a text, read as std::stod (double) or std::stol (long) reads it,
// leading spaces skipped, without exceptions: `used` counts the characters it took, 0 where the
// text starts with no number or one beyond the type's range (the value then 0). Each caller decides
// what may follow.
#include <cstddef>
#include <exception>
#include <string>
#include <type_traits>

namespace kmol {

template <class T>
struct LeadingNumber {
  T value = 0;
  std::size_t used = 0;
};

template <class T>
LeadingNumber<T> leading_number(const std::string& text) {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, long>, "double or long");
  LeadingNumber<T> n;
  try {
    if constexpr (std::is_same_v<T, double>)
      n.value = std::stod(text, &n.used);
    else
      n.value = std::stol(text, &n.used);
  } catch (const std::exception&) {
    n = {};
  }
  return n;
}

}  // namespace kmol
