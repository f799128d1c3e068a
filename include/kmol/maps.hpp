#pragma once
// Lattices and the files kmol reads and writes them as (OpenDX, MRC/CCP4, Gaussian cube), and PQR
// structures.
#include <cstdint>

#include "kmol/core/grid.hpp"
#include "kmol/core/io/cube.hpp"
#include "kmol/core/io/mrc.hpp"
#include "kmol/core/io/opendx.hpp"
#include "kmol/core/io/pqr.hpp"
#include "kmol/core/points.hpp"

namespace kmol {

// grid_around of a flat array x0,y0,z0,x1,... of n atoms.
inline Grid grid_around(const double* xyz, std::int64_t n, double spacing, double padding) {
  return grid_around(as_points(xyz), n, spacing, padding);
}

}  // namespace kmol
