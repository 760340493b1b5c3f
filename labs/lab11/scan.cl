/* Lab 11: the exclusive scan of n uint values, out[i] = in[0] + ... + in[i - 1] (out[0] = 0), in three kernels that
   the host launches in this order. Each work-group of L work-items owns a block of B = 2L elements: block g is
   in[g * B .. g * B + B); elements past n count as 0 and are never written. Sums wrap modulo 2^32, as uint
   arithmetic does: nothing to do about it, but nothing to do against it either. */

/* Up-sweep and down-sweep of one block held in temp (B values, B a power of two), in place; returns the block's
   total to every work-item. A helper every kernel below may call: all work-items of the group must call it. */
static uint scan_block(__local uint *temp, int block)
{
    /* TODO(student):
       1. Up-sweep: for d = B/2, B/4, ..., 1 (offset = 1, 2, 4, ...): barrier, then work-items lid < d add
          temp[offset * (2 lid + 1) - 1] into temp[offset * (2 lid + 2) - 1]. The last element ends up with the total.
       2. Barrier, read the total, barrier, then work-item 0 sets the last element to 0.
       3. Down-sweep: for d = 1, 2, ..., B/2 (offset halving from B/2): barrier, then work-items lid < d swap-and-add:
          t = temp[left]; temp[left] = temp[right]; temp[right] += t.
       4. Barrier before anyone reads the result. Every level needs its barrier: a work-item may read a partial sum
          another has not written yet.
       Going further: pad each index i to i + (i >> 5) so that strided accesses spread over the 32 banks. */
    (void)temp, (void)block;
    return 0;
}

/* Scans each block exclusively into out, and writes the block's total to sums[get_group_id(0)]. temp holds 2B uints
   (room for padding). */
__kernel void scan_blocks(__global const uint *in, __global uint *out, __global uint *sums, __local uint *temp,
                          const int n)
{
    /* TODO(student): load in[start + lid] and in[start + lid + L] (0 past n) into temp, scan_block, store both back
       within n, and have work-item 0 write the total. */
    (void)in, (void)out, (void)sums, (void)temp, (void)n;
}

/* Launched as ONE work-group of L work-items: replaces sums[0 .. count) by its exclusive scan. count may be far more
   than B: walk it a block at a time, carrying the running total (faster: see the handout's hints). temp holds 2B
   uints. */
__kernel void scan_sums(__global uint *sums, __local uint *temp, const int count)
{
    /* TODO(student) */
    (void)sums, (void)temp, (void)count;
}

/* Adds sums[g] (the scanned totals of the blocks before block g) to every element of block g below n. */
__kernel void add_offsets(__global uint *out, __global const uint *sums, const int n)
{
    /* TODO(student) */
    (void)out, (void)sums, (void)n;
}
