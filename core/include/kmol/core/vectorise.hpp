#pragma once
// KMOL_VECTORISE asks the host compiler to vectorise the loop that follows (OpenMP's simd, which
// changes no rounding): GCC would otherwise vectorise an enclosing loop whose in-order sums it
// must then take apart lane by lane. Nothing under nvcc, whose device code has no vector lanes.
#if defined(_OPENMP) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define KMOL_VECTORISE _Pragma("omp simd")
#else
#define KMOL_VECTORISE
#endif
