/* CPU references in double precision, each with a per-element error bound for float32 results. */
#ifndef CLKIT_REFERENCE_H
#define CLKIT_REFERENCE_H

#include <stddef.h>

/* expected[i] = a[i] + b[i]; bound[i] covers one float rounding. */
void clk_ref_vadd(const float *a, const float *b, size_t n, double *expected, double *bound);

/* The grid-stride partial sums of a lab3 kernel launched with global_size work-items, with their bounds. */
void clk_ref_dot_partials(const float *a, const float *b, size_t n, size_t global_size,
                          double *expected, double *bound);

/* The dot product a.b in *expected, and its bound in *bound. */
void clk_ref_dot(const float *a, const float *b, size_t n, double *expected, double *bound);

/* C (MxN) = A (MxK) * B (KxN), row-major, with a bound for every element. */
void clk_ref_matmul(const float *A, const float *B, size_t M, size_t N, size_t K, double *expected, double *bound);

/* out (cols x rows) = in (rows x cols) transposed; a transpose is exact, so every bound is 0. */
void clk_ref_transpose(const float *in, size_t rows, size_t cols, double *expected, double *bound);

/* The error bound for a float32 sum of terms products whose magnitudes add up to sum_abs: 2 sqrt(terms) eps sum_abs. */
double clk_sum_bound(size_t terms, double sum_abs);

#endif
