/* Lab 7's kernel family, the transpose, and its wide tiling. */
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

/* --- transpose: out (cols x rows) = in (rows x cols) transposed --- */

static int transpose_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t rows = c->dims[0], cols = c->dims[1];
    if (labs_add_buffer(launch, "in", rows * cols, 0, c, seed) || labs_add_buffer(launch, "out", rows * cols, 1, c, seed) ||
        family_alloc_matrix(c, launch, cols, rows))
        return -1;
    launch->ints[0] = (int)rows;
    launch->ints[1] = (int)cols;
    launch->int_count = 2;
    family_set_2d(launch, c, cols, rows);
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
    family_describe_2d(c, what, text, size);
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

/* The base record: every field but the NDRange's, which each tiling sets (a field named twice would not build). */
#define TRANSPOSE_FAMILY                                                                                               \
    .describe = transpose_describe, .problem = CLK_PROBLEM_TRANSPOSE, .dim_count = 2, .work = transpose_bytes,        \
    .probe_file = "probe_transpose.cl", .result_length = transpose_length, .spot = transpose_spot

const struct grade_family grade_family_transpose = {.prepare = transpose_prepare, TRANSPOSE_FAMILY};
const struct grade_family grade_family_transpose_wide = {.prepare = transpose_wide_prepare, TRANSPOSE_FAMILY};
