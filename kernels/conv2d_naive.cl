/* Baseline for lab 9: the naive 2-D convolution, every tap of the image and of the filter read from global memory
   (the __local argument of the lab's contract is left unused). */
__kernel void conv2d_naive(__global const float *in, __global const float *filter, __global float *out,
                           __local float *unused, const int H, const int W, const int R)
{
    const int x = get_global_id(0), y = get_global_id(1), filter_side = 2 * R + 1;
    (void)unused;
    if (x >= W || y >= H)
        return;
    float sum = 0.0f;
    for (int fy = -R; fy <= R; fy++)
        for (int fx = -R; fx <= R; fx++)
            if (y + fy >= 0 && y + fy < H && x + fx >= 0 && x + fx < W)
                sum += in[(y + fy) * W + x + fx] * filter[(fy + R) * filter_side + fx + R];
    out[y * W + x] = sum;
}
