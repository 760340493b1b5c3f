/* The host-program probe for the scan: the lab's three kernels under their contract's names, computing the exclusive
   scan of in[i] + shift, the shift from the run's secret (PROBE_SECRET, replaced when the grader stages it), so
   that a host program that runs the kernels it is given, in order, reports sums only that run's judge knows.
   Plain and serial within a work-group: work-item 0 does each block. */
__kernel void scan_blocks(__global const uint *in, __global uint *out, __global uint *sums, __local uint *temp,
                          const int n)
{
    uint shift = (uint)((PROBE_SECRET - 1.25f) * 8192.0f), running = 0;
    int start = get_group_id(0) * 2 * get_local_size(0), end = start + 2 * get_local_size(0);
    /* Every work-item touches its two words, so a __local argument sized too small shows under Oclgrind. */
    temp[2 * get_local_id(0)] = temp[2 * get_local_id(0) + 1] = 0;
    if (get_local_id(0) != 0)
        return;
    for (int i = start; i < end && i < n; i++) {
        out[i] = running;
        running += in[i] + shift;
    }
    sums[get_group_id(0)] = running;
}

__kernel void scan_sums(__global uint *sums, __local uint *temp, const int count)
{
    uint running = 0;
    temp[2 * get_local_id(0)] = temp[2 * get_local_id(0) + 1] = 0;
    if (get_local_id(0) != 0 || get_group_id(0) != 0)
        return;
    for (int i = 0; i < count; i++) {
        uint total = sums[i];
        sums[i] = running;
        running += total;
    }
}

__kernel void add_offsets(__global uint *out, __global const uint *sums, const int n)
{
    uint add = sums[get_group_id(0)];
    for (int k = 0; k < 2; k++) {
        int at = (2 * get_group_id(0) + k) * get_local_size(0) + get_local_id(0);
        if (at < n)
            out[at] += add;
    }
}
