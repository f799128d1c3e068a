#pragma once
// A periodic cell given by edge lengths and angles, as PDB CRYST1 records, MDAnalysis and AMBER
// give it.
#include "kmol/core/box.hpp"

namespace kmol {

// Lengths a, b, c and angles alpha, beta, gamma (degrees): a along x, b in the xy plane;
// orthorhombic when every angle is 90. InputError (field "box") for angles that make no cell
// with volume.
BoxSpec box_from_cell(double a, double b, double c, double alpha, double beta, double gamma);

}  // namespace kmol
