#include "kernels/md/host/lj_host.hpp"

#include <omp.h>
#if defined(__AVX2__) && defined(__FMA__)
#define KMOL_MD_HOST_AVX2 1
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "kmol/core/errors.hpp"

namespace kmol {

bool lj_host_available() {
#ifdef KMOL_MD_HOST_AVX2
  return true;
#else
  return false;
#endif
}

#ifdef KMOL_MD_HOST_AVX2
namespace {

// One AVX2 register of T and what the sweeps do with it. Positions and forces are rows of four
// (x, y, z, 0), so a partner's row is one aligned load and a register's worth of rows transposes
// into x, y and z registers: no per-component scalar gathers.
template <class T>
struct Lanes;

template <>
struct Lanes<float> {
  using V = __m256;
  static constexpr int width = 8;
  static V set(float a) { return _mm256_set1_ps(a); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V sqrt(V a) { return _mm256_sqrt_ps(a); }
  static V floor(V a) { return _mm256_floor_ps(a); }
  static V less(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static V both(V a, V b) { return _mm256_and_ps(a, b); }
  static V select(V mask, V yes, V no) { return _mm256_blendv_ps(no, yes, mask); }
  static V first(int m) {  // lanes 0..m-1 set
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(m), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
  }
  static int bits(V mask) { return _mm256_movemask_ps(mask); }
  static float sum(V v) {
    __m128 a = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    a = _mm_add_ps(a, _mm_movehl_ps(a, a));
    return _mm_cvtss_f32(_mm_add_ss(a, _mm_movehdup_ps(a)));
  }
  // Rows row(0..7) into x, y, z.
  template <class Row>
  static void load(Row row, V& x, V& y, V& z) {
    const auto pair = [&](int k) {
      return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(row(k))), _mm_load_ps(row(k + 4)), 1);
    };
    const V r0 = pair(0), r1 = pair(1), r2 = pair(2), r3 = pair(3);
    const V t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const V t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    x = _mm256_shuffle_ps(t0, t2, 0x44);
    y = _mm256_shuffle_ps(t0, t2, 0xEE);
    z = _mm256_shuffle_ps(t1, t3, 0x44);
  }
  // Row row(k) -= (x, y, z) of lane k.
  template <class Row>
  static void subtract(Row row, V x, V y, V z) {
    const V zero = _mm256_setzero_ps();
    const V t0 = _mm256_unpacklo_ps(x, y), t1 = _mm256_unpackhi_ps(x, y);
    const V t2 = _mm256_unpacklo_ps(z, zero), t3 = _mm256_unpackhi_ps(z, zero);
    const V r[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE), _mm256_shuffle_ps(t1, t3, 0x44),
                    _mm256_shuffle_ps(t1, t3, 0xEE)};
    for (int k = 0; k < 4; ++k) {
      float* lo = row(k);
      float* hi = row(k + 4);
      _mm_store_ps(lo, _mm_sub_ps(_mm_load_ps(lo), _mm256_castps256_ps128(r[k])));
      _mm_store_ps(hi, _mm_sub_ps(_mm_load_ps(hi), _mm256_extractf128_ps(r[k], 1)));
    }
  }
};

template <>
struct Lanes<double> {
  using V = __m256d;
  static constexpr int width = 4;
  static V set(double a) { return _mm256_set1_pd(a); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V div(V a, V b) { return _mm256_div_pd(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V sqrt(V a) { return _mm256_sqrt_pd(a); }
  static V floor(V a) { return _mm256_floor_pd(a); }
  static V less(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
  static V both(V a, V b) { return _mm256_and_pd(a, b); }
  static V select(V mask, V yes, V no) { return _mm256_blendv_pd(no, yes, mask); }
  static V first(int m) {
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(m), _mm256_setr_epi64x(0, 1, 2, 3)));
  }
  static int bits(V mask) { return _mm256_movemask_pd(mask); }
  static double sum(V v) {
    const __m128d a = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(a, _mm_unpackhi_pd(a, a)));
  }
  template <class Row>
  static void load(Row row, V& x, V& y, V& z) {
    const V r0 = _mm256_load_pd(row(0)), r1 = _mm256_load_pd(row(1)), r2 = _mm256_load_pd(row(2)),
            r3 = _mm256_load_pd(row(3));
    const V t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);  // x0 x1 z0 z1, y0 y1 w0 w1
    const V t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    x = _mm256_permute2f128_pd(t0, t2, 0x20);
    y = _mm256_permute2f128_pd(t1, t3, 0x20);
    z = _mm256_permute2f128_pd(t0, t2, 0x31);
  }
  template <class Row>
  static void subtract(Row row, V x, V y, V z) {
    const V zero = _mm256_setzero_pd();
    const V t0 = _mm256_unpacklo_pd(x, y), t1 = _mm256_unpackhi_pd(x, y);  // x0 y0 x2 y2, x1 y1 x3 y3
    const V t2 = _mm256_unpacklo_pd(z, zero), t3 = _mm256_unpackhi_pd(z, zero);
    const V r[4] = {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
                    _mm256_permute2f128_pd(t0, t2, 0x31), _mm256_permute2f128_pd(t1, t3, 0x31)};
    for (int k = 0; k < 4; ++k) {
      double* p = row(k);
      _mm256_store_pd(p, _mm256_sub_pd(_mm256_load_pd(p), r[k]));
    }
  }
};

// Minimum image, as OrthorhombicBox::wrap.
template <class L, class V = typename L::V>
V wrap(V d, V length, V inverse, V half) {
  return L::sub(d, L::mul(L::floor(L::fma(d, inverse, half)), length));
}

// For each 8-bit mask, the lanes whose bits are set, in order, packed into the low lanes.
struct SetBitTable {
  std::uint64_t packed[256];
  SetBitTable() {
    for (int m = 0; m < 256; ++m) {
      std::uint64_t p = 0;
      for (int lane = 0, k = 0; lane < 8; ++lane)
        if (m >> lane & 1) p |= std::uint64_t(lane) << (8 * k++);
      packed[m] = p;
    }
  }
  __m256i lanes(int mask) const { return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(std::int64_t(packed[mask]))); }
};
const SetBitTable set_bits;

}  // namespace

// ShiftedForceLJ::evaluate on a register of squared distances, operation for operation (so each
// lane rounds exactly as the scalar evaluator does; tests/test_md.cpp checks it bit for bit).
// Lanes outside the cutoff or not in `valid` give zero force and energy.
template <class T>
struct LjLanes {
  using L = Lanes<T>;
  using V = typename L::V;
  V cutoff, cutoff2, force_at_cutoff, minus_force_at_cutoff, minus_energy_at_cutoff, one, minus_one, two, four, k24;

  explicit LjLanes(const ShiftedForceLJ<T>& lj)
      : cutoff(L::set(lj.cutoff)),
        cutoff2(L::set(lj.cutoff2)),
        force_at_cutoff(L::set(lj.force_at_cutoff)),
        minus_force_at_cutoff(L::set(-lj.force_at_cutoff)),
        minus_energy_at_cutoff(L::set(-lj.energy_at_cutoff)),
        one(L::set(1)),
        minus_one(L::set(-1)),
        two(L::set(2)),
        four(L::set(4)),
        k24(L::set(24)) {}

  void evaluate(V r2, V valid, V& f_over_r, V& energy) const {
    const V in = L::both(L::less(r2, cutoff2), valid);
    const V s = L::select(in, r2, one);
    const V inv_r = L::div(one, L::sqrt(s));
    const V r = L::mul(s, inv_r);
    const V ir2 = L::mul(inv_r, inv_r);
    const V ir6 = L::mul(L::mul(ir2, ir2), ir2);
    const V f = L::fma(L::mul(L::mul(k24, ir6), ir2), L::fma(two, ir6, minus_one), L::mul(minus_force_at_cutoff, inv_r));
    const V e = L::fma(L::sub(r, cutoff), force_at_cutoff, L::fma(L::mul(four, ir6), L::sub(ir6, one), minus_energy_at_cutoff));
    f_over_r = L::both(f, in);
    energy = L::both(e, in);
  }
};

template <class T>
void lj_lanes_evaluate(const ShiftedForceLJ<T>& lj, const T* r2, int m, T* f_over_r, T* energy) {
  using L = Lanes<T>;
  constexpr int w = L::width;
  const LjLanes<T> lanes(lj);
  for (int a = 0; a < m; a += w) {
    alignas(32) T in[w] = {}, f[w], e[w];
    for (int k = 0; k < w && a + k < m; ++k) in[k] = r2[a + k];
    typename L::V vf, ve;
    lanes.evaluate(*reinterpret_cast<const typename L::V*>(in), L::first(m - a), vf, ve);
    *reinterpret_cast<typename L::V*>(f) = vf;
    *reinterpret_cast<typename L::V*>(e) = ve;
    for (int k = 0; k < w && a + k < m; ++k) {
      f_over_r[a + k] = f[k];
      energy[a + k] = e[k];
    }
  }
}
template void lj_lanes_evaluate(const ShiftedForceLJ<float>&, const float*, int, float*, float*);
template void lj_lanes_evaluate(const ShiftedForceLJ<double>&, const double*, int, double*, double*);

namespace {

// 64-byte aligned storage for rows of four.
template <class T>
struct Aligned {
  std::unique_ptr<T[], void (*)(void*)> data{nullptr, std::free};
  void assign(std::size_t n, T value) {
    data.reset(static_cast<T*>(std::aligned_alloc(64, (n * sizeof(T) + 63) / 64 * 64)));
    if (!data) throw std::bad_alloc();
    std::fill(data.get(), data.get() + n, value);
  }
  T* get() const { return data.get(); }
};

int round_up(int a, int w) { return (a + w - 1) / w * w; }

}  // namespace

template <class T>
struct LjHostForces<T>::State {
  using L = Lanes<T>;
  using V = typename L::V;
  static constexpr int width = L::width;

  int n, threads, team = 1;
  PeriodicBox<T> box;
  ShiftedForceLJ<T> lj;
  double skin;
  T reach2;
  // Cells of edge >= reach / 2, so partners lie within two cells along each axis: 125 small cells
  // cover less volume (3.7 times the sphere of reach) than 27 large ones (6.4 times). A box of
  // 3 reach holds at least 6 along each axis, so the stencil's cells are distinct.
  static constexpr int span = 2;
  int cells[3];
  T cell_scale[3];
  std::vector<int> cell_start, slot_atom, slot_cell, counts, partners;
  int capacity = 2 * L::width;  // grows on the first build (and whenever a list outgrows it)
  Aligned<T> rows, rows_at_build, thread_forces;  // rows: n + width, the tail padding (read, never used)
  std::size_t thread_stride;
  std::vector<T> slot_energy, slot_virial;
  std::int64_t builds = 0;

  State(int atoms, Vec3<double> box_length, double cutoff, double skin_, int threads_)
      : n(atoms), threads(std::max(1, threads_)), box(PeriodicBox<T>::of(box_length)),
        lj(ShiftedForceLJ<T>::with_cutoff(cutoff)), skin(skin_) {
    const double reach = cutoff + skin;
    reach2 = T(reach * reach);
    const double l[3] = {box_length.x, box_length.y, box_length.z};
    if (std::min({l[0], l[1], l[2]}) < 3 * reach)
      throw UnsupportedError("md --impl cpu: the box must be at least 3 (r_c + skin) across");
    for (int d = 0; d < 3; ++d) {
      cells[d] = int(std::floor(l[d] * span / reach));
      cell_scale[d] = T(cells[d] / l[d]);
    }
    cell_start.assign(std::size_t(cells[0]) * cells[1] * cells[2] + 1, 0);
    slot_atom.resize(std::size_t(n));
    slot_cell.resize(std::size_t(n));
    counts.resize(std::size_t(n));
    rows.assign(4 * std::size_t(n + width), T(0));
    rows_at_build.assign(4 * std::size_t(n + width), T(0));
    thread_stride = 4 * std::size_t(n + width);
    thread_forces.assign(thread_stride * std::size_t(threads), T(0));
    slot_energy.resize(std::size_t(n));
    slot_virial.resize(std::size_t(n));
  }

  int cell_of(const T* p) const {
    int c[3];
    for (int d = 0; d < 3; ++d) c[d] = std::max(0, std::min(int(p[d] * cell_scale[d]), cells[d] - 1));
    return c[0] + cells[0] * (c[1] + cells[1] * c[2]);
  }

  // Atoms into cell order (a counting sort, stable, so each cell lists its atoms by index).
  void sort_into_cells(const T* x) {
    std::fill(cell_start.begin(), cell_start.end(), 0);
    for (int i = 0; i < n; ++i) ++cell_start[std::size_t(cell_of(x + 3 * i)) + 1];
    for (std::size_t c = 1; c < cell_start.size(); ++c) cell_start[c] += cell_start[c - 1];
    std::vector<int> cursor(cell_start.begin(), cell_start.end() - 1);
    for (int i = 0; i < n; ++i) {
      const int c = cell_of(x + 3 * i);
      const int slot = cursor[std::size_t(c)]++;
      slot_atom[std::size_t(slot)] = i;
      slot_cell[std::size_t(slot)] = c;
    }
  }

  // Copies positions into cell order; returns the largest squared move since the last build.
  T gather(const T* x) {
    T* r = rows.get();
    const T* r0 = rows_at_build.get();
    const PeriodicBox<T> b = box;
    T most = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : most)
    for (int k = 0; k < n; ++k) {
      const T* p = x + 3 * slot_atom[std::size_t(k)];
      T* q = r + 4 * std::size_t(k);
      q[0] = p[0];
      q[1] = p[1];
      q[2] = p[2];
      const T* o = r0 + 4 * std::size_t(k);
      most = std::max(most, norm2(b.displacement({p[0], p[1], p[2]}, {o[0], o[1], o[2]})));
    }
    return most;
  }

  // Slot i's partners j > i among slots [begin, end) (contiguous rows), appended to out[c...]:
  // each register's kept lanes packed to the front by a table, without branches.
  int scan(int i, int begin, int end, V xi, V yi, V zi, int* out, int c) const {
    const V length[3] = {L::set(box.length.x), L::set(box.length.y), L::set(box.length.z)};
    const V inverse[3] = {L::set(box.inverse.x), L::set(box.inverse.y), L::set(box.inverse.z)};
    const V half = L::set(T(0.5)), reach = L::set(reach2);
    const T* r = rows.get();
    for (int j0 = std::max(begin, i + 1); j0 < end; j0 += width) {
      V x, y, z;
      L::load([&](int k) { return r + 4 * std::size_t(j0 + k); }, x, y, z);
      x = wrap<L>(L::sub(xi, x), length[0], inverse[0], half);
      y = wrap<L>(L::sub(yi, y), length[1], inverse[1], half);
      z = wrap<L>(L::sub(zi, z), length[2], inverse[2], half);
      const V r2 = L::fma(x, x, L::fma(y, y, L::mul(z, z)));
      const int bits = L::bits(L::both(L::less(r2, reach), L::first(end - j0)));
      const __m256i kept = _mm256_add_epi32(_mm256_set1_epi32(j0), set_bits.lanes(bits));
      if (c + 8 <= capacity) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + c), kept);
      } else {
        alignas(32) int spill[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(spill), kept);
        for (int k = 0; k < 8 && c + k < capacity; ++k) out[c + k] = spill[k];
      }
      c += __builtin_popcount(unsigned(bits));
    }
    return c;
  }

  // Slot i's half list from the 125 cells around its own (each x-row of five cells one run of
  // rows, two where it wraps), padded to whole registers with the extra slot n. Returns the
  // padded length.
  int list_of(int i) {
    const T* r = rows.get() + 4 * std::size_t(i);
    const V xi = L::set(r[0]), yi = L::set(r[1]), zi = L::set(r[2]);
    const int nx = cells[0], ny = cells[1], nz = cells[2];
    const int ci = slot_cell[std::size_t(i)];
    const int cx = ci % nx, cy = ci / nx % ny, cz = ci / (nx * ny);
    int* out = partners.data() + std::size_t(i) * std::size_t(capacity);
    const int* start = cell_start.data();
    const int lo = cx - span, hi = cx + span;  // x-row, inclusive
    int c = 0;
    for (int oz = -span; oz <= span; ++oz)
      for (int oy = -span; oy <= span; ++oy) {
        const int y = (cy + oy + ny) % ny, z = (cz + oz + nz) % nz;
        const int* row = start + nx * (y + ny * z);
        if (lo < 0) {
          c = scan(i, row[0], row[hi + 1], xi, yi, zi, out, c);
          c = scan(i, row[lo + nx], row[nx], xi, yi, zi, out, c);
        } else if (hi >= nx) {
          c = scan(i, row[lo], row[nx], xi, yi, zi, out, c);
          c = scan(i, row[0], row[hi - nx + 1], xi, yi, zi, out, c);
        } else {
          c = scan(i, row[lo], row[hi + 1], xi, yi, zi, out, c);
        }
      }
    counts[std::size_t(i)] = c;
    const int padded = round_up(c, width);
    for (int k = c; k < padded && k < capacity; ++k) out[k] = n;
    return padded;
  }

  void build(const T* x) {
    sort_into_cells(x);
    gather(x);
    std::copy(rows.get(), rows.get() + 4 * std::size_t(n), rows_at_build.get());
    for (;;) {
      partners.resize(std::size_t(n) * std::size_t(capacity));
      int longest = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256) reduction(max : longest)
      for (int i = 0; i < n; ++i) longest = std::max(longest, list_of(i));
      if (longest <= capacity) break;
      capacity = round_up(longest + longest / 8, width);
    }
    ++builds;
  }

  // Pair terms of slot i with its list: i's own sum kept in registers, the partners' shares
  // subtracted from this thread's force rows.
  void sweep(int i, T* forces) {
    const V length[3] = {L::set(box.length.x), L::set(box.length.y), L::set(box.length.z)};
    const V inverse[3] = {L::set(box.inverse.x), L::set(box.inverse.y), L::set(box.inverse.z)};
    const V half = L::set(T(0.5)), zero = L::set(0);
    const LjLanes<T> pair(lj);
    const T* r = rows.get();
    const T* ri = r + 4 * std::size_t(i);
    const V xi = L::set(ri[0]), yi = L::set(ri[1]), zi = L::set(ri[2]);
    V fx = zero, fy = zero, fz = zero, energy = zero, virial = zero;
    const int* p = partners.data() + std::size_t(i) * std::size_t(capacity);
    const int m = counts[std::size_t(i)];
    for (int a = 0; a < m; a += width) {
      const int* idx = p + a;
      V x, y, z;
      L::load([&](int k) { return r + 4 * std::size_t(idx[k]); }, x, y, z);
      x = wrap<L>(L::sub(xi, x), length[0], inverse[0], half);
      y = wrap<L>(L::sub(yi, y), length[1], inverse[1], half);
      z = wrap<L>(L::sub(zi, z), length[2], inverse[2], half);
      const V r2 = L::fma(x, x, L::fma(y, y, L::mul(z, z)));
      V f_over_r, e;
      pair.evaluate(r2, L::first(m - a), f_over_r, e);
      x = L::mul(f_over_r, x);
      y = L::mul(f_over_r, y);
      z = L::mul(f_over_r, z);
      fx = L::add(fx, x);
      fy = L::add(fy, y);
      fz = L::add(fz, z);
      energy = L::add(energy, e);
      virial = L::fma(f_over_r, r2, virial);
      L::subtract([&](int k) { return forces + 4 * std::size_t(idx[k]); }, x, y, z);
    }
    T* fi = forces + 4 * std::size_t(i);
    fi[0] += L::sum(fx);
    fi[1] += L::sum(fy);
    fi[2] += L::sum(fz);
    slot_energy[std::size_t(i)] = L::sum(energy);
    slot_virial[std::size_t(i)] = L::sum(virial);
  }

  int first_slot(int t) const { return int(std::int64_t(n) * t / team); }

  void compute(const T* x, T* f, T* energy, T* virial) {
    if (builds == 0 || double(gather(x)) > 0.25 * skin * skin) build(x);
    // Each thread a run of slots in cell order (a slab of the box); its partners all have
    // higher slots, so its force rows from its first slot on are the ones it touches.
#pragma omp parallel num_threads(threads)
    {
#pragma omp master
      team = omp_get_num_threads();
#pragma omp barrier
      const int t = omp_get_thread_num();
      T* forces = thread_forces.get() + thread_stride * std::size_t(t);
      std::fill(forces + 4 * std::size_t(first_slot(t)), forces + 4 * std::size_t(n + 1), T(0));
      for (int i = first_slot(t), e = first_slot(t + 1); i < e; ++i) sweep(i, forces);
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int k = 0; k < n; ++k) {
      T sum[3] = {0, 0, 0};
      for (int t = 0; t < team && first_slot(t) <= k; ++t) {
        const T* row = thread_forces.get() + thread_stride * std::size_t(t) + 4 * std::size_t(k);
        for (int d = 0; d < 3; ++d) sum[d] += row[d];
      }
      const std::size_t a = std::size_t(slot_atom[std::size_t(k)]);
      for (int d = 0; d < 3; ++d) f[3 * a + d] = sum[d];
      energy[a] = slot_energy[std::size_t(k)];
      virial[a] = slot_virial[std::size_t(k)];
    }
  }
};
#else
template <class T>
struct LjHostForces<T>::State {};

template <class T>
void lj_lanes_evaluate(const ShiftedForceLJ<T>&, const T*, int, T*, T*) {
  throw UnsupportedError("md: this build has no AVX2 sweeps");
}
template void lj_lanes_evaluate(const ShiftedForceLJ<float>&, const float*, int, float*, float*);
template void lj_lanes_evaluate(const ShiftedForceLJ<double>&, const double*, int, double*, double*);
#endif  // KMOL_MD_HOST_AVX2

template <class T>
LjHostForces<T>::LjHostForces(int atoms, Vec3<double> box, double cutoff, double skin, int threads) {
#ifdef KMOL_MD_HOST_AVX2
  s_ = std::make_unique<State>(atoms, box, cutoff, skin, threads);
#else
  (void)atoms, (void)box, (void)cutoff, (void)skin, (void)threads;
  throw UnsupportedError("md --impl cpu: this build has no AVX2 (configure with x86-64-v3 flags)");
#endif
}

template <class T>
LjHostForces<T>::~LjHostForces() = default;

template <class T>
void LjHostForces<T>::compute(const T* x, T* forces, T* energy, T* virial) {
#ifdef KMOL_MD_HOST_AVX2
  s_->compute(x, forces, energy, virial);
#else
  (void)x, (void)forces, (void)energy, (void)virial;
#endif
}

template <class T>
std::int64_t LjHostForces<T>::builds() const {
#ifdef KMOL_MD_HOST_AVX2
  return s_->builds;
#else
  return 0;
#endif
}

template <class T>
std::string LjHostForces<T>::launch() const {
#ifdef KMOL_MD_HOST_AVX2
  return "cpu: half list, skin " + std::to_string(s_->skin) + ", capacity " + std::to_string(s_->capacity) + ", cells " +
         std::to_string(s_->cells[0]) + "x" + std::to_string(s_->cells[1]) + "x" + std::to_string(s_->cells[2]) + ", " +
         std::to_string(s_->threads) + " threads, AVX2 " + std::to_string(State::width) + " lanes";
#else
  return "cpu: unavailable";
#endif
}

template class LjHostForces<float>;
template class LjHostForces<double>;

}  // namespace kmol
