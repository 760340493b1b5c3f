/* Labs 5, 6 and 8's kernel family, the matrix multiply, and its swapped mapping. */
#include "labs/families.h"

#include "labs/families/parts.h"

#include "data.h"
#include "problem.h"
#include "reference.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- matmul: C (MxN) = A (MxK) B (KxN) --- */

static int matmul_prepare_mapped(const struct grade_case *c, uint64_t seed, struct grade_launch *launch, int swapped);

static int matmul_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    return matmul_prepare_mapped(c, seed, launch, 0);
}

/* The bad mapping: dimension 0 runs down the rows of C, so its NDRange is the mirror image. */
static int matmul_swapped_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    return matmul_prepare_mapped(c, seed, launch, 1);
}

static int matmul_prepare_mapped(const struct grade_case *c, uint64_t seed, struct grade_launch *launch, int swapped)
{
    size_t M = c->dims[0], N = c->dims[1], K = c->dims[2];
    if (labs_add_buffer(launch, "A", M * K, 0, c, seed) || labs_add_buffer(launch, "B", K * N, 0, c, seed) ||
        labs_add_buffer(launch, "C", M * N, 1, c, seed) || family_alloc_matrix(c, launch, M, N))
        return -1;
    launch->ints[0] = (int)M;
    launch->ints[1] = (int)N;
    launch->ints[2] = (int)K;
    launch->int_count = 3;
    if (swapped)
        family_set_2d(launch, c, M, N);
    else
        family_set_2d(launch, c, N, M);
    if (c->no_reference)
        return 0;
    clk_ref_matmul(launch->host[0], launch->host[1], M, N, K, launch->expected, launch->bound);
    if (c->data == GRADE_EXACT)
        memset(launch->bound, 0, M * N * sizeof(double));
    return 0;
}

/* The warp-tiled matmul of kernels/: 1-D work-groups of 256 work-items, each over a 128 x 256 block of C (128 rows,
   256 columns). */
static int matmul_warptile_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t M = c->dims[0], N = c->dims[1];
    if (matmul_prepare_mapped(c, seed, launch, 0) != 0)
        return -1;
    launch->local[0] = 256;
    launch->local[1] = 1;
    launch->global[0] = (N + 255) / 256 * 256;
    launch->global[1] = (M + 127) / 128;
    return 0;
}

static void matmul_describe(const struct grade_case *c, char *text, size_t size)
{
    char what[64];
    snprintf(what, sizeof what, "%zux%zux%zu", c->dims[0], c->dims[1], c->dims[2]);
    family_describe_2d(c, what, text, size);
}

static double matmul_flops(const struct grade_case *c)
{
    return 2.0 * c->dims[0] * c->dims[1] * c->dims[2];
}

static size_t matmul_length(const struct grade_case *c)
{
    return c->dims[0] * c->dims[1];
}

static void matmul_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected, double *bound)
{
    size_t N = c->dims[1], K = c->dims[2], row = index / N, col = index % N;
    double sum = 0.0, sum_abs = 0.0;
    for (size_t k = 0; k < K; k++) {
        double product = (double)clk_real_at(seed, 0, row * K + k) * (double)clk_real_at(seed, 1, k * N + col);
        sum += product;
        sum_abs += fabs(product);
    }
    *expected = sum;
    *bound = clk_sum_bound(K, sum_abs);
}

/* The base record: every field but the NDRange's, which each mapping sets (a field named twice would not build). */
#define MATMUL_FAMILY                                                                                                  \
    .describe = matmul_describe, .problem = CLK_PROBLEM_MATMUL, .dim_count = 3, .work = matmul_flops,                 \
    .work_is_flops = 1, .probe_file = "probe_matmul.cl", .result_length = matmul_length, .spot = matmul_spot

const struct grade_family grade_family_matmul = {.prepare = matmul_prepare, MATMUL_FAMILY};
const struct grade_family grade_family_matmul_swapped = {.prepare = matmul_swapped_prepare, MATMUL_FAMILY};
const struct grade_family grade_family_matmul_warptile = {.prepare = matmul_warptile_prepare, MATMUL_FAMILY};
