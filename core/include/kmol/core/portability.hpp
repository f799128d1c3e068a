#pragma once
// KMOL_INLINE marks functions that run on the host and on devices. It does not include Kokkos,
// so raw CUDA translation units (which keep their whole constant bank) can share the evaluators.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define KMOL_INLINE __host__ __device__ inline
#else
#define KMOL_INLINE inline
#endif

// KMOL_UNROLL before a loop asks device compilers to unroll it fully: a thread's array indexed by
// the loop variable stays in registers only where every index is a constant. Host compilers
// choose for themselves.
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define KMOL_UNROLL _Pragma("unroll")
#else
#define KMOL_UNROLL
#endif
