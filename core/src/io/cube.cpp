#include "kmol/core/io/cube.hpp"

#include <cstdio>
#include <memory>
#include <utility>

#include "kmol/core/errors.hpp"
#include "kmol/core/stop.hpp"
#include "kmol/core/version.hpp"

namespace kmol::io {

template <class T>
void write_cube(const std::string& path, const Grid& grid, const T* values,
                const std::vector<CubeAtom>& atoms, const std::string& title) {
  constexpr double bohr = 0.529177210903;  // Angstrom (CODATA 2018)
  TemporaryFile output(path);
  TemporaryFile::Stream f = output.open("w");
  FILE* out = f.get();
  const auto [nx, ny, nz] = grid.counts;
  std::fprintf(out, "%s\nwritten by kmol %s; lengths in bohr\n", title.c_str(), KMOL_VERSION);
  // The lattice exactly (17 significant digits round-trip a double), separated by blanks as
  // the readers in use (VMD, PyMOL, ASE, cclib) parse it.
  std::fprintf(out, "%5d %.17g %.17g %.17g\n", int(atoms.size()), grid.origin.x / bohr,
               grid.origin.y / bohr, grid.origin.z / bohr);
  std::fprintf(out, "%5lld %.17g 0 0\n", (long long)nx, grid.spacing[0] / bohr);
  std::fprintf(out, "%5lld 0 %.17g 0\n", (long long)ny, grid.spacing[1] / bohr);
  std::fprintf(out, "%5lld 0 0 %.17g\n", (long long)nz, grid.spacing[2] / bohr);
  for (const CubeAtom& a : atoms)
    std::fprintf(out, "%5d %12.6f %12.6f %12.6f %12.6f\n", a.atomic_number, double(a.atomic_number),
                 a.position.x / bohr, a.position.y / bohr, a.position.z / bohr);
  for (std::int64_t i = 0; i < nx; ++i)
    for (std::int64_t j = 0; j < ny; ++j) {
      for (std::int64_t k = 0; k < nz; ++k)
        std::fprintf(out, k % 6 == 5 || k == nz - 1 ? "%13.5E\n" : "%13.5E",
                     double(values[(k * ny + j) * nx + i]));
    }
  output.commit(std::move(f), "cube");
}

template void write_cube(const std::string&, const Grid&, const float*,
                         const std::vector<CubeAtom>&, const std::string&);
template void write_cube(const std::string&, const Grid&, const double*,
                         const std::vector<CubeAtom>&, const std::string&);

}  // namespace kmol::io
