/* Lab 9: 2-D convolution; each work-group stages its (TILE + 2R)^2 halo tile in local memory once, and every
   work-item reads the filter from __constant memory. */
#ifndef TILE
#define TILE 16
#endif

__kernel void conv2d(__global const float *in, __constant float *filter, __global float *out,
                     __local float *tile, const int H, const int W, const int R)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int x0 = get_group_id(0) * TILE - R, y0 = get_group_id(1) * TILE - R; /* the halo tile's corner */
    const int side = TILE + 2 * R, filter_side = 2 * R + 1;

    /* The work-group loads the whole halo tile, TILE x TILE elements a step; outside the image it stores zero. */
    for (int i = ty * TILE + tx; i < side * side; i += TILE * TILE) {
        int y = y0 + i / side, x = x0 + i % side;
        tile[i] = (y >= 0 && y < H && x >= 0 && x < W) ? in[y * W + x] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* the tile is complete before anyone reads it */

    const int x = get_group_id(0) * TILE + tx, y = get_group_id(1) * TILE + ty;
    if (x >= W || y >= H)
        return;
    float sum = 0.0f;
    for (int fy = 0; fy < filter_side; fy++)
        for (int fx = 0; fx < filter_side; fx++)
            sum += tile[(ty + fy) * side + tx + fx] * filter[fy * filter_side + fx];
    out[y * W + x] = sum;
}
