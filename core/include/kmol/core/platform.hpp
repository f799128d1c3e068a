#pragma once
// The kinds of processor an implementation can run on, as its refusal and the selectors see them.
// Kokkos-free, so raw CUDA units and the selectors can name it.
namespace kmol {

enum class Platform { host, cuda };

}  // namespace kmol
