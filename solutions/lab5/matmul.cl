/* Lab 5: naive matrix multiply, one work-item per element of C. */
__kernel void matmul_naive(__global const float *A, __global const float *B, __global float *C,
                           const int M, const int N, const int K)
{
    /* Dimension 0 runs along a row of C: neighbouring work-items read neighbouring B[k][col]
       and write neighbouring C[row][col], so their accesses coalesce. */
    int col = get_global_id(0);
    int row = get_global_id(1);
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}
