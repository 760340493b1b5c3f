/* docs/cublas_sgemm.cu: NVIDIA cuBLAS FP32 SGEMM (TF32 off) at 2048^3 and 4096^3, for the handout's comparison with
   lab 8. Not part of the kit's build: nvcc -O2 -o cublas_sgemm docs/cublas_sgemm.cu -lcublas && ./cublas_sgemm
   (docs/results/cublas-sgemm-h100.txt). Each size: 3 untimed calls, then 15 timed ones; the fastest and the median. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    const int sizes[] = {2048, 4096}, timed = 15;
    cublasHandle_t handle;
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS)
        return 1;
    printf("device: %s; cuBLAS SGEMM, CUBLAS_PEDANTIC_MATH (FP32, no TF32); 3 warm-up calls, %d timed\n", prop.name, timed);
    for (int s = 0; s < 2; s++) {
        int n = sizes[s];
        size_t bytes = (size_t)n * n * sizeof(float);
        float *a, *b, *c, *host = (float *)malloc(bytes), ms[15], alpha = 1.0f, beta = 0.0f;
        for (size_t i = 0; i < (size_t)n * n; i++)
            host[i] = (float)((i * 2654435761u) % 9) - 4.0f;
        cudaMalloc(&a, bytes), cudaMalloc(&b, bytes), cudaMalloc(&c, bytes);
        cudaMemcpy(a, host, bytes, cudaMemcpyHostToDevice), cudaMemcpy(b, host, bytes, cudaMemcpyHostToDevice);
        cudaEvent_t start, end;
        cudaEventCreate(&start), cudaEventCreate(&end);
        for (int i = 0; i < 3 + timed; i++) {
            cudaEventRecord(start);
            cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n);
            cudaEventRecord(end);
            cudaEventSynchronize(end);
            if (i >= 3)
                cudaEventElapsedTime(&ms[i - 3], start, end);
        }
        qsort(ms, timed, sizeof ms[0], by_value);
        double flop = 2.0 * n * n * (double)n;
        printf("%d^3: fastest %.3f ms = %.1f TFLOP/s; median %.3f ms = %.1f TFLOP/s; slowest %.3f ms\n", n, ms[0],
               flop / (ms[0] * 1e9), ms[timed / 2], flop / (ms[timed / 2] * 1e9), ms[timed - 1]);
        cudaFree(a), cudaFree(b), cudaFree(c), free(host);
    }
    cublasDestroy(handle);
    return 0;
}
