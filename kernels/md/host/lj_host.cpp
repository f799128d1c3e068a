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
    return _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_set1_epi32(m), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
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
      return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(row(k))),
                                  _mm_load_ps(row(k + 4)), 1);
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
    const V r[4] = {_mm256_shuffle_ps(t0, t2, 0x44), _mm256_shuffle_ps(t0, t2, 0xEE),
                    _mm256_shuffle_ps(t1, t3, 0x44), _mm256_shuffle_ps(t1, t3, 0xEE)};
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
    return _mm256_castsi256_pd(
        _mm256_cmpgt_epi64(_mm256_set1_epi64x(m), _mm256_setr_epi64x(0, 1, 2, 3)));
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
    const V t0 = _mm256_unpacklo_pd(r0, r1),
            t1 = _mm256_unpackhi_pd(r0, r1);  // x0 x1 z0 z1, y0 y1 w0 w1
    const V t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    x = _mm256_permute2f128_pd(t0, t2, 0x20);
    y = _mm256_permute2f128_pd(t1, t3, 0x20);
    z = _mm256_permute2f128_pd(t0, t2, 0x31);
  }
  template <class Row>
  static void subtract(Row row, V x, V y, V z) {
    const V zero = _mm256_setzero_pd();
    const V t0 = _mm256_unpacklo_pd(x, y),
            t1 = _mm256_unpackhi_pd(x, y);  // x0 y0 x2 y2, x1 y1 x3 y3
    const V t2 = _mm256_unpacklo_pd(z, zero), t3 = _mm256_unpackhi_pd(z, zero);
    const V r[4] = {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
                    _mm256_permute2f128_pd(t0, t2, 0x31), _mm256_permute2f128_pd(t1, t3, 0x31)};
    for (int k = 0; k < 4; ++k) {
      double* p = row(k);
      _mm256_store_pd(p, _mm256_sub_pd(_mm256_load_pd(p), r[k]));
    }
  }
};

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
  __m256i lanes(int mask) const {
    return _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(std::int64_t(packed[mask])));
  }
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
  V cutoff, cutoff2, force_at_cutoff, minus_force_at_cutoff, minus_energy_at_cutoff, one, minus_one,
      two, four, k24;

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
    const V f = L::fma(L::mul(L::mul(k24, ir6), ir2), L::fma(two, ir6, minus_one),
                       L::mul(minus_force_at_cutoff, inv_r));
    const V e = L::fma(L::sub(r, cutoff), force_at_cutoff,
                       L::fma(L::mul(four, ir6), L::sub(ir6, one), minus_energy_at_cutoff));
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
template void lj_lanes_evaluate(const ShiftedForceLJ<double>&, const double*, int, double*,
                                double*);

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
  static constexpr int unshifted =
      13;  // image code (sx + 1) + 3 (sy + 1) + 9 (sz + 1) of the atom itself

  int n, threads, team = 1;
  PeriodicBox<T> box;
  ShiftedForceLJ<T> lj;
  double skin;
  T reach2;
  // Cells of edge >= reach / 2, so partners lie within two cells along each axis: 125 small cells
  // cover less volume (3.7 times the sphere of reach) than 27 large ones (6.4 times). A box of
  // 3 reach holds at least 6 along each axis, so no atom meets two images of another.
  int cells[3];
  T cell_scale[3];
  // The extended grid: the box's cells plus two layers of image cells below and above in x and y
  // and above in z, all that the upper half of the stencil reaches, so sweeps and builds take
  // plain differences (no minimum image). Slots: its cells in order, each cell's atoms (or images
  // of atoms) by atom index; a row of five cells along x is one run of slots.
  int grid[3];
  int slots = 0;
  std::vector<int> cell_start, slot_atom, slot_cell, real_slot, atom_slot_start, atom_slots, counts,
      partners;
  std::vector<unsigned char> slot_image;
  T image_shift[27][3];
  int capacity = 2 * L::width;     // grows on the first build (and whenever a list outgrows it)
  Aligned<T> rows, thread_forces;  // rows: slots + width, the tail padding (read, never used)
  std::vector<T> at_build;         // each atom's position at the last build
  std::size_t thread_stride = 0;
  std::vector<T> atom_energy, atom_virial;
  std::int64_t builds = 0;

  State(int atoms, Vec3<double> box_length, double cutoff, double skin_, int threads_)
      : n(atoms),
        threads(std::max(1, threads_)),
        box(PeriodicBox<T>::of(box_length)),
        lj(ShiftedForceLJ<T>::with_cutoff(cutoff)),
        skin(skin_) {
    const double reach = cutoff + skin;
    reach2 = T(reach * reach);
    const double l[3] = {box_length.x, box_length.y, box_length.z};
    if (std::min({l[0], l[1], l[2]}) < 3 * reach)
      throw UnsupportedError("md --impl cpu: the box must be at least 3 (r_c + skin) across");
    for (int d = 0; d < 3; ++d) {
      cells[d] = int(std::floor(l[d] * 2 / reach));
      cell_scale[d] = T(cells[d] / l[d]);
    }
    grid[0] = cells[0] + 4;
    grid[1] = cells[1] + 4;
    grid[2] = cells[2] + 2;
    for (int code = 0; code < 27; ++code) {
      const int s[3] = {code % 3 - 1, code / 3 % 3 - 1, code / 9 - 1};
      for (int d = 0; d < 3; ++d) image_shift[code][d] = T(s[d] * l[d]);
    }
    cell_start.assign(std::size_t(grid[0]) * grid[1] * grid[2] + 1, 0);
    real_slot.resize(std::size_t(n));
    atom_slot_start.resize(std::size_t(n) + 1);
    counts.resize(std::size_t(n));
    at_build.resize(3 * std::size_t(n));
    atom_energy.resize(std::size_t(n));
    atom_virial.resize(std::size_t(n));
  }

  // Extended cell of cell coordinates c (each in the grid's range).
  int extended(const int* c) const { return (c[0] + 2) + grid[0] * ((c[1] + 2) + grid[1] * c[2]); }

  // Calls visit(image code, extended cell) for the atom at p and each of its images that falls in
  // the extended grid (the atom's cell within two of a face), in a fixed order.
  template <class Visit>
  void images(const T* p, Visit visit) const {
    int c[3], shifts[3][2], count[3];
    for (int d = 0; d < 3; ++d) {
      c[d] = std::max(0, std::min(int(p[d] * cell_scale[d]), cells[d] - 1));
      shifts[d][0] = 0;
      count[d] = 1;
      if (c[d] < 2)
        shifts[d][count[d]++] = 1;
      else if (c[d] >= cells[d] - 2 && d < 2)
        shifts[d][count[d]++] = -1;  // no images below in z
    }
    for (int z = 0; z < count[2]; ++z)
      for (int y = 0; y < count[1]; ++y)
        for (int x = 0; x < count[0]; ++x) {
          const int s[3] = {shifts[0][x], shifts[1][y], shifts[2][z]};
          const int e[3] = {c[0] + s[0] * cells[0], c[1] + s[1] * cells[1], c[2] + s[2] * cells[2]};
          visit((s[0] + 1) + 3 * (s[1] + 1) + 9 * (s[2] + 1), extended(e));
        }
  }

  // Atoms and their images into the extended grid's cells (a counting sort, stable).
  void sort_into_cells(const T* x) {
    std::fill(cell_start.begin(), cell_start.end(), 0);
    for (int a = 0; a < n; ++a)
      images(x + 3 * a, [&](int, int cell) { ++cell_start[std::size_t(cell) + 1]; });
    for (std::size_t c = 1; c < cell_start.size(); ++c) cell_start[c] += cell_start[c - 1];
    slots = cell_start.back();
    slot_atom.resize(std::size_t(slots));
    slot_cell.resize(std::size_t(slots));
    slot_image.resize(std::size_t(slots));
    std::vector<int> cursor(cell_start.begin(), cell_start.end() - 1);
    for (int a = 0; a < n; ++a)
      images(x + 3 * a, [&](int code, int cell) {
        const std::size_t s = std::size_t(cursor[std::size_t(cell)]++);
        slot_atom[s] = a;
        slot_cell[s] = cell;
        slot_image[s] = static_cast<unsigned char>(code);
      });
    std::fill(atom_slot_start.begin(), atom_slot_start.end(), 0);
    for (int s = 0; s < slots; ++s) ++atom_slot_start[std::size_t(slot_atom[std::size_t(s)]) + 1];
    for (int a = 0; a < n; ++a)
      atom_slot_start[std::size_t(a) + 1] += atom_slot_start[std::size_t(a)];
    atom_slots.resize(std::size_t(slots));
    std::vector<int> fill(atom_slot_start.begin(), atom_slot_start.end() - 1);
    for (int s = 0, k = 0; s < slots; ++s) {
      const std::size_t a = std::size_t(slot_atom[std::size_t(s)]);
      atom_slots[std::size_t(fill[a]++)] = s;
      if (slot_image[std::size_t(s)] == unshifted) real_slot[std::size_t(k++)] = s;
    }
    if (std::size_t(slots + width) * 4 > thread_stride) {
      thread_stride =
          4 * std::size_t(slots + slots / 16 + width);  // room for the next builds' images
      rows.assign(thread_stride, T(0));
      thread_forces.assign(thread_stride * std::size_t(threads), T(0));
    }
    std::copy(x, x + 3 * std::size_t(n), at_build.begin());
  }

  // Writes every slot's row: the atom's position followed continuously since the last build (the
  // image of its wrapped position nearest to where it was then) plus the slot's image shift.
  // Returns the largest squared move since the build.
  T gather(const T* x) {
    T* r = rows.get();
    const T* b = at_build.data();
    const T l[3] = {box.length.x, box.length.y, box.length.z},
            inv[3] = {box.inverse.x, box.inverse.y, box.inverse.z};
    T most = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : most)
    for (int s = 0; s < slots; ++s) {
      const std::size_t a = std::size_t(slot_atom[std::size_t(s)]);
      const T* shift = image_shift[slot_image[std::size_t(s)]];
      T moved2 = 0;
      for (int d = 0; d < 3; ++d) {
        const T p = x[3 * a + d], p0 = b[3 * a + d];
        const T q =
            math::fma(math::floor(math::fma(p0 - p, inv[d], T(0.5))), l[d], p);  // p, or p -+ L
        r[4 * std::size_t(s) + d] = q + shift[d];
        moved2 = math::fma(q - p0, q - p0, moved2);
      }
      most = std::max(most, moved2);
    }
    return most;
  }

  // Slot i's partners among slots [begin, end) (contiguous rows), appended to out[c...]: each
  // register's kept lanes packed to the front by a table, without branches.
  int scan(int begin, int end, V xi, V yi, V zi, int* out, int c) const {
    const V reach = L::set(reach2);
    const T* r = rows.get();
    for (int j0 = begin; j0 < end; j0 += width) {
      V x, y, z;
      L::load([&](int k) { return r + 4 * std::size_t(j0 + k); }, x, y, z);
      x = L::sub(xi, x);
      y = L::sub(yi, y);
      z = L::sub(zi, z);
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

  // The half list of the k-th real slot: the upper half of the 125 cells around its own (later
  // slots of its cell and the two cells after it along x; the next two rows of five in y; the
  // next two planes of 25 in z), padded to whole registers with the slot past the last.
  // Returns the padded length.
  int list_of(int k) {
    const int i = real_slot[std::size_t(k)];
    const T* r = rows.get() + 4 * std::size_t(i);
    const V xi = L::set(r[0]), yi = L::set(r[1]), zi = L::set(r[2]);
    const int cell = slot_cell[std::size_t(i)];
    const int* start = cell_start.data();
    int* out = partners.data() + std::size_t(k) * std::size_t(capacity);
    int c = scan(i + 1, start[cell + 3], xi, yi, zi, out, 0);
    for (int oz = 0; oz <= 2; ++oz)
      for (int oy = oz == 0 ? 1 : -2; oy <= 2; ++oy) {
        const int first = cell + grid[0] * (oy + grid[1] * oz) - 2;
        c = scan(start[first], start[first + 5], xi, yi, zi, out, c);
      }
    counts[std::size_t(k)] = c;
    const int padded = round_up(c, width);
    for (int m = c; m < padded && m < capacity; ++m) out[m] = slots;
    return padded;
  }

  void build(const T* x) {
    sort_into_cells(x);
    gather(x);
    for (;;) {
      partners.resize(std::size_t(n) * std::size_t(capacity));
      int longest = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 256) reduction(max : longest)
      for (int k = 0; k < n; ++k) longest = std::max(longest, list_of(k));
      if (longest <= capacity) break;
      capacity = round_up(longest + longest / 8, width);
    }
    ++builds;
  }

  // Pair terms of the k-th real slot with its list: its own sum kept in registers, the partners'
  // shares subtracted from this thread's force rows.
  void sweep(int k, T* forces) {
    const V zero = L::set(0);
    const LjLanes<T> pair(lj);
    const T* r = rows.get();
    const int i = real_slot[std::size_t(k)];
    const T* ri = r + 4 * std::size_t(i);
    const V xi = L::set(ri[0]), yi = L::set(ri[1]), zi = L::set(ri[2]);
    V fx = zero, fy = zero, fz = zero, energy = zero, virial = zero;
    const int* p = partners.data() + std::size_t(k) * std::size_t(capacity);
    const int m = counts[std::size_t(k)];
    for (int a = 0; a < m; a += width) {
      const int* idx = p + a;
      V x, y, z;
      L::load([&](int q) { return r + 4 * std::size_t(idx[q]); }, x, y, z);
      x = L::sub(xi, x);
      y = L::sub(yi, y);
      z = L::sub(zi, z);
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
      L::subtract([&](int q) { return forces + 4 * std::size_t(idx[q]); }, x, y, z);
    }
    T* fi = forces + 4 * std::size_t(i);
    fi[0] += L::sum(fx);
    fi[1] += L::sum(fy);
    fi[2] += L::sum(fz);
    const std::size_t atom = std::size_t(slot_atom[std::size_t(i)]);
    atom_energy[atom] = L::sum(energy);
    atom_virial[atom] = L::sum(virial);
  }

  int first_real(int t) const { return int(std::int64_t(n) * t / team); }
  int first_slot(int t) const { return t < team ? real_slot[std::size_t(first_real(t))] : slots; }

  void compute(const T* x, T* f, T* energy, T* virial) {
    if (builds == 0 || double(gather(x)) > 0.25 * skin * skin) build(x);
      // Each thread a run of real slots (a slab of the box); all their partners lie in later slots,
      // so its force rows from its first slot on are the ones it touches.
#pragma omp parallel num_threads(threads)
    {
#pragma omp master
      team = omp_get_num_threads();
#pragma omp barrier
      const int t = omp_get_thread_num();
      T* forces = thread_forces.get() + thread_stride * std::size_t(t);
      std::fill(forces + 4 * std::size_t(first_slot(t)), forces + 4 * std::size_t(slots + 1), T(0));
      for (int k = first_real(t), e = first_real(t + 1); k < e; ++k) sweep(k, forces);
    }
    // Each atom's force: its own slot and its images, over the threads' rows.
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int a = 0; a < n; ++a) {
      T sum[3] = {0, 0, 0};
      for (int m = atom_slot_start[std::size_t(a)]; m < atom_slot_start[std::size_t(a) + 1]; ++m) {
        const int s = atom_slots[std::size_t(m)];
        for (int t = 0; t < team && first_slot(t) <= s; ++t) {
          const T* row = thread_forces.get() + thread_stride * std::size_t(t) + 4 * std::size_t(s);
          for (int d = 0; d < 3; ++d) sum[d] += row[d];
        }
      }
      for (int d = 0; d < 3; ++d) f[3 * std::size_t(a) + d] = sum[d];
      energy[a] = atom_energy[std::size_t(a)];
      virial[a] = atom_virial[std::size_t(a)];
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
template void lj_lanes_evaluate(const ShiftedForceLJ<double>&, const double*, int, double*,
                                double*);
#endif  // KMOL_MD_HOST_AVX2

template <class T>
LjHostForces<T>::LjHostForces(int atoms, Vec3<double> box, double cutoff, double skin,
                              int threads) {
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
  return "cpu: half list, skin " + std::to_string(s_->skin) + ", capacity " +
         std::to_string(s_->capacity) + ", cells " + std::to_string(s_->cells[0]) + "x" +
         std::to_string(s_->cells[1]) + "x" + std::to_string(s_->cells[2]) + " and images, " +
         std::to_string(s_->threads) + " threads, AVX2 " + std::to_string(State::width) + " lanes";
#else
  return "cpu: unavailable";
#endif
}

template class LjHostForces<float>;
template class LjHostForces<double>;

}  // namespace kmol
