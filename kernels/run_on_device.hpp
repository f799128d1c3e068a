#pragma once
// The one dispatcher, for a worker's device: runs the row of an algorithm's implementation table
// that was chosen, through its runner. Each row has a runner, a specialisation Runner<impl> in
// the implementation's folder, with
//   run(const Space& space, args...)   for portable rows (any Kokkos execution space), or
//   run(const Device& device, args...) for host and cuda rows (host threads, or a CUDA device and
//                                      stream), which the worker pool's devices run too.
// Kokkos-free; run_implementation.hpp runs rows on an execution space.
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include "kernels/implementation_table.hpp"
#include "kmol/core/device.hpp"
#include "kmol/core/errors.hpp"

namespace kmol {
namespace detail {

// The kind of implementation that runs on a device of this platform.
constexpr ImplementationKind kind_on(Platform platform) {
  return platform == Platform::cuda ? ImplementationKind::cuda : ImplementationKind::host;
}

template <template <auto> class Runner, const auto& Table, std::size_t I, class... Args>
std::optional<std::string> run_row_on(const Device& device, Args&&... args) {
  if constexpr (Table[I].kind == ImplementationKind::portable || !Table[I].compiled()) {
    return std::nullopt;
  } else {
    if (kind_on(device.platform) != Table[I].kind) return std::nullopt;
    return Runner<Table[I].impl>::run(device, std::forward<Args>(args)...);
  }
}

template <template <auto> class Runner, const auto& Table, class... Args, std::size_t... I>
std::optional<std::string> run_chosen_on(std::index_sequence<I...>, decltype(Table[0].impl) impl,
                                         const Device& device, Args&&... args) {
  std::optional<std::string> launch;
  ((impl == Table[I].impl ? void(launch = run_row_on<Runner, Table, I>(device, args...)) : void()),
   ...);
  return launch;
}

}  // namespace detail

// Runs implementation `impl` of Table on a worker's device and returns its launch description;
// UnsupportedError when it is not a platform implementation of the device's platform.
template <template <auto> class Runner, const auto& Table, class... Args>
std::string run_on_device(const std::string& algorithm, decltype(Table[0].impl) impl,
                          const Device& device, Args&&... args) {
  const auto launch = detail::run_chosen_on<Runner, Table>(
      std::make_index_sequence<std::size(Table)>(), impl, device, std::forward<Args>(args)...);
  if (!launch)
    throw UnsupportedError(algorithm + ": " + implementation_name(Table, impl) + " cannot run on " +
                           (device.platform == Platform::cuda ? "a GPU worker" : "a CPU worker"));
  return *launch;
}

}  // namespace kmol
