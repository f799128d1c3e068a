#pragma once
// MdSimulation's engine: device state, the chosen force implementation, velocity Verlet and the
// thermostats. Included only by instances_<space>.cpp, which instantiate it per backend.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <memory>
#include <type_traits>
#include <utility>

#include "kernels/empty_view.hpp"
#include "kernels/md/implementations.hpp"
#include "kernels/md/kokkos/forces.hpp"
#include "kernels/md/md.hpp"
#include "kernels/md/runners.hpp"
#include "kernels/md/validation.hpp"
#include "kernels/rng/rand48.hpp"
#include "kernels/run_implementation.hpp"
#include "kmol/core/cancel.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/execution_space.hpp"

namespace kmol {
namespace md {

// Each thermostat step gives each atom its own run of this many rand48 numbers, at a place in the
// sequence fixed by (step, atom): the same numbers whatever the backend or thread count.
inline constexpr std::uint64_t draws_per_atom = 6;
inline constexpr std::uint64_t thermostat_stream_offset = std::uint64_t(1)
                                                          << 40;  // past the start-up draws

KOKKOS_INLINE_FUNCTION void gaussian_pair(double u1, double u2, double& a, double& b) {
  const double r = ::sqrt(-2 * ::log(1 - u1));
  a = r * ::cos(6.283185307179586 * u2);
  b = r * ::sin(6.283185307179586 * u2);
}

// What every force implementation's runner (runner.hpp) reads and writes: the system, its
// positions and the force outputs, and one slot for what the chosen implementation keeps between
// steps (its cells, lists or buffers; one implementation runs per simulation).
template <class ExecSpace, class T>
struct ForceState {
  using value_type = T;
  MdSettings settings;
  int n = 0;
  Vec3<double> box_length;
  PeriodicBox<T> box;
  ShiftedForceLJ<T> lj;
  typename Types<ExecSpace, T>::Vectors x = empty_view<typename Types<ExecSpace, T>::Vectors>();
  ForceOutput<ExecSpace, T> out;
  std::int64_t list_builds = 0;     // of the implementations that keep a neighbour list
  std::shared_ptr<void> kept_slot;  // see kept()

  template <class Kept, class... Args>
  Kept& kept(Args&&... args) {
    if (!kept_slot) kept_slot = std::make_shared<Kept>(std::forward<Args>(args)...);
    return *static_cast<Kept*>(kept_slot.get());
  }
};

}  // namespace md

template <class ExecSpace, class T>
struct MdSimulation<ExecSpace, T>::Engine {
  using Ty = md::Types<ExecSpace, T>;
  static constexpr Platform platform = platform_of<ExecSpace>();

  ExecSpace space;
  MdSettings settings;
  MdForceImpl impl;
  std::string launch;
  int n;
  Vec3<double> box_length;
  PeriodicBox<T> box;
  ShiftedForceLJ<T> lj;
  typename Ty::Vectors x = empty_view<typename Ty::Vectors>(),
                       v = empty_view<typename Ty::Vectors>();
  md::ForceOutput<ExecSpace, T> out;
  md::ForceState<ExecSpace, T> forces;
  std::int64_t step;
  double time;

  Engine(const ExecSpace& s, const MdState& start, const MdSettings& st)
      : space(s),
        settings(st),
        n(int(start.positions.size())),
        box_length(start.box),
        step(start.step),
        time(start.time) {
    md::validate(start, settings);
    impl = choose_md_force_impl({n, box_length, settings.cutoff, settings.skin}, platform,
                                settings.impl);
    box = PeriodicBox<T>::of(box_length);
    lj = ShiftedForceLJ<T>::with_cutoff(settings.cutoff);
    x = typename Ty::Vectors(std::string("md::x"), n);
    v = typename Ty::Vectors(std::string("md::v"), n);
    out = {typename Ty::Vectors(std::string("md::f"), n),
           typename Ty::Scalars(std::string("md::energy"), n),
           typename Ty::Scalars(std::string("md::virial"), n)};
    auto hx = Kokkos::create_mirror_view(x);
    auto hv = Kokkos::create_mirror_view(v);
    for (int i = 0; i < n; ++i) {
      const Vec3<double> p = start.positions[std::size_t(i)];
      const Vec3<double> u =
          start.velocities.empty() ? Vec3<double>{} : start.velocities[std::size_t(i)];
      const double pd[3] = {p.x, p.y, p.z}, ud[3] = {u.x, u.y, u.z},
                   l[3] = {box_length.x, box_length.y, box_length.z};
      for (int d = 0; d < 3; ++d) {
        hx(i, d) = PeriodicBox<T>::wrap_into(T(pd[d] - l[d] * std::floor(pd[d] / l[d])), T(l[d]),
                                             T(1 / l[d]));
        hv(i, d) = T(ud[d]);
      }
    }
    Kokkos::deep_copy(space, x, hx);
    Kokkos::deep_copy(space, v, hv);
    forces = {settings, n, box_length, box, lj, x, out};
    compute_forces();
  }

  void compute_forces() {
    launch = run_implementation<MdForceRunner, md_implementations>("md", impl, space, forces);
  }

  // Velocity Verlet: half kick and drift (wrapping into the box), new forces, half kick.
  void verlet_step() {
    const auto xs = x, vs = v, f = out.f;
    const T dt = T(settings.dt), half_dt = T(0.5 * settings.dt);
    const auto b = box;
    Kokkos::parallel_for(
        "kmol::md::kick_drift", Kokkos::RangePolicy<ExecSpace>(space, 0, n), KOKKOS_LAMBDA(int i) {
          const T l[3] = {b.length.x, b.length.y, b.length.z},
                  inv[3] = {b.inverse.x, b.inverse.y, b.inverse.z};
          for (int d = 0; d < 3; ++d) {
            vs(i, d) = math::fma(half_dt, f(i, d), vs(i, d));
            xs(i, d) = PeriodicBox<T>::wrap_into(math::fma(dt, vs(i, d), xs(i, d)), l[d], inv[d]);
          }
        });
    compute_forces();
    Kokkos::parallel_for(
        "kmol::md::kick", Kokkos::RangePolicy<ExecSpace>(space, 0, n), KOKKOS_LAMBDA(int i) {
          for (int d = 0; d < 3; ++d) vs(i, d) = math::fma(half_dt, f(i, d), vs(i, d));
        });
    ++step;
    time += settings.dt;
    if (settings.thermostat != Thermostat::none) thermostat();
  }

  // Andersen: each atom collides with probability coupling * dt and takes fresh Maxwell-Boltzmann
  // velocities. Langevin: the exact Ornstein-Uhlenbeck update of the velocities over dt.
  void thermostat() {
    const Rand48 base = Rand48{rand48_seed_state(settings.seed)}.advanced(
        md::thermostat_stream_offset + md::draws_per_atom * std::uint64_t(n) * std::uint64_t(step));
    const double sd = std::sqrt(settings.temperature);
    const double collide = settings.coupling * settings.dt;
    const double keep = std::exp(-settings.coupling * settings.dt),
                 kick = std::sqrt(1 - keep * keep) * sd;
    const bool andersen = settings.thermostat == Thermostat::andersen;
    const auto vs = v;
    Kokkos::parallel_for(
        "kmol::md::thermostat", Kokkos::RangePolicy<ExecSpace>(space, 0, n), KOKKOS_LAMBDA(int i) {
          Rand48 g = base.advanced(md::draws_per_atom * std::uint64_t(i));
          double u[6];
          for (double& w : u) w = g.drand48();
          double z[6];
          md::gaussian_pair(u[0], u[1], z[0], z[1]);
          md::gaussian_pair(u[2], u[3], z[2], z[3]);
          md::gaussian_pair(u[4], u[5], z[4], z[5]);
          if (andersen) {
            if (u[5] < collide)  // u[5] only fed z[4], z[5], which Andersen does not use
              for (int d = 0; d < 3; ++d) vs(i, d) = T(sd * z[d]);
          } else {
            for (int d = 0; d < 3; ++d) vs(i, d) = T(keep * double(vs(i, d)) + kick * z[d]);
          }
        });
  }

  double sum(const typename Ty::Scalars& a) const {
    double total = 0;
    Kokkos::parallel_reduce(
        "kmol::md::sum", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(int i, double& t) { t += double(a(i)); }, total);
    return total;
  }

  double sum_component(const typename Ty::Vectors& a, int d, bool squared) const {
    double total = 0;
    Kokkos::parallel_reduce(
        "kmol::md::sum_component", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
        KOKKOS_LAMBDA(int i, double& t) {
          t += squared ? double(a(i, d)) * double(a(i, d)) : double(a(i, d));
        },
        total);
    return total;
  }

  MdThermo thermo() const {
    MdThermo t;
    t.step = step;
    t.time = time;
    const double kinetic =
        0.5 * (sum_component(v, 0, true) + sum_component(v, 1, true) + sum_component(v, 2, true));
    const double potential = sum(out.energy), virial = sum(out.virial);
    const double volume = box_length.x * box_length.y * box_length.z;
    t.temperature = 2 * kinetic / double(3 * n - 3);
    t.kinetic = kinetic / n;
    t.potential = potential / n;
    t.total = t.kinetic + t.potential;
    t.pressure = (2 * kinetic + virial) / (3 * volume);
    t.momentum = {sum_component(v, 0, false), sum_component(v, 1, false),
                  sum_component(v, 2, false)};
    return t;
  }
};

template <class ExecSpace, class T>
MdSimulation<ExecSpace, T>::MdSimulation(const ExecSpace& space, const MdState& start,
                                         const MdSettings& settings)
    : engine_(std::make_unique<Engine>(space, start, settings)) {}

template <class ExecSpace, class T>
MdSimulation<ExecSpace, T>::~MdSimulation() = default;

template <class ExecSpace, class T>
void MdSimulation<ExecSpace, T>::run(std::int64_t steps) {
  Kokkos::Profiling::pushRegion("kmol::md::run");
  // A cancel stops between steps, so the state stays that of the last step done.
  for (std::int64_t k = 0; k < steps && !cancel_requested(); ++k) engine_->verlet_step();
  engine_->space.fence();
  Kokkos::Profiling::popRegion();
  throw_if_cancelled("the MD run");
}

template <class ExecSpace, class T>
MdThermo MdSimulation<ExecSpace, T>::thermo() const {
  return engine_->thermo();
}

namespace md {
template <class V>
std::vector<Vec3<double>> to_host_vectors(const V& a) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  std::vector<Vec3<double>> out(h.extent(0));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = {double(h(i, 0)), double(h(i, 1)), double(h(i, 2))};
  return out;
}
}  // namespace md

template <class ExecSpace, class T>
MdState MdSimulation<ExecSpace, T>::state() const {
  MdState s;
  s.box = engine_->box_length;
  s.positions = md::to_host_vectors(engine_->x);
  s.velocities = md::to_host_vectors(engine_->v);
  s.step = engine_->step;
  s.time = engine_->time;
  return s;
}

template <class ExecSpace, class T>
std::int64_t MdSimulation<ExecSpace, T>::first_unphysical_atom(double dt) const {
  const auto xs = engine_->x, vs = engine_->v;
  const Vec3<double> l = engine_->box_length;
  const double half = 0.5 * math::min(l.x, math::min(l.y, l.z));
  const int n = int(engine_->n);
  std::int64_t first = n;
  Kokkos::parallel_reduce(
      "kmol::md::first_unphysical_atom", Kokkos::RangePolicy<ExecSpace>(engine_->space, 0, n),
      KOKKOS_LAMBDA(int i, std::int64_t& lowest) {
        const double box[3] = {l.x, l.y, l.z};
        bool bad = false;
        double speed2 = 0;
        for (int d = 0; d < 3; ++d) {
          const double x = double(xs(i, d)), v = double(vs(i, d));
          bad = bad || !(x - x == 0) || x < -box[d] || x > 2 * box[d];
          speed2 += v * v;
        }
        bad = bad || !(math::sqrt(speed2) * dt < half);
        if (bad && i < lowest) lowest = i;
      },
      Kokkos::Min<std::int64_t>(first));
  return first < n ? first : -1;
}

template <class ExecSpace, class T>
std::vector<Vec3<double>> MdSimulation<ExecSpace, T>::forces() const {
  return md::to_host_vectors(engine_->out.f);
}

template <class ExecSpace, class T>
std::int64_t MdSimulation<ExecSpace, T>::atoms() const {
  return engine_->n;
}
template <class ExecSpace, class T>
MdForceImpl MdSimulation<ExecSpace, T>::impl() const {
  return engine_->impl;
}
template <class ExecSpace, class T>
std::string MdSimulation<ExecSpace, T>::launch() const {
  return engine_->launch;
}
template <class ExecSpace, class T>
std::int64_t MdSimulation<ExecSpace, T>::list_builds() const {
  return engine_->forces.list_builds;
}

}  // namespace kmol

#define KMOL_INSTANTIATE_MD(Space)                 \
  template class kmol::MdSimulation<Space, float>; \
  template class kmol::MdSimulation<Space, double>;
