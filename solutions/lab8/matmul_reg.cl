/* Lab 8: register-blocked matrix multiply. A work-group computes a TILE x TILE block of C; each work-item keeps a
   WPT x WPT block of it in private registers, so every value it reads from local memory feeds WPT products. */
#ifndef TILE
#define TILE 64
#endif
#ifndef WPT
#define WPT 4
#endif
#define TK 16            /* the step along K: each pass stages a TILE x TK strip of A and a TK x TILE strip of B */
#define SIDE (TILE / WPT) /* work-items a side of the work-group */

__kernel void matmul_reg(__global const float *A, __global const float *B, __global float *C,
                         const int M, const int N, const int K)
{
    /* A's strip is stored transposed, [k][row], so both strips are read along a row; +1 pads away bank conflicts
       when the strip is written. */
    __local float A_strip[TK][TILE + 1];
    __local float B_strip[TK][TILE + 1];
    int tx = get_local_id(0), ty = get_local_id(1), id = ty * SIDE + tx;
    int row0 = get_group_id(1) * TILE, col0 = get_group_id(0) * TILE;
    float acc[WPT][WPT];
    for (int i = 0; i < WPT; i++)
        for (int j = 0; j < WPT; j++)
            acc[i][j] = 0.0f;

    for (int t = 0; t < K; t += TK) {
        /* SIDE x SIDE work-items stage TILE x TK elements of each strip, neighbours reading neighbours;
           zero past the edges, which adds nothing. */
        for (int e = id; e < TILE * TK; e += SIDE * SIDE) {
            int r = e / TK, k = e % TK;
            A_strip[k][r] = (row0 + r < M && t + k < K) ? A[(row0 + r) * K + t + k] : 0.0f;
            int kb = e / TILE, c = e % TILE;
            B_strip[kb][c] = (t + kb < K && col0 + c < N) ? B[(t + kb) * N + col0 + c] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TK; k++) {
            /* WPT values of A and WPT of B, read once, give WPT x WPT products. The work-item's rows and
               columns are SIDE apart, so neighbouring work-items read neighbouring words. */
            float a[WPT], b[WPT];
            for (int i = 0; i < WPT; i++)
                a[i] = A_strip[k][ty + i * SIDE];
            for (int j = 0; j < WPT; j++)
                b[j] = B_strip[k][tx + j * SIDE];
            for (int i = 0; i < WPT; i++)
                for (int j = 0; j < WPT; j++)
                    acc[i][j] += a[i] * b[j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < WPT; i++)
        for (int j = 0; j < WPT; j++) {
            int row = row0 + ty + i * SIDE, col = col0 + tx + j * SIDE;
            if (row < M && col < N)
                C[row * N + col] = acc[i][j];
        }
}
