#pragma once
// Everything kmol offers a C++ program, one header per algorithm beside this one:
//
//   #include <kmol/kmol.hpp>
//   kmol::Runtime runtime;  // starts Kokkos for the life of the object
//   auto h = kmol::pair_histogram(Kokkos::DefaultExecutionSpace(), kmol::one_set(xyz, n), s);
//
// With CMake: find_package(kmol) and link kmol::kmol; otherwise the install prefix's include
// directory and Kokkos' are the only include paths needed.
#include "kmol/correlation.hpp"
#include "kmol/coulomb.hpp"
#include "kmol/density.hpp"
#include "kmol/maps.hpp"
#include "kmol/md.hpp"
#include "kmol/orbital.hpp"
#include "kmol/pair_histogram.hpp"
#include "kmol/rand48.hpp"
#include "kmol/runtime.hpp"
#include "kmol/surface.hpp"
