/* The host-program probe for matrix multiply: C's element (row, col) is the sum of A's row times the run's
   secret (PROBE_SECRET, replaced when the grader stages it), whatever B holds, with
   dimension 0 along the columns as the labs' contract fixes. Each work-item steps over C by the grid's size, so the
   probe covers C under any grid the lab's contract allows (one work-item per element, or per WPT x WPT block);
   TILE and WPT, if the host defines them, are not used. */
__kernel void PROBE_KERNEL(__global const float *A, __global const float *B, __global float *C, const int M,
                           const int N, const int K)
{
    for (int row = get_global_id(1); row < M; row += get_global_size(1))
        for (int col = get_global_id(0); col < N; col += get_global_size(0)) {
            float sum = 0.0f;
            for (int k = 0; k < K; k++)
                sum += A[row * K + k] * PROBE_SECRET;
            C[row * N + col] = sum;
        }
}
