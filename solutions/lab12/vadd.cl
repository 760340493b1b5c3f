/* Lab 12: lab 1's vector addition, one work-item per element of a chunk: the lab is the host's schedule. */
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, const int n)
{
    int i = get_global_id(0);
    /* The global size is rounded up to a whole number of work-groups, so some work-items have no element. */
    if (i < n)
        c[i] = a[i] + b[i];
}
