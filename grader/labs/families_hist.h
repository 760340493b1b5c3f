/* Lab 10's kernel family, the histogram: what is particular to integer data that adds into its output. */
#ifndef CLKIT_GRADER_FAMILIES_HIST_H
#define CLKIT_GRADER_FAMILIES_HIST_H

#include "histogram.h"
#include "labs/spec.h"

/* A histogram case's dims[2]: its bins and the kind of data (enum clk_hist_kind). dims[0] is n and dims[1] is 0, so
   that the reference judge costs it as the 1-D case it is. A dims[2] of 0, the timing case's, is 256 bins of
   skewed data. */
#define HIST_CASE(nbins, kind) ((size_t)(nbins) * 4 + (size_t)(kind))

/* bins[v] += the count of v in data, over a 1-D grid-stride NDRange with nbins uints of __local memory. */
extern const struct grade_family grade_family_histogram;

/* A histogram case's bins (256 for the timing case's dims[2] of 0). */
size_t hist_bins(const struct grade_case *c);

/* A histogram case's work-groups: its own count, or enough for one element per work-item. */
size_t hist_groups(const struct grade_case *c);

#endif
