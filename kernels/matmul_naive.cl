/* Baselines for labs 5 and 6: the naive matrix multiply with its two thread mappings. */

/* Dimension 0 walks along a row of C: neighbouring work-items touch neighbouring addresses. */
__kernel void matmul_naive(__global const float *A, __global const float *B, __global float *C,
                           const int M, const int N, const int K)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (i < M && j < N) {
        float acc = 0.0f;
        for (int p = 0; p < K; ++p)
            acc += A[i * K + p] * B[p * N + j];
        C[i * N + j] = acc;
    }
}

/* Dimension 0 walks down a column of C: neighbouring work-items are K and N floats apart. */
__kernel void matmul_swapped(__global const float *A, __global const float *B, __global float *C,
                             const int M, const int N, const int K)
{
    const int i = get_global_id(0), j = get_global_id(1);
    if (i < M && j < N) {
        float acc = 0.0f;
        for (int p = 0; p < K; ++p)
            acc += A[i * K + p] * B[p * N + j];
        C[i * N + j] = acc;
    }
}
