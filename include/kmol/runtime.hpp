#pragma once
// What every program using kmol needs: kmol::Runtime (starts and stops Kokkos), the errors kmol
// throws, vectors and boxes, and kmol's version.
#include "kmol/core/box.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/runtime.hpp"
#include "kmol/core/runtime_notes.hpp"
#include "kmol/core/vec3.hpp"
#include "kmol/core/version.hpp"
