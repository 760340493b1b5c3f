/* Compute probe: eight independent FMA chains per work-item, so the ALUs never wait on one another. */
__kernel void fma_probe(__global float *out, const int iterations)
{
    const float b = 0.9999f, c = 1e-4f;
    float x0 = get_global_id(0) * 1e-9f, x1 = x0 + 0.1f, x2 = x0 + 0.2f, x3 = x0 + 0.3f;
    float x4 = x0 + 0.4f, x5 = x0 + 0.5f, x6 = x0 + 0.6f, x7 = x0 + 0.7f;
    for (int i = 0; i < iterations; i++) {
        x0 = fma(x0, b, c); x1 = fma(x1, b, c); x2 = fma(x2, b, c); x3 = fma(x3, b, c);
        x4 = fma(x4, b, c); x5 = fma(x5, b, c); x6 = fma(x6, b, c); x7 = fma(x7, b, c);
    }
    /* Writing the sum keeps the compiler from dropping the loop. */
    out[get_global_id(0)] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
