/* Lab 11: an exclusive scan in three kernels. Each work-group of L work-items scans a block of 2L elements with
   Blelloch's work-efficient sweeps (an up-sweep that builds partial sums in a tree, a down-sweep that turns them into
   the exclusive scan: about 2 additions per element, where Hillis-Steele's doubling does log2(2L)), then one
   work-group scans the blocks' totals, and each block adds its offset. Sums wrap modulo 2^32, as uint arithmetic
   does. Indices are padded by one word every 32 so that the sweeps' strided accesses spread over the 32 banks of
   local memory instead of falling into one. */
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

/* Scans temp's first block values (a power of two, at most 2L) exclusively in place; every work-item gets their
   total. */
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

/* Scans block g: each work-item loads its two adjacent elements (one 8-byte load) and does the up-sweep's first
   level in registers (their sum) and the down-sweep's last (the right one gets the left one added), so that the
   sweeps in local memory run over L sums, one level and two barriers fewer than over 2L values. */
__kernel void scan_blocks(__global const uint *in, __global uint *out, __global uint *sums, __local uint *temp,
                          const int n)
{
    int lid = get_local_id(0), items = get_local_size(0), i = get_group_id(0) * 2 * items + 2 * lid;
    uint2 pair = (uint2)(0, 0);
    if (i + 1 < n)
        pair = vload2(0, in + i);
    else if (i < n)
        pair.x = in[i];
    temp[PAD(lid)] = pair.x + pair.y;
    uint total = scan_block(temp, items);
    uint before = temp[PAD(lid)];
    if (i + 1 < n)
        vstore2((uint2)(before, before + pair.x), 0, out + i);
    else if (i < n)
        out[i] = before;
    if (lid == 0)
        sums[get_group_id(0)] = total;
}

/* scan_sums walks the totals a tile of up to SUMS_TILE at a time, each work-item owning a run of SUMS_RUN consecutive
   totals of the tile. The run's length is fixed when the kernel is built and its loops are unrolled, so that the run
   stays in registers: on an H100 at 2^26 elements, runs of 4,096 / L scanned in local memory took 0.19 ms, runs of 16
   in registers 0.10 ms, runs of 32 0.07 ms (0.22 ms without #pragma unroll, likely left in memory). The tile (33 KB,
   padded like temp, so that runs SUMS_RUN apart start in different banks) holds the runs of SUMS_TILE / SUMS_RUN = 256
   work-items; those of a larger work-group beyond them only take part in the barriers. */
#define SUMS_RUN 32
#define SUMS_TILE 8192

/* One work-group, a tile at a time: the tile is loaded (side by side, work-items load neighbouring totals: coalesced),
   each work-item scans its run in registers, the sweeps scan the runs' sums in temp, each run gets its offset and
   the running total, and the tile is stored as it was loaded. The sweeps' barriers are paid once a tile, where
   walking the totals a block of 2L at a time pays them every 2L: at 2^26 elements, 131,072 totals, that took 40% of
   the scan's time. */
__kernel void scan_sums(__global uint *sums, __local uint *temp, const int count)
{
    __local uint tile[PAD(SUMS_TILE)];
    int lid = get_local_id(0), items = min((int)get_local_size(0), SUMS_TILE / SUMS_RUN), size = items * SUMS_RUN;
    int mine = lid < items; /* this work-item owns a run of the tile */
    uint carry = 0;
    for (int start = 0; start < count; start += size) {
        if (mine) {
            #pragma unroll
            for (int j = 0; j < SUMS_RUN; j++) {
                int k = j * items + lid;
                uint x = sums[min(start + k, count - 1)]; /* no branch around the load: past count, 0 is kept */
                tile[PAD(k)] = start + k < count ? x : 0;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint run[SUMS_RUN], sum = 0;
        if (mine) {
            #pragma unroll
            for (int j = 0; j < SUMS_RUN; j++) { /* the run's exclusive scan, in registers */
                run[j] = sum;
                sum += tile[PAD(lid * SUMS_RUN + j)];
            }
        }
        temp[PAD(lid)] = sum;
        uint total = scan_block(temp, items), offset = carry + temp[PAD(lid)];
        if (mine) {
            #pragma unroll
            for (int j = 0; j < SUMS_RUN; j++)
                tile[PAD(lid * SUMS_RUN + j)] = offset + run[j];
        }
        /* the last total, which the clamped loads may have read, is stored only after every load */
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (mine) {
            #pragma unroll
            for (int j = 0; j < SUMS_RUN; j++) {
                int k = j * items + lid;
                if (start + k < count)
                    sums[start + k] = tile[PAD(k)];
            }
        }
        carry += total;
        barrier(CLK_LOCAL_MEM_FENCE); /* the tile is stored before the next one is loaded */
    }
}

/* Each work-item adds its block's offset to its two neighbours (one 8-byte load and store). */
__kernel void add_offsets(__global uint *out, __global const uint *sums, const int n)
{
    int i = get_group_id(0) * 2 * get_local_size(0) + 2 * get_local_id(0);
    uint offset = sums[get_group_id(0)];
    if (i + 1 < n)
        vstore2(vload2(0, out + i) + offset, 0, out + i);
    else if (i < n)
        out[i] += offset;
}
