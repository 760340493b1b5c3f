/* 2-D convolution (lab 9): the CPU reference and the shape of its problem, shared by the host programs and the
   grader. */
#ifndef CLKIT_CONV2D_H
#define CLKIT_CONV2D_H

#include <stddef.h>

/* The side of a filter of radius R: 2R + 1. */
size_t clk_conv2d_side(size_t R);

/* out[y][x] = sum over dy, dx in [-R, R] of in[y + dy][x + dx] filter[dy + R][dx + R], with in zero outside the
   H x W image (row-major); bound[i] covers the float rounding of the taps' sum in any order. */
void clk_ref_conv2d(const float *in, size_t H, size_t W, const float *filter, size_t R, double *expected,
                    double *bound);

/* The same, for the one output at (y, x) only, with in and filter read through at(stream, index): a check of a
   large run that does not hold the whole reference. */
void clk_ref_conv2d_at(float (*at)(const void *ctx, unsigned stream, size_t index), const void *ctx, size_t H,
                       size_t W, size_t R, size_t y, size_t x, double *expected, double *bound);

#endif
