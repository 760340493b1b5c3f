/* Lab 6: tiled matrix multiply; each work-group stages TILE x TILE blocks of A and B in local memory. */
#ifndef TILE
#define TILE 16
#endif

__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C,
                           const int M, const int N, const int K)
{
    /* TODO(student): the work-group is TILE x TILE work-items and computes one tile of C.
       1. Declare two __local float arrays of TILE x TILE, one for a tile of A, one of B.
       2. Walk t = 0, TILE, 2 TILE, ... along K. Each work-item loads one element of each tile
          (use zero where the tile hangs over an edge of A or B), then barrier.
       3. Add the TILE products of its row of the A tile and its column of the B tile,
          then barrier again before the next load overwrites the tiles.
       4. Write the sum to C if the element is inside C. */
}
