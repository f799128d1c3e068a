#pragma once
// KMOL_INLINE marks functions that run on the host and on devices. It does not include Kokkos,
// so raw CUDA translation units (which keep their whole constant bank) can share the evaluators.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define KMOL_INLINE __host__ __device__ inline
#else
#define KMOL_INLINE inline
#endif
