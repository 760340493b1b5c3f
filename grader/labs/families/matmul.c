/* The 2-D kernel families: matrix multiply and transpose. */
#include "labs/families.h"

#include "data.h"
#include "problem.h"
#include "reference.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A 2-D NDRange over x by y outputs: work-groups of side x side work-items, each work-group covering a block of
   block x block outputs (a tile; without one, the work-group's own side). */
static void set_2d(struct grade_launch *launch, const struct grade_case *c, size_t x, size_t y)
{
    size_t side = c->tile ? labs_tiling_side(c->tile, c->wpt) : c->local[0];
    size_t block = c->tile ? (size_t)c->tile : side;
    launch->work_dims = 2;
    launch->local[0] = launch->local[1] = side;
    launch->global[0] = (x + block - 1) / block * side;
    launch->global[1] = (y + block - 1) / block * side;
}

static int alloc_reference(const struct grade_case *c, struct grade_launch *launch, size_t rows, size_t cols)
{
    launch->shape.count = rows * cols;
    launch->shape.rows = rows;
    launch->shape.cols = cols;
    if (c->no_reference)
        return 0;
    launch->expected = calloc(rows * cols, sizeof(double));
    launch->bound = calloc(rows * cols, sizeof(double));
    return launch->expected && launch->bound ? 0 : -1;
}

static void describe_2d(const struct grade_case *c, const char *what, char *text, size_t size)
{
    snprintf(text, size, "%s %s", c->data == GRADE_EXACT ? "exact" : "real", what);
    if (c->tile)
        clk_append(text, size, ", TILE %d", c->tile);
    if (c->wpt)
        clk_append(text, size, ", WPT %d", c->wpt);
    else
        clk_append(text, size, ", local %zux%zu", c->local[0], c->local[0]);
}

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
        labs_add_buffer(launch, "C", M * N, 1, c, seed) || alloc_reference(c, launch, M, N))
        return -1;
    launch->ints[0] = (int)M;
    launch->ints[1] = (int)N;
    launch->ints[2] = (int)K;
    launch->int_count = 3;
    if (swapped)
        set_2d(launch, c, M, N);
    else
        set_2d(launch, c, N, M);
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
    describe_2d(c, what, text, size);
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

const struct grade_family grade_family_matmul = {
    .prepare = matmul_prepare,
    .describe = matmul_describe,
    .problem = CLK_PROBLEM_MATMUL,
    .dim_count = 3,
    .work = matmul_flops,
    .work_is_flops = 1,
    .probe_file = "probe_matmul.cl",
    .result_length = matmul_length,
    .spot = matmul_spot,
};
const struct grade_family grade_family_matmul_warptile = {
    .prepare = matmul_warptile_prepare,
    .describe = matmul_describe,
    .problem = CLK_PROBLEM_MATMUL,
    .dim_count = 3,
    .work = matmul_flops,
    .work_is_flops = 1,
    .probe_file = "probe_matmul.cl",
    .result_length = matmul_length,
    .spot = matmul_spot,
};
const struct grade_family grade_family_matmul_swapped = {
    .prepare = matmul_swapped_prepare,
    .describe = matmul_describe,
    .problem = CLK_PROBLEM_MATMUL,
    .dim_count = 3,
    .work = matmul_flops,
    .work_is_flops = 1,
    .probe_file = "probe_matmul.cl",
    .result_length = matmul_length,
    .spot = matmul_spot,
};

/* --- transpose: out (cols x rows) = in (rows x cols) transposed --- */

static int transpose_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t rows = c->dims[0], cols = c->dims[1];
    if (labs_add_buffer(launch, "in", rows * cols, 0, c, seed) || labs_add_buffer(launch, "out", rows * cols, 1, c, seed) ||
        alloc_reference(c, launch, cols, rows))
        return -1;
    launch->ints[0] = (int)rows;
    launch->ints[1] = (int)cols;
    launch->int_count = 2;
    set_2d(launch, c, cols, rows);
    if (!c->no_reference)
        clk_ref_transpose(launch->host[0], rows, cols, launch->expected, launch->bound);
    return 0;
}

/* The 32 x 8 transpose of kernels/: 32 x 32 blocks, each moved by a 32 x 8 work-group, 4 elements a work-item. */
static int transpose_wide_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t rows = c->dims[0], cols = c->dims[1];
    if (transpose_prepare(c, seed, launch) != 0)
        return -1;
    launch->local[0] = 32;
    launch->local[1] = 8;
    launch->global[0] = (cols + 31) / 32 * 32;
    launch->global[1] = (rows + 31) / 32 * 8;
    return 0;
}

static void transpose_describe(const struct grade_case *c, char *text, size_t size)
{
    char what[64];
    snprintf(what, sizeof what, "%zux%zu", c->dims[0], c->dims[1]);
    describe_2d(c, what, text, size);
}

static double transpose_bytes(const struct grade_case *c)
{
    return 2.0 * sizeof(float) * c->dims[0] * c->dims[1];
}

static size_t transpose_length(const struct grade_case *c)
{
    return c->dims[0] * c->dims[1];
}

/* out is cols x rows: out[col][row] = in[row][col]. */
static void transpose_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected,
                           double *bound)
{
    size_t rows = c->dims[0], cols = c->dims[1], col = index / rows, row = index % rows;
    *expected = clk_real_at(seed, 0, row * cols + col);
    *bound = 0.0;
}

const struct grade_family grade_family_transpose = {
    .prepare = transpose_prepare,
    .describe = transpose_describe,
    .problem = CLK_PROBLEM_TRANSPOSE,
    .dim_count = 2,
    .work = transpose_bytes,
    .probe_file = "probe_transpose.cl",
    .result_length = transpose_length,
    .spot = transpose_spot,
};
const struct grade_family grade_family_transpose_wide = {
    .prepare = transpose_wide_prepare,
    .describe = transpose_describe,
    .problem = CLK_PROBLEM_TRANSPOSE,
    .dim_count = 2,
    .work = transpose_bytes,
    .probe_file = "probe_transpose.cl",
    .result_length = transpose_length,
    .spot = transpose_spot,
};
