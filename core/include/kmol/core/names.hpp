#pragma once
// Enumerations named once: one table of (value, name) rows gives both directions, so the names
// `kmol info` prints, the options accept and the errors list cannot drift apart.
#include <cstddef>
#include <string>

#include "kmol/core/errors.hpp"

namespace kmol {

template <class E>
struct Named {
  E value;
  const char* name;
};

template <class E, std::size_t N>
std::string name_of(const Named<E> (&names)[N], E value) {
  for (const Named<E>& n : names)
    if (n.value == value) return n.name;
  return "?";
}

// The value called `name`; otherwise InputError naming `field`, saying what kind of name it
// expected (`what`) and listing every name.
template <class E, std::size_t N>
E value_named(const Named<E> (&names)[N], const std::string& name, const std::string& field,
              const std::string& what) {
  std::string expected;
  for (std::size_t k = 0; k < N; ++k) {
    if (name == names[k].name) return names[k].value;
    expected += (k == 0 ? "" : k + 1 == N ? " or " : ", ") + std::string(names[k].name);
  }
  throw InputError({"", field, -1},
                   "unknown " + what + " '" + name + "' (expected " + expected + ")");
}

}  // namespace kmol
