// The accuracy table of docs/coulomb.md (after Rodrigues et al.'s Table 2): on the 10^6 A^3 water
// box (96,600 atoms, coordinates rounded to single precision so that every implementation and the
// reference see the same input), the largest absolute and relative error of each implementation
// in single precision, plain and compensated, against a double-precision compensated reference,
// over the points where |V| > 1e-4 kT/e. Prints a Markdown table.
//
//   kmol_coulomb_accuracy [--direct-spacing 4] [--skip-kokkos-cutoff-on-host]
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/implementations.hpp"
#include "kernels/coulomb/selection.hpp"
#include "kernels/coulomb/water_box.hpp"
#include "kmol/core/execution_space.hpp"
#include "kmol/core/runtime.hpp"

namespace {

using namespace kmol;

struct Input {
  std::vector<Vec3<float>> xyz32;
  std::vector<Vec3<double>> xyz64;
  std::vector<float> q32, r32;
  std::vector<double> q64, r64;
};

template <class ExecSpace, class T>
std::vector<double> map_of(const Input& in, const CoulombSettings& s) {
  const auto& xyz = [&]() -> const auto& {
    if constexpr (sizeof(T) == 4)
      return in.xyz32;
    else
      return in.xyz64;
  }
  ();
  const auto& q = [&]() -> const auto& {
    if constexpr (sizeof(T) == 4)
      return in.q32;
    else
      return in.q64;
  }
  ();
  const auto& r = [&]() -> const auto& {
    if constexpr (sizeof(T) == 4)
      return in.r32;
    else
      return in.r64;
  }
  ();
  const auto map = coulomb_potential(
      ExecSpace(), CoulombInput<T>{xyz.data(), q.data(), r.data(), std::int64_t(xyz.size())}, s);
  return {map.values.begin(), map.values.end()};
}

template <class ExecSpace>
void rows(const std::string& space, const Input& in, CoulombSettings s,
          const std::vector<double>& reference, bool skip_kokkos_cutoff) {
  constexpr auto platform = platform_of<ExecSpace>();
  const CoulombShape shape{s.method, std::int64_t(in.xyz32.size()), s.lattice.points(),
                           false,    s.lattice.spacing[0],          s.cutoff};
  for (CoulombImpl impl : compiled_implementations(coulomb_implementations)) {
    if (!coulomb_refusal(impl, shape, platform).empty()) continue;
    if (skip_kokkos_cutoff && impl == CoulombImpl::kokkos && s.method == CoulombMethod::cutoff &&
        platform == Platform::host)
      continue;
    s.impl = impl;
    for (bool compensated : {false, true}) {
      s.compensated = compensated;
      const auto v = map_of<ExecSpace, float>(in, s);
      double abs_err = 0, rel_err = 0;
      std::int64_t counted = 0;
      for (std::size_t p = 0; p < v.size(); ++p) {
        if (!(std::fabs(reference[p]) > 1e-4)) continue;
        const double e = std::fabs(v[p] - reference[p]);
        abs_err = std::max(abs_err, e);
        rel_err = std::max(rel_err, e / std::fabs(reference[p]));
        ++counted;
      }
      std::printf("| %s | %s | %s | %s | %.3e | %.3e | %lld |\n", to_string(s.method).c_str(),
                  to_string(impl).c_str(), space.c_str(), compensated ? "compensated" : "plain",
                  abs_err, rel_err, (long long)counted);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  double direct_spacing = 4;
  bool skip_kokkos_cutoff = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--direct-spacing") == 0 && i + 1 < argc)
      direct_spacing = std::atof(argv[++i]);
    if (std::strcmp(argv[i], "--skip-kokkos-cutoff-on-host") == 0) skip_kokkos_cutoff = true;
  }
  Runtime runtime;
  const auto box = coulomb::water_box(32200, 100, 2024);
  Input in;
  for (std::size_t a = 0; a < box.positions.size(); ++a) {
    in.xyz32.push_back(box.positions[a].cast<float>());
    in.xyz64.push_back(in.xyz32.back().cast<double>());
    in.q32.push_back(float(box.charges[a]));
    in.q64.push_back(double(in.q32.back()));
    in.r32.push_back(float(box.radii[a]));
    in.r64.push_back(double(in.r32.back()));
  }
  std::printf(
      "water box: %zu atoms in 100^3 A^3; errors in kT/e at 298.15 K over points with |V| > 1e-4 "
      "kT/e\n\n",
      in.xyz32.size());
  std::printf(
      "| method | implementation | backend | summation | max abs error | max rel error | points "
      "|\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (CoulombMethod m : {CoulombMethod::cutoff, CoulombMethod::direct}) {
    CoulombSettings s;
    s.method = m;
    s.cutoff = 12;
    const double h = m == CoulombMethod::cutoff ? 0.5 : direct_spacing;
    const std::int64_t n = std::int64_t(std::lround(100 / h)) + 1;
    s.lattice = {{0, 0, 0}, {h, h, h}, {n, n, n}};
    s.impl = CoulombImpl::host;
    s.compensated = true;
    const auto reference = map_of<Kokkos::DefaultHostExecutionSpace, double>(in, s);
#ifdef KOKKOS_ENABLE_CUDA
    if (!gpu_devices().empty()) rows<Kokkos::Cuda>("Cuda", in, s, reference, skip_kokkos_cutoff);
#endif
    rows<Kokkos::DefaultHostExecutionSpace>("OpenMP", in, s, reference, skip_kokkos_cutoff);
  }
  return 0;
}
