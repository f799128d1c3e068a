#pragma once
// Each test is written once with KMOL_BACKEND_TEST(Suite, Name) { ... ExecSpace ... } and runs
// as Suite.Name_Serial, Suite.Name_OpenMP and Suite.Name_Cuda. A backend that is not built, or a
// Cuda build on a machine without a GPU, skips with a message instead of passing.
#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include "kmol/core/runtime.hpp"

namespace kmol::test {

inline bool gpu_present() { return !gpu_devices().empty(); }

}  // namespace kmol::test

#ifdef KOKKOS_ENABLE_SERIAL
#define KMOL_RUN_ON_SERIAL(body) body<Kokkos::Serial>()
#else
#define KMOL_RUN_ON_SERIAL(body) GTEST_SKIP() << "Serial backend not built"
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define KMOL_RUN_ON_OPENMP(body) body<Kokkos::OpenMP>()
#else
#define KMOL_RUN_ON_OPENMP(body) GTEST_SKIP() << "OpenMP backend not built"
#endif
#ifdef KOKKOS_ENABLE_CUDA
#define KMOL_RUN_ON_CUDA(body)                                              \
  if (!kmol::test::gpu_present()) GTEST_SKIP() << "no GPU on this machine"; \
  body<Kokkos::Cuda>()
#else
#define KMOL_RUN_ON_CUDA(body) GTEST_SKIP() << "Cuda backend not built"
#endif

#define KMOL_BACKEND_TEST(suite, name)                                      \
  template <class ExecSpace>                                                \
  void suite##_##name##_body();                                             \
  TEST(suite, name##_Serial) { KMOL_RUN_ON_SERIAL(suite##_##name##_body); } \
  TEST(suite, name##_OpenMP) { KMOL_RUN_ON_OPENMP(suite##_##name##_body); } \
  TEST(suite, name##_Cuda) { KMOL_RUN_ON_CUDA(suite##_##name##_body); }     \
  template <class ExecSpace>                                                \
  void suite##_##name##_body()
