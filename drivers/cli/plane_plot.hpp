#pragma once
// One plane of a lattice map drawn as a PNG by scripts/plot_slice.py (/usr/bin/python3 with
// Debian's matplotlib): `kmol potential --plot` and `kmol orbital --plot`.
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "kmol/core/grid.hpp"

namespace kmol::cli {

// --plot-axis and --plot-at: the plane a command's --plot draws.
void add_plane_options(CLI::App* command, std::string& axis, double& at);

struct PlanePlot {
  std::string path;             // the PNG, written to a temporary file and renamed
  std::string axis = "z";       // the plane's normal: x, y or z
  double at = NAN;              // its coordinate (Angstrom); NAN: the middle of the lattice
  std::string title;            // the plane's position is appended
  std::string units, quantity;  // the colour bar's label; quantity may be empty
};

// value(i, j, k) gives the map at a lattice point. Throws InputError naming --plot-at when the
// plane lies outside the lattice, and naming the file when drawing fails.
void plot_plane(const PlanePlot& plot, const Grid& lattice,
                const std::function<double(std::int64_t, std::int64_t, std::int64_t)>& value);

}  // namespace kmol::cli
