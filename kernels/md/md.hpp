#pragma once
// Lennard-Jones molecular dynamics in reduced units on any Kokkos execution space: shifted-force
// LJ, orthorhombic periodic box, velocity Verlet, NVE or an Andersen / Langevin thermostat.
//
//   kmol::MdState start = kmol::fcc_lattice({10, 10, 10}, 0.8442);
//   kmol::maxwell_boltzmann(start, 1.44, 12345);
//   kmol::MdSimulation<Kokkos::DefaultExecutionSpace, float> md(space, start, settings);
//   md.run(1000);  auto t = md.thermo();
#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/md/impl.hpp"  // generated from implementations.hpp
#include "kmol/core/vec3.hpp"

namespace kmol {

// What a neighbour list holds: every partner of each atom (each sums its own force, no atomics),
// or each pair once (the partner's share scattered).
enum class MdList { full, half };
enum class Thermostat { none, andersen, langevin };

std::string to_string(MdForceImpl impl);
// An implementation's name; also "cpu" (host), "neighbour_full" and "neighbour_half" (neighbour).
MdForceImpl md_force_impl_from_string(const std::string& name);
std::string to_string(MdList list);
MdList md_list_from_string(const std::string& name);
std::string to_string(Thermostat thermostat);
Thermostat thermostat_from_string(const std::string& name);

struct MdSettings {
  double cutoff = 2.5;
  double skin = 0.3;  // neighbour lists: rebuilt once some atom has moved skin / 2
  double dt = 0.005;
  Thermostat thermostat = Thermostat::none;
  double temperature = 1.0;  // of the thermostat
  double coupling = 1.0;     // Andersen collision frequency or Langevin friction, per unit time
  std::int64_t seed = 12345;
  MdForceImpl impl = MdForceImpl::automatic;
  MdList list = MdList::full;  // of --impl neighbour
};

// Sets settings.impl from an --impl name; "neighbour_full" and "neighbour_half" set the list too.
void set_md_force(MdSettings& settings, const std::string& impl);

// Host copy of a configuration (positions inside or outside the box; they are wrapped on upload).
struct MdState {
  Vec3<double> box;
  std::vector<Vec3<double>> positions, velocities;  // velocities empty: at rest
  std::int64_t step = 0;
  double time = 0;
};

struct MdThermo {
  std::int64_t step = 0;
  double time = 0;
  double temperature = 0;                        // 2 KE / (3N - 3)
  double potential = 0, kinetic = 0, total = 0;  // per atom
  double pressure = 0;
  Vec3<double> momentum;
};

// nx * ny * nz cubic cells of four atoms at the number density rho.
MdState fcc_lattice(std::array<int, 3> cells, double density);
// Cells per side of the cubic FCC crystal nearest to `atoms` atoms.
int fcc_cells_per_side(std::int64_t atoms);
// Gaussian velocities from kmol's rand48 (seeded like srand48(seed)), zero total momentum, and
// scaled to exactly `temperature`.
void maxwell_boltzmann(MdState& state, double temperature, std::int64_t seed);

template <class ExecSpace, class T>
class MdSimulation {
 public:
  // Throws InputError for a bad configuration or settings, UnsupportedError when settings.impl
  // cannot run it. Forces are evaluated on construction.
  MdSimulation(const ExecSpace& space, const MdState& start, const MdSettings& settings);
  ~MdSimulation();
  MdSimulation(const MdSimulation&) = delete;
  MdSimulation& operator=(const MdSimulation&) = delete;

  void run(std::int64_t steps);
  MdThermo thermo() const;
  MdState state() const;  // positions (wrapped) and velocities
  // The lowest index of an atom that md_health_problem (health.hpp) would report for a time step
  // dt: a coordinate not finite or more than a box length outside the box, or a velocity moving it
  // half the smallest box side in a step; -1 if none. Checked where the atoms are, so a healthy
  // run never copies its configuration to the host for the check.
  std::int64_t first_unphysical_atom(double dt) const;
  std::vector<Vec3<double>> forces() const;
  std::int64_t atoms() const;
  MdForceImpl impl() const;
  std::string launch() const;        // implementation and its parameters, for the record
  std::int64_t list_builds() const;  // neighbour-list builds so far (0 for other impls)

  struct Engine;

 private:
  std::unique_ptr<Engine> engine_;
};

}  // namespace kmol

#define KMOL_DECLARE_MD(Space)                            \
  extern template class kmol::MdSimulation<Space, float>; \
  extern template class kmol::MdSimulation<Space, double>;
#ifdef KOKKOS_ENABLE_SERIAL
KMOL_DECLARE_MD(Kokkos::Serial)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
KMOL_DECLARE_MD(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_CUDA
KMOL_DECLARE_MD(Kokkos::Cuda)
#endif
