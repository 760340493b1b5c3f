/* Going further than lab 7 (timed beside it, not graded): a 32 x 32 padded tile moved by a 32 x 8 work-group,
   each work-item moving 4 elements. A warp then reads and writes whole 128-byte lines, and each work-item has 4
   independent loads in flight, where lab 7's 16 x 16 shape has half lines and one. */
#define TILE 32
#define ROWS 8

__kernel void transpose_wide(__global const float *in, __global float *out, const int rows, const int cols)
{
    __local float tile[TILE][TILE + 1];
    int tx = get_local_id(0), ty = get_local_id(1);
    int in_col = get_group_id(0) * TILE + tx, in_row0 = get_group_id(1) * TILE;
    for (int r = ty; r < TILE; r += ROWS)
        if (in_row0 + r < rows && in_col < cols)
            tile[r][tx] = in[(in_row0 + r) * cols + in_col];
    barrier(CLK_LOCAL_MEM_FENCE);

    int out_col = in_row0 + tx, out_row0 = get_group_id(0) * TILE; /* the block lands at the mirrored position */
    for (int r = ty; r < TILE; r += ROWS)
        if (out_row0 + r < cols && out_col < rows)
            out[(out_row0 + r) * rows + out_col] = tile[tx][r];
}
