/* kmol's C API: radial distribution functions from frames the caller supplies, usable from C,
 * Fortran (iso_c_binding) and Python (ctypes). Lengths in Angstrom.
 *
 *   kmol_initialize();
 *   kmol_rdf* rdf = kmol_rdf_create(0.0, 10.0, 200, KMOL_DOUBLE);
 *   for each frame: kmol_rdf_add_frame(rdf, xyz, n, NULL, 0, box);   one set: each pair once
 *   kmol_rdf_result(rdf, KMOL_NORM_RDF, r, g, n_r);
 *   (before the first frame: kmol_rdf_set_plane, kmol_rdf_set_blocks, kmol_rdf_set_centres,
 *    kmol_rdf_set_exclusions;
 *    after the frames: kmol_rdf_std_error, kmol_rdf_block_rdf, kmol_rdf_error_block,
 *    kmol_rdf_kirkwood_buff)
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

/* The settings below are made before the first frame (KMOL_ERROR_INPUT after it), and the results
 * below take the frames added so far; each refusal names the argument at fault. */

/* Distances within a plane (2-D RDFs, as gmx rdf -xy): the component along the plane's normal is
 * dropped, and a box is periodic along its two edges in the plane only (a box without two edges
 * in the plane is refused when its frame is added). KMOL_NORM_RDF divides by annuli and the box's
 * area in the plane (it needs boxes), KMOL_NORM_DENSITY is per Angstrom^2, and n counts the
 * partners within r in the plane. KMOL_PLANE_NONE: 3-D distances (the default). */
typedef enum {
  KMOL_PLANE_NONE = 0,
  KMOL_PLANE_XY = 1,
  KMOL_PLANE_XZ = 2,
  KMOL_PLANE_YZ = 3
} kmol_plane;
kmol_status kmol_rdf_set_plane(kmol_rdf* rdf, kmol_plane plane);

/* Standard errors by blocks of consecutive frames (each frame's counts are kept):
 * n_blocks >= 2: n_blocks blocks of floor(F / n_blocks) of the F frames (the F mod n_blocks left
 * over count in g and in no block), the error that of the mean of independent blocks;
 * n_blocks 0: single frames, of which blocking analysis (Flyvbjerg and Petersen 1989) chooses the
 * block length. Each block is normalised alone, with its own mean 1/V. */
kmol_status kmol_rdf_set_blocks(kmol_rdf* rdf, int64_t n_blocks);
/* The standard errors of g and n per bin in the normalisation norm (n_bins values each; either
 * may be NULL). Refused without kmol_rdf_set_blocks, and with fewer frames than blocks (or 2). */
kmol_status kmol_rdf_std_error(const kmol_rdf* rdf, kmol_norm norm, double* g_error,
                               double* n_error);
/* Each block's g, block by block (n_bins values each): *n_blocks is set to the number of blocks
 * (n_blocks >= 2: that many; 0: one per frame); g (*n_blocks x n_bins values) may be NULL, to ask
 * for the number first. */
kmol_status kmol_rdf_block_rdf(const kmol_rdf* rdf, kmol_norm norm, int64_t* n_blocks, double* g);
/* The blocks the errors come from: *frames, the frames in each (n_blocks >= 2: floor(F /
 * n_blocks); 0: the length blocking analysis chose), and *converged, 1 where the errors settled
 * at that length (always with n_blocks >= 2), 0 where blocking found no plateau and took the
 * longest blocks with 4 of them (the errors are then too low). Either may be NULL. */
kmol_status kmol_rdf_error_block(const kmol_rdf* rdf, kmol_norm norm, int64_t* frames,
                                 int* converged);

/* Kirkwood-Buff integrals of the counts so far, in Angstrom^3 (n_bins values each; any may be
 * NULL): r, the bins' upper edges R; running, G(R) = int_0^R 4 pi r^2 (g_GV - 1) dr with Ganguly
 * and van der Vegt's correction of g for the closed box; finite_volume, G_V(R), the integral over
 * a sphere of diameter R (Krueger, Schnell et al. 2013); closed, G_V(R) of the box's own g (what
 * particle-number fluctuations in such spheres measure). infinite: one value, G from the fit of
 * R G_V(R) = G R + F over the last half of the range. Needs periodic boxes, r_min 0, 3-D distances
 * and 4/3 pi r_max^3 below the box's volume. */
kmol_status kmol_rdf_kirkwood_buff(const kmol_rdf* rdf, double* r, double* running,
                                   double* finite_volume, double* closed, double* infinite);

/* Sites at the centres of groups of atoms (residues or molecules: gmx rdf's res_com, mol_com,
 * res_cog, mol_cog): the set (KMOL_SET_A, the frames' xyz_a; KMOL_SET_B, their xyz_b) then holds
 * n_atoms atoms in every frame, and each run of consecutive atoms with one group id is one site,
 * at its centre of mass (masses: n_atoms values, each group's sum positive) or of geometry
 * (masses NULL). Each group is made whole across the periodic boundaries first: along bonds
 * (n_bonds pairs of atom indices of the set, i0 j0 i1 j1 ...; bonds between groups are ignored)
 * from its first atom, or without bonds (NULL, 0) each atom at the minimum image of the atom
 * before it; a group that cannot be made whole is refused with its frame. */
typedef enum { KMOL_SET_A = 0, KMOL_SET_B = 1 } kmol_set;
kmol_status kmol_rdf_set_centres(kmol_rdf* rdf, kmol_set set, const int32_t* groups,
                                 const double* masses, int64_t n_atoms, const int32_t* bonds,
                                 int64_t n_bonds);

/* Exclusions (kmol rdf --exclude-same residue|molecule): two sites with one label are not paired,
 * and the normalisation leaves those pairs out. labels_a: one label per atom of xyz_a (n_a);
 * labels_b: one per atom of xyz_b (n_b), or NULL and 0 for one set (two sets need both). With
 * kmol_rdf_set_centres a centre takes the label of its group's first atom. Labels that exclude
 * every pair are refused when the first frame is added. */
kmol_status kmol_rdf_set_exclusions(kmol_rdf* rdf, const int32_t* labels_a, int64_t n_a,
                                    const int32_t* labels_b, int64_t n_b);

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

/* The excess intensity of a solute in solution over a pure solvent (Koefinger & Hummer 2013,
 * docs/scattering.md): elements of the solution's n_atoms atoms, the solute's n_solute atom
 * indices, elements of the pure solvent's n_solvent atoms. volume KMOL_SPHERE: a sphere of radius
 * `size` Angstrom about the solute's centre (0: the solute's extent + 10 Angstrom); KMOL_SHELL:
 * the solute and every atom within `size` Angstrom of a solute atom. NULL on bad arguments. */
typedef struct kmol_solution_scattering kmol_solution_scattering;
typedef enum { KMOL_SPHERE = 0, KMOL_SHELL = 1 } kmol_volume;
kmol_solution_scattering* kmol_solution_scattering_create(
    const char* const* elements, int64_t n_atoms, const int64_t* solute, int64_t n_solute,
    const char* const* solvent_elements, int64_t n_solvent, kmol_volume volume, double size,
    kmol_probe probe, double d2o, double q_min, double q_max, int32_t q_bins);
void kmol_solution_scattering_destroy(kmol_solution_scattering* scattering);
/* One frame of the solution (n_atoms atoms) or of the solvent (n_solvent atoms), box: the edge
 * vectors as 9 numbers (required). With KMOL_SHELL the solution's frames come first; each solvent
 * frame is cut by the next solution frame's shape, and the result needs at least as many solvent
 * frames as solution frames (repeat them). */
kmol_status kmol_solution_scattering_add_solution_frame(kmol_solution_scattering* scattering,
                                                        const double* xyz, const double* box);
kmol_status kmol_solution_scattering_add_solvent_frame(kmol_solution_scattering* scattering,
                                                       const double* xyz, const double* box);
/* q, Delta I(q), sigma(q) and the discretisation error's estimate, q_bins values each (any may be
 * NULL). */
kmol_status kmol_solution_scattering_result(const kmol_solution_scattering* scattering, double* q,
                                            double* intensity, double* sigma, double* error);

/* The message of the last error on this thread ("" when none). */
const char* kmol_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* KMOL_H */
