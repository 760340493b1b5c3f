/* Lab 10's kernel family, the histogram, and its technique check: what is particular to integer data that adds
   into its output. */
#ifndef CLKIT_GRADER_FAMILIES_HIST_H
#define CLKIT_GRADER_FAMILIES_HIST_H

#include "histogram.h"
#include "judge/counts.h"
#include "judge/labs.h"

/* A histogram case's dims[2]: its bins and the kind of data (enum clk_hist_kind). dims[0] is n and dims[1] is 0, so
   that the reference judge costs it as the 1-D case it is. A dims[2] of 0, the timing case's, is 256 bins of
   skewed data. */
#define HIST_CASE(nbins, kind) ((size_t)(nbins) * 4 + (size_t)(kind))

/* bins[v] += the count of v in data, over a 1-D grid-stride NDRange with nbins uints of __local memory. */
extern const struct grade_family grade_family_histogram;

/* Lab 10's technique on case s: global atomics at most one per bin per work-group, and local memory used; fills
   text and returns 1 (pass), 0 (fail) or -1 (the counts it needs were not measured). */
int hist_judge_private_bins(const struct grade_case *s, const struct technique_counts *c, char *text, size_t size);

#endif
