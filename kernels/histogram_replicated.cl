/* Going further for lab 10 (timed in --bench, not graded): R copies of each work-group's bins, work-item lid
   counting into copy lid % R, so that the local atomics on a hot bin spread over R neighbouring words (R banks)
   instead of queueing on one. The copies of bin v lie side by side, v * R to v * R + R - 1; the merge adds them.
   The copies are declared here, for up to MAX_BINS bins (16 KiB); the lab's __local argument goes unused. */
#define R 4
#define MAX_BINS 1024

__kernel void histogram_replicated(__global const uint *data, __global uint *bins, __local uint *local_bins,
                                   const int n, const int nbins)
{
    __local uint copies[R * MAX_BINS];
    int lid = get_local_id(0), size = get_local_size(0), copy = lid % R;
    (void)local_bins;
    if (nbins > MAX_BINS)
        return; /* more bins than the copies hold: the lab's kernel is the one that handles them */
    for (int v = lid; v < R * nbins; v += size)
        copies[v] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        uint v = data[i];
        if (v < (uint)nbins)
            atomic_inc(&copies[v * R + copy]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int v = lid; v < nbins; v += size) {
        uint count = 0;
        for (int k = 0; k < R; k++)
            count += copies[v * R + k];
        if (count)
            atomic_add(&bins[v], count);
    }
}
