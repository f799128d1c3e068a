#pragma once
// Marching-cubes isosurfaces of a map: kmol::marching_cubes, its area and volume, and the PLY/OBJ
// writers.
#include "kernels/surface/surface.hpp"
#include "kernels/surface/views.hpp"
