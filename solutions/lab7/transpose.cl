/* Lab 7: matrix transpose through a local-memory tile, so that both the reads and the writes coalesce. */
#ifndef TILE
#define TILE 16
#endif

__kernel void transpose(__global const float *in, __global float *out, const int rows, const int cols)
{
    /* One extra column puts the elements of a tile column in different banks: without it,
       reading tile[tx][ty] down a column would hit the same bank TILE times. */
    __local float tile[TILE][TILE + 1];
    int tx = get_local_id(0), ty = get_local_id(1);
    int in_col = get_group_id(0) * TILE + tx;
    int in_row = get_group_id(1) * TILE + ty;
    if (in_row < rows && in_col < cols)
        tile[ty][tx] = in[in_row * cols + in_col];
    barrier(CLK_LOCAL_MEM_FENCE);

    /* The block lands at the mirrored position; dimension 0 again walks along a row, now of out. */
    int out_col = get_group_id(1) * TILE + tx; /* a row of in */
    int out_row = get_group_id(0) * TILE + ty; /* a column of in */
    if (out_row < cols && out_col < rows)
        out[out_row * rows + out_col] = tile[tx][ty];
}
