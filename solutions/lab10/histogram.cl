/* Lab 10: a histogram privatised per work-group. Each work-group counts its grid-stride share of data into its own
   bins in local memory, where the atomics are cheap and contend only within the group, then adds each non-empty
   bin to the global bins with one atomic: nbins global atomics per group instead of one per element. */
__kernel void histogram(__global const uint *data, __global uint *bins, __local uint *local_bins, const int n,
                        const int nbins)
{
    const int lid = get_local_id(0), size = get_local_size(0), stride = get_global_size(0);
    for (int v = lid; v < nbins; v += size)
        local_bins[v] = 0;
    barrier(CLK_LOCAL_MEM_FENCE); /* every bin zeroed before any work-item counts */

    /* Four values a load: a 16-byte read moves four times the data of a 4-byte one per memory request (a
       buffer's start is aligned far beyond 16 bytes); the last n % 4 values one at a time. */
    __global const uint4 *quads = (__global const uint4 *)data;
    for (int i = get_global_id(0); i < n / 4; i += stride) {
        const uint4 v = quads[i];
        if (v.x < (uint)nbins)
            atomic_inc(&local_bins[v.x]);
        if (v.y < (uint)nbins)
            atomic_inc(&local_bins[v.y]);
        if (v.z < (uint)nbins)
            atomic_inc(&local_bins[v.z]);
        if (v.w < (uint)nbins)
            atomic_inc(&local_bins[v.w]);
    }
    for (int i = n / 4 * 4 + get_global_id(0); i < n; i += stride)
        if (data[i] < (uint)nbins)
            atomic_inc(&local_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE); /* every count in before any bin is merged */

    for (int v = lid; v < nbins; v += size) {
        const uint count = local_bins[v];
        if (count)
            atomic_add(&bins[v], count);
    }
}
