/* The host-program probe for the histogram: it counts value v into bin nbins - 1 - (v + shift) % nbins, the shift
   from the run's secret (PROBE_SECRET, replaced when the grader stages it), so that a host program that runs the
   kernel it is given reports bins only that run's judge knows. One global atomic per element, grid-stride. */
__kernel void PROBE_KERNEL(__global const uint *data, __global uint *bins, __local uint *local_bins, const int n,
                           const int nbins)
{
    uint shift = (uint)((PROBE_SECRET - 1.25f) * 8192.0f);
    /* Every work-item touches one local bin, so a __local argument sized too small shows under Oclgrind. */
    if (get_local_id(0) < (size_t)nbins)
        local_bins[get_local_id(0)] = 0;
    for (size_t i = get_global_id(0); i < (size_t)n; i += get_global_size(0)) {
        uint v = data[i];
        if (v < (uint)nbins)
            atomic_inc(&bins[nbins - 1 - (v + shift) % (uint)nbins]);
    }
}
