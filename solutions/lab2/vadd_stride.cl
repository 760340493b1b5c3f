/* Lab 2: vector addition with a grid-stride loop, correct for any n and any global size. */
__kernel void vadd_stride(__global const float *a, __global const float *b, __global float *c, const int n)
{
    /* Consecutive work-items touch consecutive elements on every pass, so accesses stay coalesced. */
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        c[i] = a[i] + b[i];
}
