/* Going further for lab 9: a separable filter, filter[fy][fx] = col[fy] * row[fx], given as its two 1-D factors
   (a box, a Gaussian, Sobel's). Convolving the rows with row and then the columns of that with col gives the 2-D
   convolution in 2(2R + 1) multiply-adds per output instead of (2R + 1)^2: 10 instead of 25 at R 2, 34 instead of
   289 at R 8. Each work-group of 32 x 8 work-items computes a 32 x 32 block of outputs through local memory: it
   stages the block's (32 + 2R)^2 halo tile as lab 9 does, convolves every row of the tile with row into a
   (32 + 2R) x 32 strip (the column pass needs the halo's rows above and below the block), then convolves the
   strip's columns with col. In both passes a work-item computes 4 neighbouring outputs from a window of registers
   that slides along them, so that each value it reads from local memory feeds up to 4 outputs (lab 8's idea); the
   tile's and the strip's rows are padded by one word (lab 7's), so that a warp walking down 32 rows reads 32
   banks. Zero outside the image, as in lab 9. */
#define BLOCK 32 /* outputs a side of a work-group's block, and its work-items across */
#define ROWS 8   /* work-items down */
#define RUN 4    /* neighbouring outputs a work-item computes in a pass */

/* acc[j] = sum over k of v[k + j] * f[k], v read from p at steps of step: 3 + taps reads for RUN outputs. */
inline void slide(__local const float *p, const int step, __constant float *f, const int taps, float *acc)
{
    float window[RUN];
    for (int j = 0; j < RUN; j++) {
        acc[j] = 0.0f;
        window[j] = j + 1 < RUN ? p[j * step] : 0.0f;
    }
    for (int k = 0; k < taps; k++) {
        const float c = f[k];
        window[RUN - 1] = p[(k + RUN - 1) * step];
        for (int j = 0; j < RUN; j++)
            acc[j] += window[j] * c;
        for (int j = 0; j + 1 < RUN; j++)
            window[j] = window[j + 1];
    }
}

__kernel __attribute__((reqd_work_group_size(BLOCK, ROWS, 1)))
void conv_separable(__global const float *in, __constant float *row, __constant float *col, __global float *out,
                    __local float *scratch, const int H, const int W, const int R)
{
    const int side = BLOCK + 2 * R, taps = 2 * R + 1, pitch = side + 1, lid = get_local_id(1) * BLOCK + get_local_id(0);
    __local float *tile = scratch;                 /* side rows of pitch: the block and its halo */
    __local float *strip = scratch + side * pitch; /* side rows of BLOCK + 1: the tile's rows convolved with row */
    const int x0 = get_group_id(0) * BLOCK - R, y0 = get_group_id(1) * BLOCK - R;
    float acc[RUN];
    for (int i = lid; i < side * side; i += BLOCK * ROWS) {
        const int r = i / side, c = i - r * side, y = y0 + r, x = x0 + c;
        tile[r * pitch + c] = y >= 0 && y < H && x >= 0 && x < W ? in[y * W + x] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The row pass: RUN neighbouring columns of one row each; neighbouring work-items take neighbouring rows. */
    for (int i = lid; i < side * (BLOCK / RUN); i += BLOCK * ROWS) {
        const int r = i % side, c = i / side * RUN;
        slide(tile + r * pitch + c, 1, row, taps, acc);
        for (int j = 0; j < RUN; j++)
            strip[r * (BLOCK + 1) + c + j] = acc[j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The column pass: RUN neighbouring rows of one column each; neighbouring work-items take neighbouring columns. */
    for (int i = lid; i < BLOCK * (BLOCK / RUN); i += BLOCK * ROWS) {
        const int c = i % BLOCK, r = i / BLOCK * RUN, x = x0 + R + c;
        slide(strip + r * (BLOCK + 1) + c, BLOCK + 1, col, taps, acc);
        for (int j = 0; j < RUN; j++)
            if (y0 + R + r + j < H && x < W)
                out[(y0 + R + r + j) * W + x] = acc[j];
    }
}
