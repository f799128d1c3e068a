#pragma once
// The one dispatcher, for an execution space: runs the row of an algorithm's implementation table
// that its selector chose, through the row's runner (see run_on_device.hpp): a portable row on
// the space itself, a host or cuda row on the device the space stands for (device_of).
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include "kernels/run_on_device.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {
namespace detail {

template <template <auto> class Runner, const auto& Table, std::size_t I, class Space,
          class... Args>
std::optional<std::string> run_row_on_space(const Space& space, Args&&... args) {
  if constexpr (Table[I].kind == ImplementationKind::portable) {
    return Runner<Table[I].impl>::run(space, std::forward<Args>(args)...);
  } else if constexpr (Table[I].kind == kind_on(platform_of<Space>()) && Table[I].compiled()) {
    // Host code reads the space's memory outside Kokkos: what the space queued comes first.
    if constexpr (Table[I].kind == ImplementationKind::host) space.fence();
    return Runner<Table[I].impl>::run(device_of(space), std::forward<Args>(args)...);
  } else {
    return std::nullopt;
  }
}

template <template <auto> class Runner, const auto& Table, class Space, class... Args,
          std::size_t... I>
std::optional<std::string> run_chosen_on_space(std::index_sequence<I...>,
                                               decltype(Table[0].impl) impl, const Space& space,
                                               Args&&... args) {
  std::optional<std::string> launch;
  ((impl == Table[I].impl ? void(launch = run_row_on_space<Runner, Table, I>(space, args...))
                          : void()),
   ...);
  return launch;
}

}  // namespace detail

// Runs implementation `impl` of Table on `space` and returns its launch description;
// UnsupportedError when that implementation does not run on the space.
template <template <auto> class Runner, const auto& Table, class Space, class... Args>
std::string run_implementation(const std::string& algorithm, decltype(Table[0].impl) impl,
                               const Space& space, Args&&... args) {
  const auto launch = detail::run_chosen_on_space<Runner, Table>(
      std::make_index_sequence<std::size(Table)>(), impl, space, std::forward<Args>(args)...);
  if (!launch)
    throw UnsupportedError(algorithm + ": " + implementation_name(Table, impl) +
                           " cannot run on this execution space");
  return *launch;
}

}  // namespace kmol
