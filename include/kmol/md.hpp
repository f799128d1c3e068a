#pragma once
// Lennard-Jones molecular dynamics: kmol::MdSimulation on an fcc lattice (kmol::fcc_lattice).
#include "kernels/md/md.hpp"
