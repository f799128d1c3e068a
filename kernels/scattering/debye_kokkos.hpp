#pragma once
// The direct sums of debye.hpp in portable Kokkos: one thread per (block of rows, q) for the
// pair sum, one per wave vector for the amplitudes; each in pieces a cancel can stop between.
#include <Kokkos_Core.hpp>

#include "kernels/launch_pieces_kokkos.hpp"
#include "kernels/scattering/debye.hpp"
#include "kernels/scattering/debye_terms.hpp"
#include "kmol/core/math.hpp"

namespace kmol {

namespace debye_detail {

template <class Memory, class V>
Kokkos::View<V*, Memory> to_space(const V* host, std::int64_t n, const char* label) {
  Kokkos::View<V*, Memory> copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                                std::size_t(n));
  Kokkos::deep_copy(copy,
                    Kokkos::View<const V*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(host, n));
  return copy;
}

constexpr std::int64_t rows_per_block = 32;

// The pair sum's rows in one box kind (a named function: CUDA's extended lambdas may not sit in
// a generic lambda).
template <class ExecSpace, class Box, class Xyz, class Types, class Weights, class Qs,
          class Partial>
void debye_rows(const ExecSpace& space, const Box wrap, const Xyz xyz, const Types type,
                const Weights w, const Qs q, const Partial partial, std::int64_t n, double r_cut,
                double r_window) {
  const std::int64_t n_q = std::int64_t(q.extent(0)), blocks = std::int64_t(partial.extent(0));
  const double cut2 = r_cut * r_cut;
  // Thread t: block t / n_q at q index t % n_q, so that neighbouring threads read the same atoms.
  parallel_for_in_pieces(
      "kmol::debye::pairs", space, blocks * n_q, "the Debye sum",
      KOKKOS_LAMBDA(const std::int64_t t) {
        const std::int64_t block = t / n_q, k = t % n_q;
        const double qk = q(k);
        const std::int64_t begin = block * rows_per_block;
        const std::int64_t end = begin + rows_per_block < n ? begin + rows_per_block : n;
        double sum = 0;
        for (std::int64_t i = begin; i < end; ++i) {
          const double wi = w(type(i) * n_q + k);
          for (std::int64_t j = i + 1; j < n; ++j) {
            const double r2 = norm2(wrap.minimum_image(xyz(j) - xyz(i)));
            if (r2 >= cut2) continue;
            const double r = math::sqrt(r2);
            sum += wi * w(type(j) * n_q + k) * sinc(qk * r) * lorch_window(r, r_window);
          }
        }
        partial(block, k) = sum;
      });
}

}  // namespace debye_detail

template <class ExecSpace>
std::vector<double> debye_pair_sum(const ExecSpace& space, const DebyeAtoms& atoms,
                                   const std::vector<double>& q_host, const BoxSpec& box,
                                   double r_cut, double r_window) {
  using Memory = typename ExecSpace::memory_space;
  using namespace debye_detail;
  Kokkos::Profiling::pushRegion("kmol::debye_pair_sum");
  const std::int64_t n = atoms.n, n_q = std::int64_t(q_host.size());
  const std::int64_t blocks = (n + rows_per_block - 1) / rows_per_block;
  const auto xyz = to_space<Memory>(atoms.xyz, n, "kmol::debye::xyz");
  const auto type = to_space<Memory>(atoms.type, n, "kmol::debye::type");
  const auto w =
      to_space<Memory>(atoms.weights, std::int64_t(atoms.n_types) * n_q, "kmol::debye::w");
  const auto q = to_space<Memory>(q_host.data(), n_q, "kmol::debye::q");
  Kokkos::View<double**, Kokkos::LayoutRight, Memory> partial(
      "kmol::debye::partial", std::size_t(blocks), std::size_t(n_q));
  const BoxSpec checked = validated(box);
  switch (checked.kind) {
    case BoxKind::orthorhombic:
      debye_rows(space, OrthorhombicBox<double>(checked), xyz, type, w, q, partial, n, r_cut,
                 r_window);
      break;
    case BoxKind::triclinic:
      debye_rows(space, TriclinicBox<double>(checked), xyz, type, w, q, partial, n, r_cut,
                 r_window);
      break;
    case BoxKind::none:
      debye_rows(space, NoBox<double>{}, xyz, type, w, q, partial, n, r_cut, r_window);
      break;
  }
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), partial);
  std::vector<double> out(std::size_t(n_q), 0.0);
  for (std::int64_t b = 0; b < blocks; ++b)
    for (std::int64_t k = 0; k < n_q; ++k) out[std::size_t(k)] += host(b, k);
  Kokkos::Profiling::popRegion();
  return out;
}

template <class ExecSpace>
std::vector<double> wave_sum(const ExecSpace& space, const DebyeAtoms& atoms,
                             const std::vector<Vec3<double>>& waves_host,
                             const std::vector<std::int32_t>& bin_host, std::int32_t n_q) {
  using Memory = typename ExecSpace::memory_space;
  using namespace debye_detail;
  const std::int64_t n = atoms.n, n_k = std::int64_t(waves_host.size());
  if (n_k == 0) return {};
  Kokkos::Profiling::pushRegion("kmol::wave_sum");
  const auto xyz = to_space<Memory>(atoms.xyz, n, "kmol::waves::xyz");
  const auto type = to_space<Memory>(atoms.type, n, "kmol::waves::type");
  const auto w =
      to_space<Memory>(atoms.weights, std::int64_t(atoms.n_types) * n_q, "kmol::waves::w");
  const auto waves = to_space<Memory>(waves_host.data(), n_k, "kmol::waves::k");
  const auto bins = to_space<Memory>(bin_host.data(), n_k, "kmol::waves::bin");
  Kokkos::View<double*, Memory> power("kmol::waves::power", std::size_t(n_k));
  parallel_for_in_pieces(
      "kmol::waves::amplitudes", space, n_k, "the structure factor's waves",
      KOKKOS_LAMBDA(const std::int64_t k) {
        const Vec3<double> kv = waves(k);
        const std::int64_t bin = bins(k);
        double re = 0, im = 0;
        for (std::int64_t j = 0; j < n; ++j) {
          const double phase = dot(kv, xyz(j));
          const double wj = w(type(j) * n_q + bin);
          re += wj * ::cos(phase);
          im += wj * ::sin(phase);
        }
        power(k) = re * re + im * im;
      });
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), power);
  Kokkos::Profiling::popRegion();
  return std::vector<double>(host.data(), host.data() + n_k);
}

}  // namespace kmol

#define KMOL_INSTANTIATE_SCATTERING(Space)                                                 \
  template std::vector<double> kmol::debye_pair_sum(const Space&, const kmol::DebyeAtoms&, \
                                                    const std::vector<double>&,            \
                                                    const kmol::BoxSpec&, double, double); \
  template std::vector<double> kmol::wave_sum(const Space&, const kmol::DebyeAtoms&,       \
                                              const std::vector<kmol::Vec3<double>>&,      \
                                              const std::vector<std::int32_t>&, std::int32_t);
