# Compiler settings shared by every kmol target.
if(Kokkos_ENABLE_CUDA)
  set(KMOL_HAVE_CUDA ON)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "80;90")
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
else()
  set(KMOL_HAVE_CUDA OFF)
endif()

add_library(kmol_options INTERFACE)
# -march above x86-64-v3 would stop binaries built here from running on the GPU machines' CPUs.
# No implicit fused multiply-adds: the shared evaluators write theirs out, so every compiler and
# backend rounds the same way and counts agree bin for bin. Without errno and trap semantics
# (which change no rounded result) GCC vectorises sqrt and floor.
target_compile_options(kmol_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -march=x86-64-v3 -ffp-contract=off -fno-math-errno -fno-trapping-math>
  $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false -Xcompiler=-Wall -Xcompiler=-march=x86-64-v3>)
if(KMOL_HAVE_CUDA)
  target_compile_definitions(kmol_options INTERFACE KMOL_HAVE_CUDA)
endif()
install(TARGETS kmol_options EXPORT kmolTargets)
