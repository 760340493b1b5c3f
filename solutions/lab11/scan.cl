/* Lab 11: an exclusive scan in three kernels. Each work-group of L work-items scans a block of 2L elements in local
   memory with Blelloch's work-efficient sweeps (an up-sweep that builds partial sums in a tree, a down-sweep that
   turns them into the exclusive scan: about 2 additions per element, where Hillis-Steele's doubling does log2(2L)),
   then one work-group scans the blocks' totals, and each block adds its offset. Sums wrap modulo 2^32, as uint
   arithmetic does. Indices are padded by one word every 32 so that the sweeps' strided accesses spread over the
   32 banks of local memory instead of falling into one. */
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

/* Scans temp's block of 2L values (a power of two) exclusively in place; every work-item gets the block's total. */
static uint scan_block(__local uint *temp, int block)
{
    int lid = get_local_id(0), offset = 1;
    for (int d = block >> 1; d > 0; d >>= 1, offset <<= 1) { /* up-sweep: pairs at distance offset, summed up */
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d)
            temp[PAD(offset * (2 * lid + 2) - 1)] += temp[PAD(offset * (2 * lid + 1) - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint total = temp[PAD(block - 1)];
    barrier(CLK_LOCAL_MEM_FENCE); /* every work-item has the total before the root is cleared */
    if (lid == 0)
        temp[PAD(block - 1)] = 0;
    for (int d = 1; d < block; d <<= 1) { /* down-sweep: each node passes its sum left, adds it right */
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int left = PAD(offset * (2 * lid + 1) - 1), right = PAD(offset * (2 * lid + 2) - 1);
            uint t = temp[left];
            temp[left] = temp[right];
            temp[right] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

/* Loads values[start + lid] and values[start + lid + L] (0 past count) into temp: coalesced reads. */
static void load_pair(__global const uint *values, int start, int count, __local uint *temp)
{
    int lid = get_local_id(0), items = get_local_size(0);
    temp[PAD(lid)] = start + lid < count ? values[start + lid] : 0;
    temp[PAD(lid + items)] = start + lid + items < count ? values[start + lid + items] : 0;
}

/* Writes the pair back, plus carry, within count. */
static void store_pair(__global uint *values, int start, int count, __local const uint *temp, uint carry)
{
    int lid = get_local_id(0), items = get_local_size(0);
    if (start + lid < count)
        values[start + lid] = temp[PAD(lid)] + carry;
    if (start + lid + items < count)
        values[start + lid + items] = temp[PAD(lid + items)] + carry;
}

__kernel void scan_blocks(__global const uint *in, __global uint *out, __global uint *sums, __local uint *temp,
                          const int n)
{
    int block = 2 * get_local_size(0), start = get_group_id(0) * block;
    load_pair(in, start, n, temp);
    uint total = scan_block(temp, block);
    store_pair(out, start, n, temp, 0);
    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = total;
}

/* One work-group walks the block totals a block at a time, carrying the running sum. */
__kernel void scan_sums(__global uint *sums, __local uint *temp, const int count)
{
    int block = 2 * get_local_size(0);
    uint carry = 0;
    for (int start = 0; start < count; start += block) {
        load_pair(sums, start, count, temp);
        uint total = scan_block(temp, block);
        store_pair(sums, start, count, temp, carry);
        carry += total;
    }
}

__kernel void add_offsets(__global uint *out, __global const uint *sums, const int n)
{
    int lid = get_local_id(0), items = get_local_size(0), start = get_group_id(0) * 2 * items;
    uint offset = sums[get_group_id(0)];
    if (start + lid < n)
        out[start + lid] += offset;
    if (start + lid + items < n)
        out[start + lid + items] += offset;
}
