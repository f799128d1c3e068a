#include "kernels/rng/rand48_fill.hpp"
#include "kmol/core/names.hpp"

namespace kmol {
namespace {

constexpr Named<Rand48Kind> rand48_kind_names[] = {{Rand48Kind::lrand48, "lrand48"},
                                                   {Rand48Kind::mrand48, "mrand48"},
                                                   {Rand48Kind::drand48, "drand48"}};
constexpr Named<Rand48Layout> rand48_layout_names[] = {{Rand48Layout::automatic, "auto"},
                                                       {Rand48Layout::blocked, "blocked"},
                                                       {Rand48Layout::interleaved, "interleaved"}};

}  // namespace

std::string to_string(Rand48Kind value) { return name_of(rand48_kind_names, value); }

Rand48Kind rand48_kind_from_string(const std::string& name) {
  return value_named(rand48_kind_names, name, "kind", "rand48 kind");
}

std::string to_string(Rand48Layout value) { return name_of(rand48_layout_names, value); }

}  // namespace kmol
