/* The host-program probe for the naive dot product: each work-item's partial is the grid-stride sum of a alone
   times the run's secret (PROBE_SECRET, replaced when the grader stages it), so a host program that runs the kernel it
   is given reports that sum, not a . b. */
__kernel void PROBE_KERNEL(__global const float *a, __global const float *b, __global float *partial, const int n)
{
    float sum = 0.0f;
    for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0))
        sum += a[i] * PROBE_SECRET;
    partial[get_global_id(0)] = sum;
}
