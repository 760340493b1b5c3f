/* Going further for lab 9: a separable filter, filter[fy][fx] = col[fy] * row[fx], given as its two 1-D factors
   (a box, a Gaussian, a Sobel filter). Convolving the rows with row and then the columns of that with col gives
   the 2-D convolution in 2(2R + 1) taps per output instead of (2R + 1)^2: 10 instead of 25 at R 2, 34 instead of
   289 at R 8. Each work-group of 32 x 8 work-items computes a 32 x 32 block of outputs through local memory: it
   stages the block's (32 + 2R)^2 halo tile as lab 9 does, convolves every row of the tile with row into a
   (32 + 2R) x 32 strip (the halo's rows above and below are needed by the column pass), then each work-item
   convolves its column of that strip with col for 4 outputs. Zero outside the image, as in lab 9. */
#define BLOCK 32 /* outputs a side of a work-group's block, and its work-items across */
#define ROWS 8   /* work-items down: each computes BLOCK / ROWS outputs of its column */

__kernel __attribute__((reqd_work_group_size(BLOCK, ROWS, 1)))
void conv_separable(__global const float *in, __constant float *row, __constant float *col, __global float *out,
                    __local float *scratch, const int H, const int W, const int R)
{
    const int side = BLOCK + 2 * R, taps = 2 * R + 1;
    __local float *tile = scratch;              /* side x side: the block and its halo */
    __local float *strip = scratch + side * side; /* side x BLOCK: each row of the tile convolved with row */
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x0 = get_group_id(0) * BLOCK - R, y0 = get_group_id(1) * BLOCK - R;
    for (int r = ly; r < side; r += ROWS)
        for (int c = lx; c < side; c += BLOCK) {
            const int y = y0 + r, x = x0 + c;
            tile[r * side + c] = y >= 0 && y < H && x >= 0 && x < W ? in[y * W + x] : 0.0f;
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The row pass: every row of the tile, the halo's included, at the block's BLOCK columns. */
    for (int r = ly; r < side; r += ROWS) {
        float sum = 0.0f;
        for (int k = 0; k < taps; k++)
            sum += tile[r * side + lx + k] * row[k];
        strip[r * BLOCK + lx] = sum;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The column pass: output (r, lx) of the block from strip rows r to r + 2R. */
    const int x = x0 + R + lx;
    for (int r = ly; r < BLOCK; r += ROWS) {
        const int y = y0 + R + r;
        float sum = 0.0f;
        for (int k = 0; k < taps; k++)
            sum += strip[(r + k) * BLOCK + lx] * col[k];
        if (y < H && x < W)
            out[y * W + x] = sum;
    }
}
