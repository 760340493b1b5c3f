#include "reference.h"

#include <float.h>
#include <math.h>

double clk_sum_bound(size_t terms, double sum_abs)
{
    /* Rounding errors of a float sum grow like sqrt(terms) for random data (Higham, ch. 3);
       the factor 2 keeps an honest kernel inside the bound whatever its summation order. */
    return 2.0 * sqrt((double)(terms ? terms : 1)) * FLT_EPSILON * sum_abs;
}

void clk_ref_vadd(const float *a, const float *b, size_t n, double *expected, double *bound)
{
    for (size_t i = 0; i < n; i++) {
        expected[i] = (double)a[i] + (double)b[i];
        bound[i] = FLT_EPSILON * fabs(expected[i]);
    }
}

void clk_ref_dot_partials(const float *a, const float *b, size_t n, size_t global_size,
                          double *expected, double *bound)
{
    for (size_t g = 0; g < global_size; g++) {
        double sum = 0.0, sum_abs = 0.0;
        size_t terms = 0;
        for (size_t i = g; i < n; i += global_size, terms++) {
            double product = (double)a[i] * (double)b[i];
            sum += product;
            sum_abs += fabs(product);
        }
        expected[g] = sum;
        bound[g] = clk_sum_bound(terms, sum_abs);
    }
}

void clk_ref_dot(const float *a, const float *b, size_t n, double *expected, double *bound)
{
    double sum = 0.0, sum_abs = 0.0;
    for (size_t i = 0; i < n; i++) {
        double product = (double)a[i] * (double)b[i];
        sum += product;
        sum_abs += fabs(product);
    }
    *expected = sum;
    *bound = clk_sum_bound(n, sum_abs);
}

void clk_ref_matmul(const float *A, const float *B, size_t M, size_t N, size_t K, double *expected, double *bound)
{
    for (size_t row = 0; row < M; row++) {
        for (size_t col = 0; col < N; col++) {
            double sum = 0.0, sum_abs = 0.0;
            for (size_t k = 0; k < K; k++) {
                double product = (double)A[row * K + k] * (double)B[k * N + col];
                sum += product;
                sum_abs += fabs(product);
            }
            expected[row * N + col] = sum;
            bound[row * N + col] = clk_sum_bound(K, sum_abs);
        }
    }
}

void clk_ref_transpose(const float *in, size_t rows, size_t cols, double *expected, double *bound)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++) {
            expected[c * rows + r] = in[r * cols + c];
            bound[c * rows + r] = 0.0;
        }
}
