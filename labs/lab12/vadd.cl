/* Lab 12: lab 1's vector addition, one work-item per element of a chunk: the lab is the host's schedule. */
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, const int n)
{
    /* TODO(student): take this work-item's index from get_global_id(0). The host rounds the
       global size up to whole work-groups, so check that the index is below n before you
       write c[i] = a[i] + b[i]. */
}
