/* Lab 7: matrix transpose through a local-memory tile, so that both the reads and the writes coalesce. */
#ifndef TILE
#define TILE 16
#endif

__kernel void transpose(__global const float *in, __global float *out, const int rows, const int cols)
{
    /* TODO(student): in is rows x cols, out is cols x rows, both row-major.
       1. Declare __local float tile[TILE][TILE + 1]: the extra column reduces bank conflicts
          when the tile is read down a column.
       2. Read in[row][col] with col from dimension 0 into tile[ly][lx] (inside the matrix only),
          then barrier.
       3. Swap the group indices: this group writes the mirrored block of out. Write
          tile[lx][ly] so that dimension 0 walks along a row of out, and check the bounds of out. */
}
