/* Lab 2: vector addition with a grid-stride loop, correct for any n and any global size. */
__kernel void vadd_stride(__global const float *a, __global const float *b, __global float *c, const int n)
{
    /* TODO(student): the grid has far fewer work-items than n. Start at get_global_id(0) and
       step by get_global_size(0) until you pass n, adding one element each time. Keep the
       step equal to the grid size so that neighbouring work-items touch neighbouring elements. */
}
