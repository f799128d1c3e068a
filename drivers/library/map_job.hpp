#pragma once
// The map job every front end runs for a scalar map on a lattice (kmol potential, orbital, surf
// and cc; the Python module's potential, orbital and density): the lattice chosen and checked
// once, the map computed on the execution space the device policy names (a long one in slabs of z
// planes, with a bar on a terminal), and the check every map passes before it is written or
// returned (map_check.hpp), each refusal naming the front end's own options or keywords. The
// files are written by map_output's write_map.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "drivers/library/device_policy.hpp"
#include "kernels/coulomb/coulomb.hpp"
#include "kernels/coulomb/validation.hpp"
#include "kernels/orbital/orbital.hpp"
#include "kernels/orbital/selection.hpp"
#include "kmol/core/grid.hpp"
#include "kmol/core/map_check.hpp"

namespace kmol {

// How a front end names a map's inputs in refusals: the command's options, or Python's keywords.
struct MapNames {
  std::string spacing = "--spacing", padding = "--padding", origin = "--origin",
              counts = "--counts";
  std::string more_range = "--precision double";  // what keeps more range in the arithmetic
  std::string float_storage = "--storage float";  // what stores values beyond half precision
};

// The Python module's keywords.
MapNames python_map_names();

// A lattice as asked for: one spacing (Angstrom) and either an origin (x y z, Angstrom) with
// counts (nx ny nz), or neither, for a lattice placed around the atoms with `padding` (Angstrom).
struct LatticeRequest {
  double spacing = 0.5, padding = 10;
  std::vector<double> origin;
  std::vector<std::int64_t> counts;
};

// The atoms a lattice is placed around: `names` (may be null) say which atom stretches it, and a
// refusal of theirs names `file` ("" for arrays).
struct LatticeAtoms {
  const Vec3<double>* positions = nullptr;
  std::int64_t n = 0;
  const std::string* names = nullptr;
  std::string file;
};

// The lattice of the request. InputError naming the front end's option: an origin without counts
// (or counts without an origin), a spacing that is not positive, counts that are not positive or
// multiply past 2^62, a negative padding; and grid_around's refusals of the atoms' lattice.
Grid map_lattice(const LatticeRequest& request, const LatticeAtoms& atoms, const MapNames& names);

// Maps of more than this many point evaluations are computed in slabs of z planes, so that a run
// of minutes shows its progress.
inline constexpr double slab_work = 2e10;

inline std::int64_t slabs_for(const Grid& lattice, double work) {
  return work < slab_work ? 1 : std::min<std::int64_t>(lattice.counts[2], 40);
}

// Computes a map (a type with `lattice` and `values` in lattice.index order) slab by slab, each
// slab an independent lattice of the same spacing, so the values are those of one piece; a bar on
// stderr when `progress` and stderr is a terminal.
template <class Map, class ComputePart>
Map compute_in_slabs(const Grid& lattice, std::int64_t slabs, ComputePart&& compute_part,
                     bool progress = true) {
  if (slabs <= 1) return compute_part(lattice);
  const bool show = progress && isatty(STDERR_FILENO);
  const std::int64_t nz = lattice.counts[2];
  Map map;
  for (std::int64_t b = 0; b < slabs; ++b) {
    const std::int64_t k0 = nz * b / slabs, k1 = nz * (b + 1) / slabs;
    Grid part = lattice;
    part.origin.z += double(k0) * lattice.spacing[2];
    part.counts[2] = k1 - k0;
    Map piece = compute_part(part);
    if (b == 0) {
      map = piece;
      map.lattice = lattice;
      map.values.assign(std::size_t(lattice.points()), 0);
    }
    std::copy(piece.values.begin(), piece.values.end(),
              map.values.begin() + lattice.index(0, 0, k0));
    if (show) {
      const int done = int(40 * (b + 1) / slabs);
      fmt::print(stderr, "\r[{}{}] {:3d}%", std::string(done, '#'), std::string(40 - done, ' '),
                 int(100 * (b + 1) / slabs));
      std::fflush(stderr);
    }
  }
  if (show) fmt::print(stderr, "\n");
  return map;
}

// Where and how a map runs: the device policy (named as the front end names it), the work of the
// whole lattice in point evaluations (which decides the slabs; set by potential_map and
// orbital_map) and whether a bar may show.
struct MapRun {
  DevicePolicy device = DevicePolicy::automatic;
  DeviceOption device_option;
  double work = 0;
  bool progress = true;
};

// compute_on(space, lattice) on the policy's execution space, in slabs where the work is long.
template <class Map, class ComputeOn>
Map compute_map(const Grid& lattice, const MapRun& run, ComputeOn&& compute_on) {
  return compute_in_slabs<Map>(
      lattice, slabs_for(lattice, run.work),
      [&](const Grid& part) {
        return with_space(
            run.device, [&](const auto& space) { return compute_on(space, part); },
            run.device_option);
      },
      run.progress);
}

// The point evaluations of a potential map of `atoms` atoms, for its slabs; 0 (one piece) where
// slabs do not pay: faces only, or a cutoff map, whose every slab would bin all the atoms again.
double potential_work(const CoulombSettings& settings, std::int64_t atoms);

// A potential map: the whole lattice validated first, then computed under `run` (its work set).
template <class T>
PotentialMap<T> potential_map(const CoulombInput<T>& input, const CoulombSettings& settings,
                              MapRun run) {
  validate_coulomb(input.n, settings, int(sizeof(T)));
  run.work = potential_work(settings, input.n);
  return compute_map<PotentialMap<T>>(settings.lattice, run,
                                      [&](const auto& space, const Grid& lattice) {
                                        CoulombSettings part = settings;
                                        part.lattice = lattice;
                                        return coulomb_potential(space, input, part);
                                      });
}

// An orbital's map: the whole lattice validated first, then computed under `run` (its work set).
template <class T>
OrbitalMap<T> orbital_map(const OrbitalBasis& basis, const MolecularOrbital& mo,
                          const OrbitalSettings& settings, MapRun run) {
  validate_orbital_lattice(settings.lattice, 1, int(sizeof(T)));
  run.work = double(settings.lattice.points()) * double(basis.functions());
  return compute_map<OrbitalMap<T>>(settings.lattice, run,
                                    [&](const auto& space, const Grid& lattice) {
                                      OrbitalSettings part = settings;
                                      part.lattice = lattice;
                                      return orbital_on_lattice<T>(space, basis, mo, part);
                                    });
}

// What each kind of map must be before it is written to `file` ("" when returned), naming the
// front end's options in the cause of a refusal.
// A potential is zero everywhere only where every charge is: the exact answer, kept.
MapExpectation potential_expectation(const std::string& file, const MapNames& names);
// `molden`: the orbital's file ("" for a built-in molecule).
MapExpectation orbital_expectation(const std::string& file, const std::string& molden,
                                   const MapNames& names);
// `half`: values stored as binary16; names.origin "": the front end places every lattice itself.
MapExpectation density_expectation(const std::string& file, bool half, const MapNames& names);

}  // namespace kmol
