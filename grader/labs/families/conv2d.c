/* The 2-D convolution family (lab 9): an image, a filter bound to a __constant argument, and a __local halo tile
   whose size the launch fixes from R. */
#include "labs/families.h"

#include "conv2d.h"
#include "data.h"
#include "problem.h"
#include "reference.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* dims: H, W, R. Each work-group computes a TILE x TILE block of outputs with (TILE / WPT)^2 work-items (without a
   tile, the case's local size a side, one output each); its halo tile is (TILE + 2R)^2 floats. */
static void set_grid(struct grade_launch *launch, const struct grade_case *c)
{
    size_t block = c->tile ? (size_t)c->tile : c->local[0];
    size_t items = c->tile ? labs_tiling_side(c->tile, c->wpt) : c->local[0];
    size_t H = c->dims[0], W = c->dims[1], halo = block + 2 * c->dims[2];
    launch->work_dims = 2;
    launch->local[0] = launch->local[1] = items;
    launch->global[0] = (W + block - 1) / block * items;
    launch->global[1] = (H + block - 1) / block * items;
    launch->local_bytes = halo * halo * sizeof(float);
}

static int conv2d_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t H = c->dims[0], W = c->dims[1], R = c->dims[2], taps = clk_conv2d_side(R) * clk_conv2d_side(R);
    if (labs_add_buffer(launch, "in", H * W, 0, c, seed) || labs_add_buffer(launch, "filter", taps, 0, c, seed) ||
        labs_add_buffer(launch, "out", H * W, 1, c, seed))
        return -1;
    launch->shape.count = H * W;
    launch->shape.rows = H;
    launch->shape.cols = W;
    launch->ints[0] = (int)H;
    launch->ints[1] = (int)W;
    launch->ints[2] = (int)R;
    launch->int_count = 3;
    set_grid(launch, c);
    if (c->no_reference)
        return 0;
    launch->expected = calloc(H * W, sizeof(double));
    launch->bound = calloc(H * W, sizeof(double));
    if (!launch->expected || !launch->bound)
        return -1;
    clk_ref_conv2d(launch->host[0], H, W, launch->host[1], R, launch->expected, launch->bound);
    if (c->data == GRADE_EXACT) /* small integers: every sum is exact */
        memset(launch->bound, 0, H * W * sizeof(double));
    return 0;
}

static void conv2d_describe(const struct grade_case *c, char *text, size_t size)
{
    snprintf(text, size, "%s %zux%zu image, R %zu", c->data == GRADE_EXACT ? "exact" : "real", c->dims[0],
             c->dims[1], c->dims[2]);
    if (c->tile)
        clk_append(text, size, ", TILE %d, WPT %d", c->tile, c->wpt);
    else
        clk_append(text, size, ", local %zux%zu", c->local[0], c->local[0]);
}

/* The image read once and the output written once: what a halo tile approaches (the filter is small). */
static double conv2d_bytes(const struct grade_case *c)
{
    return 2.0 * sizeof(float) * c->dims[0] * c->dims[1];
}

static size_t conv2d_length(const struct grade_case *c)
{
    return c->dims[0] * c->dims[1];
}

/* ctx is the seed: each input value drawn alone, as clk_fill_real draws it. */
static float real_at(const void *ctx, unsigned stream, size_t index)
{
    return clk_real_at(*(const uint64_t *)ctx, stream, index);
}

static void conv2d_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected, double *bound)
{
    size_t W = c->dims[1];
    clk_ref_conv2d_at(real_at, &seed, c->dims[0], W, c->dims[2], index / W, index % W, expected, bound);
}

/* Every output of the padded grid takes (2R + 1)^2 taps, whether its kernel reads them from local or global memory. */
static double conv2d_steps(const struct grade_case *c)
{
    size_t side = c->tile ? (size_t)c->tile : c->local[0], taps = clk_conv2d_side(c->dims[2]);
    return (double)((c->dims[0] + side - 1) / side * side) * (double)((c->dims[1] + side - 1) / side * side) *
           (double)(taps * taps);
}

const struct grade_family grade_family_conv2d = {
    .prepare = conv2d_prepare,
    .describe = conv2d_describe,
    .problem = CLK_PROBLEM_CONV2D,
    .dim_count = 3,
    .work = conv2d_bytes,
    .probe_file = "probe_conv2d.cl",
    .result_length = conv2d_length,
    .spot = conv2d_spot,
    .simulated_steps = conv2d_steps,
};

/* The going-further separable kernel (kernels/conv_separable.cl): the filter given as its factors row and col,
   filter[fy][fx] = col[fy] * row[fx]; its own work-groups, 32 x 8 work-items over a 32 x 32 block, and a __local
   argument for the block's halo tile and its rows convolved with row, each row padded by one word. */
#define SEPARABLE_BLOCK 32
#define SEPARABLE_ROWS 8

/* Output (y, x) of in convolved with col[fy] * row[fx] in double, zero outside the image, with a bound for a float
   kernel that sums each row's taps, then a column of those sums: 2(2R + 1) roundings of a sum, with room. */
static void separable_at(const float *in, size_t H, size_t W, const float *row, const float *col, size_t R, size_t y,
                         size_t x, double *expected, double *bound)
{
    size_t side = clk_conv2d_side(R);
    double sum = 0.0, sum_abs = 0.0;
    for (size_t fy = 0; fy < side; fy++)
        for (size_t fx = 0; fx < side && y + fy >= R && y + fy - R < H; fx++) {
            if (x + fx < R || x + fx - R >= W)
                continue;
            double product = (double)in[(y + fy - R) * W + x + fx - R] * (double)row[fx] * (double)col[fy];
            sum += product;
            sum_abs += fabs(product);
        }
    *expected = sum;
    *bound = clk_sum_bound(2 * side + 2, sum_abs);
}

static int separable_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t H = c->dims[0], W = c->dims[1], R = c->dims[2], side = clk_conv2d_side(R), halo = SEPARABLE_BLOCK + 2 * R;
    if (labs_add_buffer(launch, "in", H * W, 0, c, seed) || labs_add_buffer(launch, "row", side, 0, c, seed) ||
        labs_add_buffer(launch, "col", side, 0, c, seed) || labs_add_buffer(launch, "out", H * W, 1, c, seed))
        return -1;
    launch->shape.count = H * W;
    launch->shape.rows = H;
    launch->shape.cols = W;
    launch->ints[0] = (int)H;
    launch->ints[1] = (int)W;
    launch->ints[2] = (int)R;
    launch->int_count = 3;
    launch->work_dims = 2;
    launch->local[0] = SEPARABLE_BLOCK;
    launch->local[1] = SEPARABLE_ROWS;
    launch->global[0] = (W + SEPARABLE_BLOCK - 1) / SEPARABLE_BLOCK * SEPARABLE_BLOCK;
    launch->global[1] = (H + SEPARABLE_BLOCK - 1) / SEPARABLE_BLOCK * SEPARABLE_ROWS;
    launch->local_bytes = (halo * (halo + 1) + halo * (SEPARABLE_BLOCK + 1)) * sizeof(float);
    if (c->no_reference)
        return 0;
    launch->expected = calloc(H * W, sizeof(double));
    launch->bound = calloc(H * W, sizeof(double));
    if (!launch->expected || !launch->bound)
        return -1;
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++)
            separable_at(launch->host[0], H, W, launch->host[1], launch->host[2], R, y, x, &launch->expected[y * W + x],
                         &launch->bound[y * W + x]);
    return 0;
}

const struct grade_family grade_family_conv2d_separable = {
    .prepare = separable_prepare,
    .describe = conv2d_describe,
    .problem = CLK_PROBLEM_CONV2D,
    .dim_count = 3,
    .work = conv2d_bytes,
    .result_length = conv2d_length,
};
