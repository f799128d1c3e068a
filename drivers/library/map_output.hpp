#pragma once
// Scalar maps out of every map command and the Python module, the format chosen by the extension:
//   .dx: OpenDX (APBS' dialect); .h5/.hdf5: dataset /<name> of shape (nx, ny, nz), z fastest, with
//   origin and delta attributes, float32, float64 or IEEE float16; .mrc/.map/.ccp4: MRC2014 mode
//   2; .cube/.cub: Gaussian cube.
// Structures in: PQR (radii from the file), PDB (radii by element), trajectories (one frame;
// radii by element from --top when given, else one radius). Masses: by element for PQR and PDB,
// from a TPR's masses or by element of a topology's names, or from an H5MD file's mass.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kmol/core/io/cube.hpp"
#include "kmol/core/io/opendx.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol {

// How a map is labelled in its file: OpenDX's comment line (and a cube file's first line unless
// `cube_title` is given), the HDF5 dataset's name and string attributes, a cube file's atoms.
struct MapLabels {
  std::string title;
  std::string cube_title;
  std::string dataset;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<io::CubeAtom> atoms;
};

// grid.points() values of T (float or double) in lattice order, written atomically in the format
// of the extension: .dx, .h5/.hdf5 (float32, or float64 for double values), .mrc/.map/.ccp4
// (float32), .cube/.cub.
template <class T>
void write_map(const std::string& path, const Grid& grid, const T* values, const MapLabels& labels);
// Binary16 bits (kmol surf --storage half): IEEE float16 in HDF5, widened to float elsewhere.
void write_half_map(const std::string& path, const Grid& grid, const std::uint16_t* bits,
                    const MapLabels& labels);

// OpenDX (.dx) or MRC/CCP4 (.mrc, .map, .ccp4) by extension.
io::ScalarMap read_map(const std::string& path);

struct Structure {
  std::vector<Vec3<float>> positions;
  std::vector<float> radii;        // Angstrom
  std::vector<float> masses;       // g/mol, NaN for an unknown element; empty: the input has none
  std::string masses_from;         // where the masses come from, for messages
  std::vector<std::string> names;  // atom names (PDB, PQR); empty where the input has none
};

// path: .pqr, .pdb/.ent or .h5md (frame `frame`, radii from `topology` if not empty).
// Throws InputError naming the file, field and line.
Structure read_structure(const std::string& path, std::int64_t frame, const std::string& topology,
                         double fallback_radius);

// One plane of a map drawn as a PNG by tools/plot_map.py (/usr/bin/python3 with Debian's
// matplotlib): the --plot of kmol potential, orbital, surf and cc.
struct PlanePlot {
  std::string path;             // the PNG, written to a temporary file and renamed
  std::string axis = "z";       // the plane's normal: x, y or z
  double at = NAN;              // its coordinate (Angstrom); NAN: the middle of the lattice
  std::string title;            // the plane's position is appended
  std::string units, quantity;  // the colour bar's label; quantity may be empty
  double iso = NAN;             // a contour at this value (NAN: none)
  bool diverging = false;       // a scale symmetric about 0 (potentials, orbitals)
};

// grid.points() values of T (float or double). Throws InputError naming --plot-at when the plane
// lies outside the lattice, and naming the PNG when drawing fails.
template <class T>
void plot_plane(const PlanePlot& plot, const Grid& grid, const T* values);

// Draws a CSV of frame,time,cc with tools/plot_map.py (--timeline).
void plot_timeline(const std::string& png, const std::string& csv, const std::string& title);

}  // namespace kmol
