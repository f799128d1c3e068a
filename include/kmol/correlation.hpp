#pragma once
// Cross-correlation of a simulated map with a reference map: kmol::cross_correlation.
#include "kernels/correlation/correlation.hpp"
#include "kernels/correlation/views.hpp"
