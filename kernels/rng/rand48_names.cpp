#include "kernels/rng/rand48_fill.hpp"

namespace kmol {

std::string to_string(Rand48Kind kind) {
  switch (kind) {
    case Rand48Kind::lrand48:
      return "lrand48";
    case Rand48Kind::mrand48:
      return "mrand48";
    case Rand48Kind::drand48:
      return "drand48";
  }
  return "?";
}

Rand48Kind rand48_kind_from_string(const std::string& name) {
  for (Rand48Kind kind : {Rand48Kind::lrand48, Rand48Kind::mrand48, Rand48Kind::drand48})
    if (to_string(kind) == name) return kind;
  throw InputError({"", "kind", -1},
                   "unknown rand48 kind '" + name + "' (expected lrand48, mrand48 or drand48)");
}

std::string to_string(Rand48Layout layout) {
  switch (layout) {
    case Rand48Layout::blocked:
      return "blocked";
    case Rand48Layout::interleaved:
      return "interleaved";
    case Rand48Layout::automatic:
      break;
  }
  return "auto";
}

}  // namespace kmol
