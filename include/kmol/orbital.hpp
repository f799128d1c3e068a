#pragma once
// Molecular orbitals of a Molden file on a lattice: kmol::read_molden, kmol::orbital_on_lattice and
// kmol's example molecules.
#include "kernels/orbital/examples.hpp"
#include "kernels/orbital/molden.hpp"
#include "kernels/orbital/orbital.hpp"
