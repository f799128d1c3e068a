/* kmol's C API: radial distribution functions from frames the caller supplies, usable from C,
 * Fortran (iso_c_binding) and Python (ctypes). Lengths in Angstrom.
 *
 *   kmol_initialize();
 *   kmol_rdf* rdf = kmol_rdf_create(0.0, 10.0, 200, KMOL_DOUBLE);
 *   for each frame: kmol_rdf_add_frame(rdf, xyz, n, NULL, 0, box);   one set: each pair once
 *   kmol_rdf_result(rdf, KMOL_NORM_RDF, r, g, n_r);
 *   kmol_rdf_destroy(rdf);
 *   kmol_finalize();
 *
 * Functions return KMOL_OK or an error code; kmol_last_error() then says why (per thread). */
#ifndef KMOL_H
#define KMOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  KMOL_OK = 0,
  KMOL_ERROR_INPUT = 1,
  KMOL_ERROR_UNSUPPORTED = 2,
  KMOL_ERROR_INTERNAL = 3
} kmol_status;
typedef enum { KMOL_SINGLE = 0, KMOL_DOUBLE = 1 } kmol_precision;
typedef enum { KMOL_NORM_RDF = 0, KMOL_NORM_DENSITY = 1, KMOL_NORM_NONE = 2 } kmol_norm;

typedef struct kmol_rdf kmol_rdf;

/* Starts (and stops) kmol's runtime: Kokkos with its default threads and GPU. Call once. */
kmol_status kmol_initialize(void);
kmol_status kmol_finalize(void);

/* kmol's version, "major.minor.patch": the command's `kmol --version` and Python's
 * kmol.__version__. */
const char* kmol_version(void);

/* A histogram of n_bins bins on [r_min, r_max); NULL on bad arguments (see kmol_last_error). */
kmol_rdf* kmol_rdf_create(double r_min, double r_max, int32_t n_bins, kmol_precision precision);
void kmol_rdf_destroy(kmol_rdf* rdf);

/* Adds one frame. xyz_a: n_a atoms as x0 y0 z0 x1 ...; xyz_b NULL for one set (each unordered
 * pair once), otherwise n_b atoms of a second set. box: NULL (no periodicity) or the three edge
 * vectors as 9 numbers (row by row). Every frame must be like the first: the same sets' sizes, and
 * a box when the first had one (none when it had none); another is refused (KMOL_ERROR_INPUT)
 * before it is counted. */
kmol_status kmol_rdf_add_frame(kmol_rdf* rdf, const double* xyz_a, int64_t n_a, const double* xyz_b,
                               int64_t n_b, const double* box);

int64_t kmol_rdf_frames(const kmol_rdf* rdf);
/* The summed counts, n_bins values. */
kmol_status kmol_rdf_counts(const kmol_rdf* rdf, uint64_t* counts);
/* Bin centres r, normalised values g and cumulative coordination numbers n (n_bins values each;
 * any may be NULL). KMOL_NORM_RDF needs periodic boxes. A result with no pair counted in
 * [r_min, r_max), or a value that is not finite, is refused (KMOL_ERROR_INPUT, nothing written)
 * unless kmol_rdf_allow_empty accepted empty ones: then it is written, KMOL_OK, and
 * kmol_last_error() says that it is empty. */
kmol_status kmol_rdf_result(const kmol_rdf* rdf, kmol_norm norm, double* r, double* g, double* n);
/* allow != 0: kmol_rdf_result writes an empty result (all zeros) instead of refusing it. */
kmol_status kmol_rdf_allow_empty(kmol_rdf* rdf, int allow);

/* Scattering intensities by Debye's equation (docs/scattering.md), accumulated over frames.
 * elements: n_atoms element symbols ("C", "Cl"); probe KMOL_XRAY (IT92 form factors, e^2) or
 * KMOL_NEUTRON (Sears 1992 lengths, fm^2; d2o: the D2O fraction deuterating exchangeable
 * hydrogens); q_bins points from q_min to q_max (1/Angstrom). NULL on bad arguments. */
typedef struct kmol_scattering kmol_scattering;
typedef enum { KMOL_XRAY = 0, KMOL_NEUTRON = 1 } kmol_probe;
kmol_scattering* kmol_scattering_create(const char* const* elements, int64_t n_atoms,
                                        kmol_probe probe, double d2o, double q_min, double q_max,
                                        int32_t q_bins);
void kmol_scattering_destroy(kmol_scattering* scattering);
/* Adds one frame of n_atoms atoms (x0 y0 z0 x1 ...). box: NULL (a solute in vacuum: I(q) of the
 * whole solute) or 9 numbers, the edge vectors (a periodic system: I(q) per atom). The first
 * frame fixes which; every frame must be like it. */
kmol_status kmol_scattering_add_frame(kmol_scattering* scattering, const double* xyz,
                                      const double* box);
/* q, I(q), sigma(q) (standard error over frames) and the discretisation error's estimate, q_bins
 * values each (any may be NULL). */
kmol_status kmol_scattering_result(const kmol_scattering* scattering, double* q, double* intensity,
                                   double* sigma, double* error);

/* The message of the last error on this thread ("" when none). */
const char* kmol_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* KMOL_H */
