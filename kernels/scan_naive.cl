/* Lab 11's baseline: Hillis-Steele's scan over the whole array, one launch per pass. Pass 0 (offset 0) shifts in
   right by one (the exclusive scan's first element is 0); each later pass adds the element offset places back,
   offset doubling, so after log2(n) passes each element holds the sum of all before it: n log2(n) additions
   where a sequential scan does n, and every pass reads and writes the whole array in global memory. */
__kernel void scan_naive(__global const uint *in, __global uint *out, const int offset, const int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (offset == 0)
        out[i] = i > 0 ? in[i - 1] : 0;
    else
        out[i] = i >= offset ? in[i] + in[i - offset] : in[i];
}
