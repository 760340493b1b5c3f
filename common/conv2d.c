#include "conv2d.h"

#include "reference.h"

#include <math.h>

size_t clk_conv2d_side(size_t R)
{
    return 2 * R + 1;
}

/* Reads a plain array: ctx is the array of the two inputs, the image (stream 0) and the filter (stream 1). */
static float array_at(const void *ctx, unsigned stream, size_t index)
{
    const float *const *arrays = ctx;
    return arrays[stream][index];
}

void clk_ref_conv2d_at(float (*at)(const void *ctx, unsigned stream, size_t index), const void *ctx, size_t H,
                       size_t W, size_t R, size_t y, size_t x, double *expected, double *bound)
{
    size_t side = clk_conv2d_side(R), terms = 0;
    double sum = 0.0, sum_abs = 0.0;
    /* Only the taps inside the image: outside it the image is zero and adds nothing. */
    for (size_t fy = 0; fy < side; fy++) {
        if (y + fy < R || y + fy - R >= H)
            continue;
        for (size_t fx = 0; fx < side; fx++) {
            if (x + fx < R || x + fx - R >= W)
                continue;
            double product = (double)at(ctx, 0, (y + fy - R) * W + x + fx - R) * (double)at(ctx, 1, fy * side + fx);
            sum += product;
            sum_abs += fabs(product);
            terms++;
        }
    }
    *expected = sum;
    *bound = clk_sum_bound(terms, sum_abs);
}

void clk_ref_conv2d(const float *in, size_t H, size_t W, const float *filter, size_t R, double *expected,
                    double *bound)
{
    const float *arrays[2] = {in, filter};
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++)
            clk_ref_conv2d_at(array_at, arrays, H, W, R, y, x, &expected[y * W + x], &bound[y * W + x]);
}
