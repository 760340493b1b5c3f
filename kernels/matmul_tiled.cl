/* The baseline of lab 8: lab 6's tiled matrix multiply, one output per work-item, TILE x TILE tiles in local memory. */
#ifndef TILE
#define TILE 16
#endif

__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C,
                           const int M, const int N, const int K)
{
    __local float A_tile[TILE][TILE];
    __local float B_tile[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_group_id(0) * TILE + tx;
    int row = get_group_id(1) * TILE + ty;
    float sum = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        /* Each work-item loads one element of each tile; past the edges it loads zero, which adds nothing. */
        A_tile[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        B_tile[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE); /* the tiles are complete */
        for (int k = 0; k < TILE; k++)
            sum += A_tile[ty][k] * B_tile[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone is done before the next load overwrites them */
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}
