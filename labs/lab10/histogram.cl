/* Lab 10: a histogram privatised per work-group. bins[v] += how many elements of data equal v, for v below nbins.
   The host zeroes bins before the launch; the kernel only adds to them. */
__kernel void histogram(__global const uint *data, __global uint *bins, __local uint *local_bins, const int n,
                        const int nbins)
{
    /* TODO(student):
       1. Zero the work-group's bins: work-item lid zeroes local_bins[lid], local_bins[lid + size], ... below nbins
          (nbins may be larger or smaller than the work-group).
       2. barrier(CLK_LOCAL_MEM_FENCE): no work-item may count into a bin another has not zeroed yet.
       3. Grid-stride over data (i from get_global_id(0), step get_global_size(0), below n) and count each value v
          below nbins with atomic_inc(&local_bins[v]): a plain ++ loses counts when two work-items hit one bin.
       4. barrier(CLK_LOCAL_MEM_FENCE): every count must be in before the merge reads the bins.
       5. Merge: work-item lid adds local_bins[v] to bins[v] with atomic_add for v = lid, lid + size, ... below
          nbins, skipping empty bins. One global atomic per bin per work-group, not one per element. */
}
