/* Lab 4: dot product with a tree reduction in local memory; one partial per work-group. */
__kernel void dot_local(__global const float *a, __global const float *b, __global float *partial,
                        __local float *scratch, const int n)
{
    /* TODO(student):
       1. Each work-item sums its grid-stride slice of a[i] * b[i] (as in lab 3) and stores
          it in scratch[get_local_id(0)].
       2. Wait with barrier(CLK_LOCAL_MEM_FENCE) until every work-item of the group has stored.
       3. Halve the number of active work-items each step: work-items below the stride add
          scratch[lid + stride] into scratch[lid]. Put a barrier after every step, outside
          any if, so that all work-items of the group reach it.
       4. Work-item 0 writes scratch[0] to partial[get_group_id(0)].
       The local size is a power of two. */
}
