/* The host-program probe for the reduction: work-item 0 of each group adds its group's grid-stride share of a
   alone times the run's secret (PROBE_SECRET, replaced when the grader stages it), so a host program that runs the
   kernel it is given reports that sum, not a . b. */
__kernel void PROBE_KERNEL(__global const float *a, __global const float *b, __global float *partial,
                           __local float *scratch, const int n)
{
    int size = get_local_size(0), first = get_group_id(0) * size;
    float sum = 0.0f;
    /* Every work-item touches its scratch element, so a __local argument sized too small shows under Oclgrind. */
    scratch[get_local_id(0)] = 0.0f;
    if (get_local_id(0) != 0)
        return;
    for (int k = 0; k < size; k++)
        for (int i = first + k; i < n; i += (int)get_global_size(0))
            sum += a[i] * PROBE_SECRET;
    partial[get_group_id(0)] = sum;
}
