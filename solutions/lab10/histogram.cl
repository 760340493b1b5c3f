/* Lab 10: a histogram privatised per work-group. Each work-group counts its grid-stride share of data into its own
   bins in local memory, where the atomics are cheap and contend only within the group, then adds each non-empty
   bin to the global bins with one atomic: nbins global atomics per group instead of one per element. */
__kernel void histogram(__global const uint *data, __global uint *bins, __local uint *local_bins, const int n,
                        const int nbins)
{
    int lid = get_local_id(0), size = get_local_size(0);
    for (int v = lid; v < nbins; v += size)
        local_bins[v] = 0;
    barrier(CLK_LOCAL_MEM_FENCE); /* every bin zeroed before any work-item counts */

    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        uint v = data[i];
        if (v < (uint)nbins)
            atomic_inc(&local_bins[v]);
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* every count in before any bin is merged */

    for (int v = lid; v < nbins; v += size) {
        uint count = local_bins[v];
        if (count)
            atomic_add(&bins[v], count);
    }
}
