#include "kernels/md/host/lj_host.hpp"

#include <omp.h>
#include "kernels/md/host/lj_lanes.hpp"
#ifdef KMOL_HOST_VECTORS
#define KMOL_MD_HOST_AVX2 1
#include "kernels/md/host/image_cells.hpp"
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
using md_host::LjLanes;
using md_host::Rows;
using md_host::set_bits;

template <class T>
void lj_lanes_evaluate(const ShiftedForceLJ<T>& lj, const T* r2, int m, T* f_over_r, T* energy) {
  using V = vec::Batch<T>;
  constexpr int w = vec::width<T>;
  const LjLanes<T> lanes(lj);
  for (int a = 0; a < m; a += w) {
    alignas(32) T in[w] = {}, f[w], e[w];
    for (int k = 0; k < w && a + k < m; ++k) in[k] = r2[a + k];
    V vf, ve;
    lanes.evaluate(V::load_aligned(in), vec::first(T(), m - a), vf, ve);
    vf.store_aligned(f);
    ve.store_aligned(e);
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
  using V = vec::Batch<T>;
  using R = Rows<T>;
  static constexpr int width = vec::width<T>;

  int n, threads, team = 1;
  PeriodicBox<T> box;
  ShiftedForceLJ<T> lj;
  double skin;
  T reach2;
  md_host::ImageCells<T> cells;
  std::vector<int> counts, partners;
  int capacity = 2 * width;        // grows on the first build (and whenever a list outgrows it)
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
        skin(skin_),
        reach2(T((cutoff + skin_) * (cutoff + skin_))),
        cells(atoms, box_length, cutoff + skin_) {
    counts.resize(std::size_t(n));
    at_build.resize(3 * std::size_t(n));
    atom_energy.resize(std::size_t(n));
    atom_virial.resize(std::size_t(n));
  }

  // Atoms and their images into cells, with force rows for them all.
  void sort_into_cells(const T* x) {
    cells.sort(x);
    const int slots = cells.slots;
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
    for (int s = 0; s < cells.slots; ++s) {
      const std::size_t a = std::size_t(cells.slot_atom[std::size_t(s)]);
      const T* shift = cells.image_shift[cells.slot_image[std::size_t(s)]];
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
    const V reach(reach2);
    const T* r = rows.get();
    for (int j0 = begin; j0 < end; j0 += width) {
      V x, y, z;
      R::load([&](int k) { return r + 4 * std::size_t(j0 + k); }, x, y, z);
      x = xi - x;
      y = yi - y;
      z = zi - z;
      const V r2 = xsimd::fma(x, x, xsimd::fma(y, y, z * z));
      const int bits = md_host::bits((r2 < reach) & vec::first(T(), end - j0));
      const vec::Batch<std::int32_t> kept = vec::Batch<std::int32_t>(j0) + set_bits.lanes(bits);
      if (c + 8 <= capacity) {
        kept.store_unaligned(out + c);
      } else {
        alignas(32) int spill[8];
        kept.store_aligned(spill);
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
    const int i = cells.real_slot[std::size_t(k)];
    const T* r = rows.get() + 4 * std::size_t(i);
    const V xi(r[0]), yi(r[1]), zi(r[2]);
    const int cell = cells.slot_cell[std::size_t(i)];
    const int* start = cells.start.data();
    int* out = partners.data() + std::size_t(k) * std::size_t(capacity);
    int c = scan(i + 1, start[cell + 3], xi, yi, zi, out, 0);
    for (int oz = 0; oz <= 2; ++oz)
      for (int oy = oz == 0 ? 1 : -2; oy <= 2; ++oy) {
        const int first = cell + cells.extent[0] * (oy + cells.extent[1] * oz) - 2;
        c = scan(start[first], start[first + 5], xi, yi, zi, out, c);
      }
    counts[std::size_t(k)] = c;
    const int padded = round_up(c, width);
    for (int m = c; m < padded && m < capacity; ++m) out[m] = cells.slots;
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
    const V zero(T(0));
    const LjLanes<T> pair(lj);
    const T* r = rows.get();
    const int i = cells.real_slot[std::size_t(k)];
    const T* ri = r + 4 * std::size_t(i);
    const V xi(ri[0]), yi(ri[1]), zi(ri[2]);
    V fx = zero, fy = zero, fz = zero, energy = zero, virial = zero;
    const int* p = partners.data() + std::size_t(k) * std::size_t(capacity);
    const int m = counts[std::size_t(k)];
    for (int a = 0; a < m; a += width) {
      const int* idx = p + a;
      V x, y, z;
      R::load([&](int q) { return r + 4 * std::size_t(idx[q]); }, x, y, z);
      x = xi - x;
      y = yi - y;
      z = zi - z;
      const V r2 = xsimd::fma(x, x, xsimd::fma(y, y, z * z));
      V f_over_r, e;
      pair.evaluate(r2, vec::first(T(), m - a), f_over_r, e);
      x = f_over_r * x;
      y = f_over_r * y;
      z = f_over_r * z;
      fx += x;
      fy += y;
      fz += z;
      energy += e;
      virial = xsimd::fma(f_over_r, r2, virial);
      R::subtract([&](int q) { return forces + 4 * std::size_t(idx[q]); }, x, y, z);
    }
    T* fi = forces + 4 * std::size_t(i);
    fi[0] += vec::sum(fx);
    fi[1] += vec::sum(fy);
    fi[2] += vec::sum(fz);
    const std::size_t atom = std::size_t(cells.slot_atom[std::size_t(i)]);
    atom_energy[atom] = vec::sum(energy);
    atom_virial[atom] = vec::sum(virial);
  }

  int first_real(int t) const { return int(std::int64_t(n) * t / team); }
  int first_slot(int t) const {
    return t < team ? cells.real_slot[std::size_t(first_real(t))] : cells.slots;
  }

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
      std::fill(forces + 4 * std::size_t(first_slot(t)), forces + 4 * std::size_t(cells.slots + 1),
                T(0));
      for (int k = first_real(t), e = first_real(t + 1); k < e; ++k) sweep(k, forces);
    }
    // Each atom's force: its own slot and its images, over the threads' rows.
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int a = 0; a < n; ++a) {
      T sum[3] = {0, 0, 0};
      for (int m = cells.atom_slot_start[std::size_t(a)];
           m < cells.atom_slot_start[std::size_t(a) + 1]; ++m) {
        const int s = cells.atom_slots[std::size_t(m)];
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
  throw UnsupportedError("md --impl host: this build has no AVX2 (configure with x86-64-v3 flags)");
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
  const int* along = s_->cells.along;
  return "host: half list, skin " + std::to_string(s_->skin) + ", capacity " +
         std::to_string(s_->capacity) + ", cells " + std::to_string(along[0]) + "x" +
         std::to_string(along[1]) + "x" + std::to_string(along[2]) + " and images, " +
         std::to_string(s_->threads) + " threads, AVX2 (xsimd) " + std::to_string(State::width) +
         " lanes";
#else
  return "host: unavailable";
#endif
}

template class LjHostForces<float>;
template class LjHostForces<double>;

}  // namespace kmol
