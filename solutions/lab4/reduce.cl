/* Lab 4: dot product with a tree reduction in local memory; one partial per work-group. */
__kernel void dot_local(__global const float *a, __global const float *b, __global float *partial,
                        __local float *scratch, const int n)
{
    int lid = get_local_id(0);
    float sum = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        sum += a[i] * b[i];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Halve the active work-items each step; the barrier makes every write visible before the next read. */
    for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
