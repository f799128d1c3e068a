#pragma once
// What every part of the C API shares: the runtime kmol_initialize starts, the per-thread last
// error, the one translation of exceptions into status codes, and the caller's boxes and
// coordinates as the library takes them.
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/c_api/kmol.h"
#include "kmol/core/box.hpp"
#include "kmol/core/errors.hpp"
#include "kmol/core/vec3.hpp"

namespace kmol::c_api {

// The message kmol_last_error returns on this thread.
std::string& last_error();
// Whether kmol_initialize has started the runtime (frames are counted only then).
bool runtime_started();

// Runs f, mapping what it throws to a status and the last error (cleared on success).
template <class F>
kmol_status guarded(F&& f) {
  try {
    f();
    last_error().clear();
    return KMOL_OK;
  } catch (const InputError& e) {
    last_error() = e.what();
    return KMOL_ERROR_INPUT;
  } catch (const UnsupportedError& e) {
    last_error() = e.what();
    return KMOL_ERROR_UNSUPPORTED;
  } catch (const std::exception& e) {
    last_error() = e.what();
    return KMOL_ERROR_INTERNAL;
  }
}

// NULL: no box; otherwise the three edge vectors, row by row (orthorhombic when they are).
BoxSpec box_from(const double* edges);

// n atoms of x0 y0 z0 x1 ... in precision T.
template <class T>
std::vector<Vec3<T>> vectors(const double* xyz, std::int64_t n) {
  std::vector<Vec3<T>> v(std::size_t(n > 0 ? n : 0));
  for (std::int64_t i = 0; i < n; ++i) v[i] = {T(xyz[3 * i]), T(xyz[3 * i + 1]), T(xyz[3 * i + 2])};
  return v;
}

}  // namespace kmol::c_api
