# Without a Kokkos given by the user (-DKokkos_ROOT=...), build the one kmol pins
# (scripts/bootstrap, Kokkos 3.4.01 from Debian's trilinos source) for KMOL_CONFIG.
set(KMOL_CONFIG "openmp" CACHE STRING "Bootstrapped configuration: openmp or cuda")
set_property(CACHE KMOL_CONFIG PROPERTY STRINGS openmp cuda)
option(KMOL_BOOTSTRAP "Build Kokkos with scripts/bootstrap when no Kokkos_ROOT is given" ON)

if(NOT KMOL_CONFIG MATCHES "^(openmp|cuda)$")
  message(FATAL_ERROR "KMOL_CONFIG must be openmp or cuda, not '${KMOL_CONFIG}'")
endif()

if(KMOL_BOOTSTRAP AND NOT Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT})
  execute_process(
    COMMAND "${CMAKE_CURRENT_LIST_DIR}/../scripts/bootstrap" --kokkos-only --config ${KMOL_CONFIG}
    OUTPUT_VARIABLE kmol_prefix OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE kmol_rc)
  if(NOT kmol_rc EQUAL 0)
    message(FATAL_ERROR "scripts/bootstrap --config ${KMOL_CONFIG} failed; run it by hand to see why")
  endif()
  set(Kokkos_ROOT "${kmol_prefix}" CACHE PATH "Kokkos installation" FORCE)
  if(KMOL_CONFIG STREQUAL "cuda")
    set(CMAKE_CXX_COMPILER "${kmol_prefix}/bin/kmol-nvcc-wrapper" CACHE FILEPATH "" FORCE)
    set(CMAKE_CUDA_COMPILER "${kmol_prefix}/bin/kmol-nvcc" CACHE FILEPATH "" FORCE)
    set(CMAKE_CUDA_HOST_COMPILER g++-11 CACHE STRING "" FORCE)
    # Debian's toolkit keeps its headers in /usr/include, where FindCUDAToolkit does not look.
    set(CUDAToolkit_INCLUDE_DIR /usr/include CACHE PATH "" FORCE)
  endif()
endif()
