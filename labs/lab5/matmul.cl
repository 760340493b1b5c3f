/* Lab 5: naive matrix multiply, one work-item per element of C. */
__kernel void matmul_naive(__global const float *A, __global const float *B, __global float *C,
                           const int M, const int N, const int K)
{
    /* TODO(student): C is M x N, A is M x K and B is K x N, all row-major.
       Take the column of C from get_global_id(0) and the row from get_global_id(1): then
       neighbouring work-items read neighbouring elements of B and write neighbouring elements
       of C, and the accesses coalesce. Skip work-items outside C (the NDRange is rounded up),
       and sum A[row * K + k] * B[k * N + col] over k into C[row * N + col]. */
}
