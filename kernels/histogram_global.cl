/* Lab 10's baseline: one global atomic per element, straight into the shared bins. On skewed data every work-item
   of the device queues on the same bin's atomic. The __local argument of the lab's contract goes unused. */
__kernel void histogram_global(__global const uint *data, __global uint *bins, __local uint *local_bins, const int n,
                               const int nbins)
{
    (void)local_bins;
    for (size_t i = get_global_id(0); i < (size_t)n; i += get_global_size(0)) {
        uint v = data[i];
        if (v < (uint)nbins)
            atomic_inc(&bins[v]);
    }
}
