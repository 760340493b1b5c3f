/* Result checking: float32 results against a double reference and per-element bounds. */
#ifndef CLKIT_VERIFY_H
#define CLKIT_VERIFY_H

#include <stddef.h>

/* Returns 1 when got is within bound of expected; NaN and infinities are always wrong. */
int clk_within(float got, double expected, double bound);

/* Counts the elements of got outside their bounds, storing the first such index in *first (when not NULL). */
size_t clk_count_wrong(const float *got, const double *expected, const double *bound, size_t n, size_t *first);

#endif
