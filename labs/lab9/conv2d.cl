/* Lab 9: 2-D convolution with the filter in __constant memory and a halo tile in local memory. */
#ifndef TILE
#define TILE 64
#endif
#ifndef WPT
#define WPT 4
#endif

__kernel void conv2d(__global const float *in, __constant float *filter, __global float *out,
                     __local float *tile, const int H, const int W, const int R)
{
    /* TODO(student): out[y][x] = the sum over fy, fx in [0, 2R] of in[y + fy - R][x + fx - R] * filter[fy][fx],
       with in taken as zero outside the H x W image (both row-major); x comes from dimension 0.
       1. The work-group's outputs are a TILE x TILE block, computed by (TILE / WPT) x (TILE / WPT) work-items,
          WPT x WPT outputs each (any arrangement inside the block; a column of WPT * WPT outputs per work-item lets
          neighbouring work-items read neighbouring words). The inputs they need are that block widened by R on
          every side: a (TILE + 2R) x (TILE + 2R) halo tile, whose corner is at (group * TILE - R) in each dimension.
       2. Load the whole halo tile into tile[] (side * side floats, row-major) with all the work-items, each loading
          several elements in a strided loop; store 0.0f for an element outside the image (never read in[] there).
       3. barrier(CLK_LOCAL_MEM_FENCE) (every work-item reaches it, even one whose outputs lie outside the image).
       4. For each of the work-item's outputs inside the image, sum the taps from tile[] and filter[] (__constant:
          cached, and the same for every work-item), and write out[y * W + x] once. */
}
