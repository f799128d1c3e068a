#include "kernels/coulomb/host/coulomb_host.hpp"

#include <omp.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/coulomb/evaluator.hpp"
#include "kernels/coulomb/vector_terms.hpp"
#include "kmol/core/cancel.hpp"

namespace kmol {
namespace {

using coulomb::Summation;
using coulomb::Term;

// Independent partial sums, one per vector lane, so the compiler can vectorise the atom loop
// without reassociating any one sum.
constexpr int lanes = 16;

template <class T, Term K, Summation S>
T sum_row_point(const T* along, const T* across2, const T* q, std::int64_t n, T p, T kappa) {
  T sum[lanes] = {}, carry[lanes] = {};
  std::int64_t a0 = 0;
  for (; a0 + lanes <= n; a0 += lanes) {
#pragma omp simd
    for (int l = 0; l < lanes; ++l) {
      const T d = along[a0 + l] - p;
      const T r2 = math::fma(d, d, across2[a0 + l]);
      const T term = K == Term::mdh ? coulomb::mdh_term(q[a0 + l], r2, kappa)
                                    : coulomb::direct_term(q[a0 + l], r2);
      if constexpr (S == Summation::compensated)
        coulomb::compensated_add(sum[l], carry[l], term);
      else
        sum[l] += term;
    }
  }
  coulomb::Accumulator<T, S> total;
  for (int l = 0; l < lanes; ++l) {
    total.add(sum[l]);
    total.add(-carry[l]);
  }
  for (std::int64_t a = a0; a < n; ++a) {
    const T d = along[a] - p;
    const T r2 = math::fma(d, d, across2[a]);
    total.add(K == Term::mdh ? coulomb::mdh_term(q[a], r2, kappa) : coulomb::direct_term(q[a], r2));
  }
  return total.value();
}

#ifdef KMOL_HOST_VECTORS
using coulomb::add_terms;
using coulomb::VF;

// Direct Coulomb sums of four points of a row in single precision, eight atoms at a time: the
// hardware reciprocal square root refined by one Newton step (within 2 ulp, like CUDA's rsqrtf)
// instead of a square root and a division, and each atom load shared by the four points.
// Arrays are padded to a multiple of 8 with zero charges.
constexpr int row_block = 4;

template <Summation S>
void direct_row_avx2(const float* along, const float* across2, const float* q,
                     std::int64_t n_padded, const float (&p)[row_block], float (&out)[row_block]) {
  const VF zero(0.0f);
  VF sum[row_block], carry[row_block], point[row_block];
  for (int m = 0; m < row_block; ++m) {
    sum[m] = carry[m] = zero;
    point[m] = VF(p[m]);
  }
  for (std::int64_t a = 0; a < n_padded; a += 8) {
    const VF x = VF::load_unaligned(along + a), w = VF::load_unaligned(across2 + a),
             c = VF::load_unaligned(q + a);
    for (int m = 0; m < row_block; ++m) {
      const VF d = x - point[m];
      const VF r2 = xsimd::fma(d, d, w);
      add_terms<S>(sum[m], carry[m], coulomb::direct_terms(c, r2));
    }
  }
  for (int m = 0; m < row_block; ++m) {
    alignas(32) float s[8], c[8];
    sum[m].store_aligned(s);
    carry[m].store_aligned(c);
    coulomb::Accumulator<float, S> total;
    for (int l = 0; l < 8; ++l) {
      total.add(s[l]);
      total.add(-c[l]);
    }
    out[m] = total.value();
  }
}
#endif

// Calls points(block, ax, ijk, across2) for every row of the job's blocks, along the block's row
// axis ax, the rows shared by `threads` threads: ijk holds the row's indices on the other two axes,
// across2[a] atom a's squared distance from the row's line for a < job.n, then `fill` up to
// `scratch` entries (a padded kernel's lanes). A cancelled run skips its remaining rows (its map is
// discarded).
template <class T, class Points>
void for_each_row(const CoulombJob<T>& job, int threads, std::int64_t scratch, T fill,
                  Points points) {
  const T h = job.spacing;
  for (const LatticeBlock& block : job.blocks) {
    const int ax = block.row_axis, b1 = ax == 0 ? 1 : 0, b2 = ax == 2 ? 1 : 2;
    const std::int64_t n_rows = block.size[b1] * block.size[b2];
#pragma omp parallel num_threads(threads)
    {
      std::vector<T> across2(std::size_t(scratch), fill);
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t r = 0; r < n_rows; ++r) {
        if (cancel_requested()) continue;
        std::int64_t ijk[3];
        ijk[b1] = block.begin[b1] + r % block.size[b1];
        ijk[b2] = block.begin[b2] + r / block.size[b1];
        const T p1 = T(ijk[b1]) * h, p2 = T(ijk[b2]) * h;
        const T* c1 = job.coords[b1].data();
        const T* c2 = job.coords[b2].data();
#pragma omp simd
        for (std::int64_t a = 0; a < job.n; ++a) {
          const T d1 = c1[a] - p1, d2 = c2[a] - p2;
          across2[a] = math::fma(d1, d1, d2 * d2);
        }
        points(block, ax, ijk, across2.data());
      }
    }
  }
}

#ifdef KMOL_HOST_VECTORS
template <Summation S>
void direct_rows_avx2(const CoulombJob<float>& job, int threads) {
  const float h = job.spacing;
  const std::int64_t n_padded = (job.n + 7) / 8 * 8;
  std::vector<float> along[3], q(job.charges.begin(), job.charges.end());
  q.resize(n_padded, 0.0f);
  for (int d = 0; d < 3; ++d) {
    along[d].assign(job.coords[d].begin(), job.coords[d].end());
    along[d].resize(n_padded, 0.0f);
  }
  for_each_row(job, threads, n_padded, 1.0f,
               [&](const LatticeBlock& block, int ax, std::int64_t(&ijk)[3], const float* across2) {
                 for (std::int64_t u0 = 0; u0 < block.size[ax]; u0 += row_block) {
                   float p[row_block], out[row_block];
                   for (int m = 0; m < row_block; ++m)
                     p[m] = float(block.begin[ax] + std::min(u0 + m, block.size[ax] - 1)) * h;
                   direct_row_avx2<S>(along[ax].data(), across2, q.data(), n_padded, p, out);
                   for (int m = 0; m < row_block && u0 + m < block.size[ax]; ++m) {
                     ijk[ax] = block.begin[ax] + u0 + m;
                     job.values[job.index(ijk[0], ijk[1], ijk[2])] = out[m];
                   }
                 }
               });
}
#endif

template <class T, Term K, Summation S>
void rows(const CoulombJob<T>& job, int threads) {
#ifdef KMOL_HOST_VECTORS
  if constexpr (std::is_same_v<T, float> && K == Term::direct) {
    direct_rows_avx2<S>(job, threads);
    return;
  }
#endif
  const T h = job.spacing;
  for_each_row(job, threads, job.n, T(0),
               [&](const LatticeBlock& block, int ax, std::int64_t(&ijk)[3], const T* across2) {
                 for (std::int64_t u = 0; u < block.size[ax]; ++u) {
                   ijk[ax] = block.begin[ax] + u;
                   job.values[job.index(ijk[0], ijk[1], ijk[2])] =
                       sum_row_point<T, K, S>(job.coords[ax].data(), across2, job.charges.data(),
                                              job.n, T(ijk[ax]) * h, job.kappa);
                 }
               });
}

// Adds one atom's shifted terms to the points i0..i1 of a row (their squared distance to the atom
// is (i h - ax)^2 + across2).
template <class T, Summation S>
void cutoff_segment(T* row, T* row_carry, std::int64_t i0, std::int64_t i1, T h, T ax, T across2,
                    T q, T rc2, T inv_rc2) {
#pragma omp simd
  for (std::int64_t i = i0; i <= i1; ++i) {
    const T dx = T(i) * h - ax;
    const T term = coulomb::cutoff_term(q, math::fma(dx, dx, across2), rc2, inv_rc2);
    if constexpr (S == Summation::compensated)
      coulomb::compensated_add(row[i], row_carry[i], term);
    else
      row[i] += term;
  }
}

#ifdef KMOL_HOST_VECTORS
// The same for single precision eight points at a time, with the reciprocal square root refined
// by one Newton step (as direct_row_avx2). px[i] = i h, the points' x. Whole chunks may run past
// the segment (points outside the sphere add exactly 0) but not past the row, whose successor
// belongs to other coordinates (and maybe to another thread): the row's last chunk is masked.
template <Summation S>
void cutoff_segment_avx2(float* row, float* row_carry, std::int64_t i0, std::int64_t i1,
                         std::int64_t row_length, const float* px, float ax, float across2, float q,
                         float rc2, float inv_rc2) {
  const VF vax(ax), vw(across2), vq(q), vrc2(rc2), vinv(inv_rc2);
  const auto chunk = [&](std::int64_t i, auto load, auto store) {
    const VF dx = load(px + i) - vax;
    const VF term = coulomb::cutoff_terms(vq, xsimd::fma(dx, dx, vw), vrc2, vinv);
    VF v = load(row + i), c(0.0f);
    if constexpr (S == Summation::compensated) c = load(row_carry + i);
    add_terms<S>(v, c, term);
    store(row + i, v);
    if constexpr (S == Summation::compensated) store(row_carry + i, c);
  };
  std::int64_t i = i0;
  for (; i <= i1 && i + 8 <= row_length; i += 8)
    chunk(
        i, [](const float* p) { return VF::load_unaligned(p); },
        [](float* p, VF v) { v.store_unaligned(p); });
  if (i > i1) return;
  // xsimd 8.1 has no masked loads and stores: the register's own (copying the row's last points
  // through a buffer cost the whole-box run 15-50%).
  const __m256i in_row = vec::Batch<std::int32_t>(std::int32_t(row_length - i)) >
                         vec::Batch<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7};
  chunk(
      i, [&](const float* p) { return VF(_mm256_maskload_ps(p, in_row)); },
      [&](float* p, VF v) { _mm256_maskstore_ps(p, in_row, v); });
}
#endif

// Atoms in the order of 4 A cells (z, then y, then x), so that consecutive atoms touch mostly the
// same lattice points and the map stays in cache; `cell` gets each atom's cell key.
template <class T>
std::vector<std::int64_t> spatial_order(const CoulombJob<T>& job, std::vector<std::int64_t>& cell) {
  constexpr double side = 4.0;
  std::vector<std::int64_t> order(job.n);
  cell.resize(job.n);
  for (std::int64_t a = 0; a < job.n; ++a) {
    std::int64_t c[3];
    for (int d = 0; d < 3; ++d)
      c[d] = std::clamp<std::int64_t>(std::int64_t(std::floor(job.coords[d][a] / side)) + (1 << 19),
                                      0, (1 << 20) - 1);
    cell[a] = (c[2] << 40) | (c[1] << 20) | c[0];
    order[a] = a;
  }
  std::sort(order.begin(), order.end(),
            [&](std::int64_t x, std::int64_t y) { return cell[x] < cell[y]; });
  return order;
}

// One atom's box of rows: planes k0..k1 (within the thread's slab), rows j0..j1 of each.
struct RowBox {
  std::int64_t k0, k1, j0, j1;
};

// One atom's disk in a plane: rows j0..j1, x range i0..i1, squared distance dz2 to the plane.
template <class T>
struct Disk {
  std::int64_t j0, j1, i0, i1;
  T dz2;
};

constexpr std::size_t kMostInGroup = 16;

template <class T, Summation S>
void cutoff_scatter(const CoulombJob<T>& job, int threads) {
  const T h = job.spacing, rc = job.cutoff, rc2 = rc * rc, inv_rc2 = T(1) / rc2, inv_h = T(1) / h;
  const std::int64_t nx = job.counts[0], ny = job.counts[1], nz = job.counts[2];
  std::vector<T> px(static_cast<std::size_t>(nx));  // the points' x, as each term computes it
  for (std::int64_t i = 0; i < nx; ++i) px[std::size_t(i)] = T(i) * h;
  std::vector<std::int64_t> cell;
  const std::vector<std::int64_t> order = spatial_order(job, cell);
  // Groups: runs of consecutive atoms in one cell (at most kMostInGroup). A group's atoms visit
  // each row in turn, so the row stays in the L1 cache across them instead of being fetched again
  // per atom. Each point still receives the atoms' terms in `order`, as atom by atom would.
  std::vector<std::size_t> group_begin;
  for (std::size_t g = 0; g < order.size(); ++g)
    if (g == 0 || cell[order[g]] != cell[order[g - 1]] || g - group_begin.back() == kMostInGroup)
      group_begin.push_back(g);
  group_begin.push_back(order.size());
  const T* ax = job.coords[0].data();
  const T* ay = job.coords[1].data();
  const T* az = job.coords[2].data();
  // The z planes of the job's blocks (whole planes: a slab of the worker pool, or every plane).
  std::int64_t z_lo = nz, z_hi = 0;
  for (const LatticeBlock& b : job.blocks) {
    z_lo = std::min(z_lo, b.begin[2]);
    z_hi = std::max(z_hi, b.begin[2] + b.size[2]);
  }
  z_lo = std::max<std::int64_t>(z_lo, 0);
  z_hi = std::min(z_hi, nz);
  if (z_hi <= z_lo) return;
  std::vector<T> carry(S == Summation::compensated
                           ? std::size_t(job.index(0, 0, z_hi) - job.index(0, 0, z_lo))
                           : 0);  // the planes' only
  T* const carry_at_origin =
      S == Summation::compensated ? carry.data() - job.index(0, 0, z_lo) : nullptr;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::int64_t k_begin = z_lo + (z_hi - z_lo) * t / nt,
                       k_end = z_lo + (z_hi - z_lo) * (t + 1) / nt;
    RowBox box[kMostInGroup];
    for (std::size_t g = 0; g + 1 < group_begin.size() && !cancel_requested(); ++g) {
      const std::int64_t* atoms = order.data() + group_begin[g];
      const std::size_t size = group_begin[g + 1] - group_begin[g];
      RowBox all{k_end, k_begin - 1, ny, -1};
      for (std::size_t u = 0; u < size; ++u) {
        const std::int64_t a = atoms[u];
        // Index ranges one point wider than the sphere (so rounding cannot leave out a point
        // inside it): cutoff_term itself decides who is inside.
        RowBox& b = box[u];
        b.k0 = std::max(k_begin, std::int64_t(std::floor((az[a] - rc) * inv_h)));
        b.k1 = std::min(k_end - 1, std::int64_t(std::ceil((az[a] + rc) * inv_h)));
        b.j0 = std::max<std::int64_t>(0, std::int64_t(std::floor((ay[a] - rc) * inv_h)));
        b.j1 = std::min(ny - 1, std::int64_t(std::ceil((ay[a] + rc) * inv_h)));
        all = {std::min(all.k0, b.k0), std::max(all.k1, b.k1), std::min(all.j0, b.j0),
               std::max(all.j1, b.j1)};
      }
      for (std::int64_t k = all.k0; k <= all.k1; ++k) {
        // Each atom's disk in this plane: its rows, and the x range of its widest row, which
        // every row of the disk runs through in the AVX2 loop (points beyond the sphere add
        // exactly 0): a few more points per row, but no square root, rounding or mispredicted
        // loop exit per row.
        Disk<T> disk[kMostInGroup];
        std::int64_t j_lo = ny, j_hi = -1;
        for (std::size_t u = 0; u < size; ++u) {
          const RowBox& b = box[u];
          const std::int64_t a = atoms[u];
          Disk<T>& d = disk[u];
          d.j0 = 0;
          d.j1 = -1;
          if (k < b.k0 || k > b.k1) continue;
          const T dz = T(k) * h - az[a];
          d.dz2 = dz * dz;
          if (!(d.dz2 < rc2)) continue;
          const T radius = std::sqrt(rc2 - d.dz2);
          d.j0 = std::max(b.j0, std::int64_t(std::floor((ay[a] - radius) * inv_h)));
          d.j1 = std::min(b.j1, std::int64_t(std::ceil((ay[a] + radius) * inv_h)));
          d.i0 = std::max<std::int64_t>(0, std::int64_t(std::floor((ax[a] - radius) * inv_h)));
          d.i1 = std::min(nx - 1, std::int64_t(std::ceil((ax[a] + radius) * inv_h)));
          j_lo = std::min(j_lo, d.j0);
          j_hi = std::max(j_hi, d.j1);
        }
        for (std::int64_t j = j_lo; j <= j_hi; ++j) {
          T* row = job.values + job.index(0, j, k);
          T* row_carry =
              S == Summation::compensated ? carry_at_origin + job.index(0, j, k) : nullptr;
          for (std::size_t u = 0; u < size; ++u) {
            const Disk<T>& d = disk[u];
            if (j < d.j0 || j > d.j1) continue;
            const std::int64_t a = atoms[u];
            const T dy = T(j) * h - ay[a];
            const T across2 = math::fma(dy, dy, d.dz2);
            if (!(across2 < rc2)) continue;
            const T q = job.charges[a];
#ifdef KMOL_HOST_VECTORS
            if constexpr (std::is_same_v<T, float>) {
              cutoff_segment_avx2<S>(row, row_carry, d.i0, d.i1, nx, px.data(), ax[a], across2, q,
                                     rc2, inv_rc2);
              continue;
            }
#endif
            // Without the vector loop a term costs more than clipping the row to its chord.
            const T chord = std::sqrt(rc2 - across2);
            const std::int64_t i0 =
                std::max(d.i0, std::int64_t(std::floor((ax[a] - chord) * inv_h)));
            const std::int64_t i1 =
                std::min(d.i1, std::int64_t(std::ceil((ax[a] + chord) * inv_h)));
            cutoff_segment<T, S>(row, row_carry, i0, i1, h, ax[a], across2, q, rc2, inv_rc2);
          }
        }
      }
    }
    if constexpr (S == Summation::compensated) {
      for (std::int64_t p = job.index(0, 0, k_begin); p < job.index(0, 0, k_end); ++p)
        job.values[p] -= carry_at_origin[p];
    }
  }
}

}  // namespace

template <class T>
std::string coulomb_host(const CoulombJob<T>& job, int threads) {
  if (job.method == CoulombMethod::cutoff)
    coulomb::with_summation(job.compensated,
                            [&](auto s) { cutoff_scatter<T, decltype(s)::value>(job, threads); });
  else
    coulomb::with_options(job.method == CoulombMethod::mdh, job.compensated, [&](auto k, auto s) {
      rows<T, decltype(k)::value, decltype(s)::value>(job, threads);
    });
  throw_if_cancelled("the potential map");
  std::string how =
      job.method == CoulombMethod::cutoff ? "atom spheres over z slabs" : "rows, 16 lanes";
#ifdef KMOL_HOST_VECTORS
  if (std::is_same_v<T, float> && job.method == CoulombMethod::direct)
    how = "rows, AVX2 rsqrt, 4 points x 8 atoms";
  if (std::is_same_v<T, float> && job.method == CoulombMethod::cutoff) how += ", AVX2 rsqrt";
#endif
  return "host: " + how + ", threads=" + std::to_string(threads);
}

template std::string coulomb_host(const CoulombJob<float>&, int);
template std::string coulomb_host(const CoulombJob<double>&, int);

}  // namespace kmol
