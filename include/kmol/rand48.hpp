#pragma once
// glibc's drand48/lrand48/mrand48 sequence, element by element or filled in parallel on any
// execution space: kmol::rand48_fill.
#include "kernels/rng/rand48.hpp"
#include "kernels/rng/rand48_fill.hpp"
