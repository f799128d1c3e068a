#pragma once
// An algorithm's implementations, listed once as the rows of a table (the algorithm's
// implementations.hpp): the name --impl takes, what each can run (a refusal for the problems it
// cannot), when auto takes it and what `kmol info` says of it. Names in both directions, refusals,
// the --impl check, auto's choice and the catalogue read the table; each row runs through its
// runner (run_implementation.hpp). The Impl enumeration is made from the rows by CMake
// (cmake/KmolImplementations.cmake); its first enumerator, `automatic`, leaves the choice to auto.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/registry.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/platform.hpp"

namespace kmol {

#ifdef KMOL_HAVE_CUDA
inline constexpr bool cuda_compiled = true;
#else
inline constexpr bool cuda_compiled = false;
#endif

// The shape of a problem for algorithms whose implementations take every problem their platform
// runs.
struct AnyShape {};

// How an implementation runs: portable Kokkos code on any execution space, or platform code
// (plain host threads, or raw CUDA on a device and stream) that runs on a Device.
enum class ImplementationKind { portable, host, cuda };

// What the entry points ask of a row instead of naming it (ImplementationRow::traits).
namespace row_trait {
// Its kernels read the atoms in the execution space's memory (resident ones where they lie); the
// others read the host-side arrays the job prepares.
inline constexpr unsigned reads_space_atoms = 1u << 0;
// It takes forced launch parameters (thread-block shapes and the like).
inline constexpr unsigned takes_launch = 1u << 1;
}  // namespace row_trait

template <class Impl, class Shape>
struct ImplementationRow {
  Impl impl;
  const char* name;  // what --impl takes
  ImplementationKind kind;
  // Why it cannot run a problem of this shape beyond its kind's platform; empty when it can (or
  // nullptr: every problem).
  std::string (*refusal)(const Shape& shape, Platform platform);
  // Auto takes, of the rows that can run a problem and pay for it, the one of highest preference;
  // 0: never (auto's fallback is the table's first row, a portable one).
  int preference;
  bool (*pays)(const Shape& shape, Platform platform);  // nullptr: wherever it runs
  const char* supports;     // for kmol info: backends, boxes, precisions, limits
  const char* chosen_when;  // for kmol info: when auto picks it
  unsigned traits = 0;      // row_trait bits
  // Whether it stores every point of its output for a problem of this shape, so that the output
  // is left unzeroed (nullptr: never).
  bool (*writes_every_point)(const Shape& shape) = nullptr;

  constexpr bool compiled() const { return kind != ImplementationKind::cuda || cuda_compiled; }
  constexpr bool has(unsigned trait) const { return (traits & trait) == trait; }
  bool writes_all_of(const Shape& shape) const {
    return writes_every_point != nullptr && writes_every_point(shape);
  }
};

// A trait's `writes_every_point` for rows that store every point of every problem.
template <class Shape>
constexpr bool always(const Shape&) {
  return true;
}

template <class Row, std::size_t N>
const Row* row_of(const Row (&table)[N], decltype(Row::impl) impl) {
  for (const Row& row : table)
    if (row.impl == impl) return &row;
  return nullptr;
}

// The row of `impl`, which must not be automatic (std::logic_error otherwise).
template <class Row, std::size_t N>
const Row& implementation_row(const Row (&table)[N], decltype(Row::impl) impl) {
  const Row* row = row_of(table, impl);
  if (row == nullptr) throw std::logic_error("no implementation row for the automatic choice");
  return *row;
}

// Every row this build compiled, in table order: what the shared tests and benchmarks run.
template <class Row, std::size_t N>
std::vector<decltype(Row::impl)> compiled_implementations(const Row (&table)[N]) {
  std::vector<decltype(Row::impl)> out;
  for (const Row& row : table)
    if (row.compiled()) out.push_back(row.impl);
  return out;
}

// Whether `impl` is a portable row (automatic: no).
template <class Row, std::size_t N>
bool is_portable(const Row (&table)[N], decltype(Row::impl) impl) {
  const Row* row = row_of(table, impl);
  return row != nullptr && row->kind == ImplementationKind::portable;
}

template <class Row, std::size_t N>
std::string implementation_name(const Row (&table)[N], decltype(Row::impl) impl) {
  if (impl == decltype(impl)::automatic) return "auto";
  const Row* row = row_of(table, impl);
  return row != nullptr ? row->name : "?";
}

// The implementation called `name` ("auto" or a row's); otherwise InputError naming `field`,
// saying what kind of name it expected (`what`) and listing every name.
template <class Row, std::size_t N>
decltype(Row::impl) implementation_named(const Row (&table)[N], const std::string& name,
                                         const std::string& field, const std::string& what) {
  if (name == "auto") return decltype(Row::impl)::automatic;
  std::string expected = "auto";
  for (std::size_t k = 0; k < N; ++k) {
    if (name == table[k].name) return table[k].impl;
    expected += (k + 1 == N ? " or " : ", ") + std::string(table[k].name);
  }
  throw InputError({"", field, -1},
                   "unknown " + what + " '" + name + "' (expected " + expected + ")");
}

// Empty when `impl` can run the problem on the platform, else why not.
template <class Row, std::size_t N, class Shape>
std::string implementation_refusal(const Row (&table)[N], decltype(Row::impl) impl,
                                   const Shape& shape, Platform platform) {
  const Row* row = row_of(table, impl);
  if (row == nullptr) return "automatic is not an implementation";
  const std::string name = row->name;
  if (!row->compiled())
    return name + " is not compiled into this build (configure with KMOL_CONFIG=cuda)";
  if (row->kind == ImplementationKind::host && platform != Platform::host)
    return name + " runs on CPU execution spaces only";
  if (row->kind == ImplementationKind::cuda && platform != Platform::cuda)
    return name + " runs on the Cuda execution space only";
  return row->refusal != nullptr ? row->refusal(shape, platform) : std::string();
}

// UnsupportedError ("<command> --impl <name>: <why>") when `impl` cannot run the problem.
template <class Row, std::size_t N, class Shape>
void require_runnable(const Row (&table)[N], const std::string& command, decltype(Row::impl) impl,
                      const Shape& shape, Platform platform) {
  const std::string why = implementation_refusal(table, impl, shape, platform);
  if (!why.empty())
    throw UnsupportedError(command + " --impl " + implementation_name(table, impl) + ": " + why);
}

// What runs a problem: `requested` when it can (UnsupportedError when not); for automatic, the
// row of highest preference that can run it and pays, else the table's first row.
template <class Row, std::size_t N, class Shape>
decltype(Row::impl) choose_implementation(const Row (&table)[N], const std::string& command,
                                          decltype(Row::impl) requested, const Shape& shape,
                                          Platform platform) {
  if (requested != decltype(requested)::automatic) {
    require_runnable(table, command, requested, shape, platform);
    return requested;
  }
  const Row* best = &table[0];
  int best_preference = 0;
  for (const Row& row : table)
    if (row.preference > best_preference && (row.pays == nullptr || row.pays(shape, platform)) &&
        implementation_refusal(table, row.impl, shape, platform).empty()) {
      best = &row;
      best_preference = row.preference;
    }
  return best->impl;
}

// The implementation that runs on the worker devices of a platform: the table's first compiled
// host (or cuda) row.
template <class Row, std::size_t N>
decltype(Row::impl) platform_implementation(const Row (&table)[N], Platform platform) {
  const ImplementationKind kind =
      platform == Platform::cuda ? ImplementationKind::cuda : ImplementationKind::host;
  for (const Row& row : table)
    if (row.kind == kind && row.compiled()) return row.impl;
  throw UnsupportedError("no implementation runs on a " +
                         std::string(platform == Platform::cuda ? "GPU" : "CPU") + " worker");
}

// `kmol info`'s entry: the rows this build has.
template <class Row, std::size_t N>
AlgorithmSummary implementation_summary(const std::string& name, const std::string& description,
                                        const Row (&table)[N]) {
  AlgorithmSummary s{name, description, {}};
  for (const Row& row : table)
    if (row.compiled()) s.implementations.push_back({row.name, row.supports, row.chosen_when});
  return s;
}

}  // namespace kmol
