/* kmol's C API on an fcc crystal: every atom has 12 neighbours at a / sqrt(2) and 6 more at a;
 * frames that do not change have standard errors of 0 (to rounding), and no pair is closer than the
 * first shell, so the Kirkwood-Buff integral up to it is -4/3 pi R^3. Built and run as a test
 * (ctest: examples.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kmol.h"

#define CELLS 5
#define ATOMS (4 * CELLS * CELLS * CELLS)
#define BINS 80 /* width 0.0625: no shell lies on a bin edge */

int main(void) {
  const double a = 4.05, basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  static double xyz[3 * ATOMS];
  int k = 0;
  for (int i = 0; i < CELLS; ++i)
    for (int j = 0; j < CELLS; ++j)
      for (int l = 0; l < CELLS; ++l)
        for (int b = 0; b < 4; ++b) {
          xyz[k++] = (i + basis[b][0]) * a;
          xyz[k++] = (j + basis[b][1]) * a;
          xyz[k++] = (l + basis[b][2]) * a;
        }
  const double box[9] = {CELLS * a, 0, 0, 0, CELLS * a, 0, 0, 0, CELLS * a};

  if (kmol_initialize() != KMOL_OK) return 1;
  kmol_rdf* rdf = kmol_rdf_create(0.0, 5.0, BINS, KMOL_DOUBLE);
  kmol_rdf_set_blocks(rdf, 3); /* before the first frame: 3 blocks, for standard errors */
  for (int frame = 0; frame < 3; ++frame)
    if (kmol_rdf_add_frame(rdf, xyz, ATOMS, NULL, 0, box) != KMOL_OK) {
      fprintf(stderr, "kmol: %s\n", kmol_last_error());
      return 1;
    }
  double r[BINS], g[BINS], n[BINS];
  kmol_rdf_result(rdf, KMOL_NORM_RDF, r, g, n);
  const int first = (int)(a / sqrt(2.0) / 0.0625), second = (int)(a / 0.0625);
  printf("frames %lld; n(%.3f) = %g, n(%.3f) = %g; g peak %g\n", (long long)kmol_rdf_frames(rdf),
         r[first], n[first], r[second], n[second], g[first]);
  int ok = fabs(n[first] - 12) < 1e-12 && fabs(n[second] - 18) < 1e-12 && g[first] > 10;

  double g_error[BINS], running[BINS], edge[BINS], infinite;
  ok = ok && kmol_rdf_std_error(rdf, KMOL_NORM_RDF, g_error, NULL) == KMOL_OK;
  ok = ok && kmol_rdf_kirkwood_buff(rdf, edge, running, NULL, NULL, &infinite) == KMOL_OK;
  const double core = -4.0 / 3.0 * M_PI * pow(edge[first - 1], 3);
  printf("std error at the first shell %g; G(%.4f) = %.4f A^3 (-4/3 pi R^3 = %.4f)\n",
         g_error[first], edge[first - 1], running[first - 1], core);
  for (int b = 0; b < BINS; ++b) ok = ok && g_error[b] <= 1e-12 * (1 + g[b]);
  ok = ok && fabs(running[first - 1] - core) < 1e-9 * fabs(core);

  /* Errors come back as codes with a message. */
  ok = ok && kmol_rdf_add_frame(rdf, xyz, ATOMS - 1, NULL, 0, box) == KMOL_ERROR_INPUT;
  printf("refused: %s\n", kmol_last_error());
  ok = ok && kmol_rdf_create(1.0, 0.5, 10, KMOL_SINGLE) == NULL;
  kmol_rdf_destroy(rdf);
  kmol_finalize();
  puts(ok ? "C API: fcc shells exact" : "C API: WRONG");
  return ok ? 0 : 1;
}
