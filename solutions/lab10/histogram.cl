/* Lab 10: a histogram privatised per work-group. Each work-group counts its grid-stride share of data into its own
   bins in local memory, where the atomics are cheap and contend only within the group, then adds each non-empty
   bin to the global bins with one atomic: nbins global atomics per group instead of one per element. */

/* Counts four values into the work-group's bins; a value outside [0, nbins) counts nowhere. */
inline void count_four(__local uint *local_bins, const uint4 v, const int nbins)
{
    if (v.x < (uint)nbins)
        atomic_inc(&local_bins[v.x]);
    if (v.y < (uint)nbins)
        atomic_inc(&local_bins[v.y]);
    if (v.z < (uint)nbins)
        atomic_inc(&local_bins[v.z]);
    if (v.w < (uint)nbins)
        atomic_inc(&local_bins[v.w]);
}

__kernel void histogram(__global const uint *data, __global uint *bins, __local uint *local_bins, const int n,
                        const int nbins)
{
    const int lid = get_local_id(0), size = get_local_size(0), stride = get_global_size(0);
    for (int v = lid; v < nbins; v += size)
        local_bins[v] = 0;
    barrier(CLK_LOCAL_MEM_FENCE); /* every bin zeroed before any work-item counts */

    /* Four values a load, four loads in flight before the first count: a 16-byte read moves four times the data of
       a 4-byte one per memory request, and loads issued together overlap their waits (a buffer's start is aligned
       far beyond 16 bytes). A load past the end gives nbins, which no bin counts; the last n % 4 values one at a
       time. */
    __global const uint4 *quads = (__global const uint4 *)data;
    const int quad_count = n / 4, none = nbins;
    for (int i = get_global_id(0); i < quad_count; i += 4 * stride) {
        const uint4 a = quads[i];
        const uint4 b = i + stride < quad_count ? quads[i + stride] : (uint4)(none);
        const uint4 c = i + 2 * stride < quad_count ? quads[i + 2 * stride] : (uint4)(none);
        const uint4 d = i + 3 * stride < quad_count ? quads[i + 3 * stride] : (uint4)(none);
        count_four(local_bins, a, nbins);
        count_four(local_bins, b, nbins);
        count_four(local_bins, c, nbins);
        count_four(local_bins, d, nbins);
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
