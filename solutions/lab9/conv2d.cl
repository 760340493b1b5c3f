/* Lab 9: 2-D convolution. Each work-group computes a TILE x TILE block of outputs from its (TILE + 2R)^2 halo tile,
   staged in local memory once; each of its (TILE / WPT)^2 work-items computes WPT * WPT outputs, reading the filter
   from __constant memory. */
#ifndef TILE
#define TILE 64
#endif
#ifndef WPT
#define WPT 4
#endif

#define ITEMS ((TILE / WPT) * (TILE / WPT)) /* work-items a work-group */
/* Inside the work-group the work-items are laid out as TILE columns of ROWS, each computing STRIP outputs down its
   column: neighbouring work-items read neighbouring words of the tile (no bank conflicts) and write neighbouring
   outputs (coalesced), and each row of the tile a work-item reads feeds up to 2R + 1 of its outputs. */
#ifndef ROWS
#define ROWS (ITEMS / TILE)
#endif
#define COLS (ITEMS / ROWS)
#define STRIP (TILE / ROWS)
#if COLS * ROWS != ITEMS || COLS > TILE || TILE % COLS || ROWS * STRIP != TILE || COLS % (TILE / WPT)
#error "TILE and WPT must give TILE / WPT^2 rows of work-items"
#endif
#define CSTRIP (TILE / COLS) /* outputs a work-item computes across (1 unless ROWS is overridden) */
#define WG_SIDE (TILE / WPT)  /* work-items a side: (lid % COLS, lid / COLS) below, affine in get_local_id(0) */

/* The halo tile for a radius the compiler knows (R = 1 to 3): its middle TILE columns by aligned float4 loads when
   rows start on a multiple of 4 (W % 4 == 0), its 2R edge columns one by one; every load of the work-item issued
   before the first store, so that a work-group has many loads in flight (the trip counts are constants). */
inline void load_halo_fixed(__global const float *in, __local float *tile, const int H, const int W, const int R)
{
    const int lid = get_local_id(1) * WG_SIDE + get_local_id(0), side = TILE + 2 * R;
    const int gx = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE - R;
    const int wide = W % 4 == 0, per_row = wide ? TILE / 4 : TILE, middle = side * per_row;
    float4 mid[((TILE + 6) * TILE / 4 + ITEMS - 1) / ITEMS];
    float edge[((TILE + 6) * 6 + ITEMS - 1) / ITEMS];
#pragma unroll
    for (int j = 0; j < (side * TILE / 4 + ITEMS - 1) / ITEMS; j++) {
        const int i = lid + j * ITEMS, ly = i / (TILE / 4), x = gx + 4 * (i - ly * (TILE / 4)), y = y0 + ly;
        mid[j] = (float4)(0.0f);
        if (wide && i < middle && y >= 0 && y < H && x < W)
            mid[j] = vload4(0, in + y * W + x);
    }
#pragma unroll
    for (int j = 0; j < (side * 2 * R + ITEMS - 1) / ITEMS; j++) {
        const int i = lid + j * ITEMS, ly = i / (2 * R), e = i - ly * (2 * R), y = y0 + ly;
        const int x = e < R ? gx - R + e : gx + TILE - R + e;
        edge[j] = i < side * 2 * R && y >= 0 && y < H && x >= 0 && x < W ? in[y * W + x] : 0.0f;
    }
#pragma unroll
    for (int j = 0; j < (side * TILE / 4 + ITEMS - 1) / ITEMS; j++) {
        const int i = lid + j * ITEMS, ly = i / (TILE / 4);
        if (wide && i < middle)
            vstore4(mid[j], 0, tile + ly * side + R + 4 * (i - ly * (TILE / 4)));
    }
#pragma unroll
    for (int j = 0; j < (side * 2 * R + ITEMS - 1) / ITEMS; j++) {
        const int i = lid + j * ITEMS, ly = i / (2 * R), e = i - ly * (2 * R);
        if (i < side * 2 * R)
            tile[ly * side + (e < R ? e : TILE + e)] = edge[j];
    }
    if (!wide) /* rows not aligned to 4: the middle columns one by one */
        for (int i = lid; i < middle; i += ITEMS) {
            const int ly = i / TILE, x = gx + i - ly * TILE, y = y0 + ly;
            tile[ly * side + R + i - ly * TILE] = y >= 0 && y < H && x < W ? in[y * W + x] : 0.0f;
        }
}

/* R = 1 to 3: the filter in registers; the work-item walks down its patch a row at a time, each row read from the
   tile once into registers and added, under each of the filter's 2R + 1 rows, to the 2R + 1 outputs that it
   touches; the oldest of those outputs is then complete, written, and its accumulator reused. */
inline void conv_fixed(__global const float *in, __constant float *filter, __global float *out,
                       __local float *tile, const int H, const int W, const int R)
{
    load_halo_fixed(in, tile, H, W, R);
    barrier(CLK_LOCAL_MEM_FENCE); /* the tile is complete before anyone reads it */
    /* Everything else after the barrier: a CPU device keeps what lives across it in memory, per work-item. */
    const int side = TILE + 2 * R, taps = 2 * R + 1;
    const int cx = get_local_id(1) % (COLS / WG_SIDE) * WG_SIDE + get_local_id(0);
    const int cy = get_local_id(1) / (COLS / WG_SIDE);
    const int x = get_group_id(0) * TILE + cx * CSTRIP, y0 = get_group_id(1) * TILE + cy * STRIP - 2 * R;
    float f[49], acc[7][CSTRIP], v[CSTRIP + 6];
#pragma unroll
    for (int i = 0; i < taps * taps; i++)
        f[i] = filter[i];
#pragma unroll
    for (int k = 0; k < taps; k++)
#pragma unroll
        for (int c = 0; c < CSTRIP; c++)
            acc[k][c] = 0.0f;
    __local const float *row = tile + cy * STRIP * side + cx * CSTRIP;
    /* acc[k] holds the output 2R - k rows above the tile row r: row r is its filter row 2R - k */
    for (int r = 0; r < STRIP + 2 * R; r++, row += side) {
#pragma unroll
        for (int i = 0; i < CSTRIP + 2 * R; i++)
            v[i] = row[i];
#pragma unroll
        for (int k = 0; k < taps; k++)
#pragma unroll
            for (int c = 0; c < CSTRIP; c++)
#pragma unroll
                for (int fx = 0; fx < taps; fx++)
                    acc[k][c] += v[c + fx] * f[(2 * R - k) * taps + fx];
        const int y = y0 + r; /* acc[0]'s output, complete after its last filter row */
#pragma unroll
        for (int c = 0; c < CSTRIP; c++) {
            if (r >= 2 * R && y < H && x + c < W)
                out[y * W + x + c] = acc[0][c];
#pragma unroll
            for (int k = 0; k < taps - 1; k++)
                acc[k][c] = acc[k + 1][c];
            acc[taps - 1][c] = 0.0f;
        }
    }
}

/* Any other radius: the halo tile element by element, then the taps of each output by loops. */
inline void conv_any(__global const float *in, __constant float *filter, __global float *out,
                     __local float *tile, const int H, const int W, const int R)
{
    const int side = TILE + 2 * R, taps = 2 * R + 1;
    const int cx = get_local_id(1) % (COLS / WG_SIDE) * WG_SIDE + get_local_id(0);
    const int cy = get_local_id(1) / (COLS / WG_SIDE);
    const int lid = get_local_id(1) * WG_SIDE + get_local_id(0);
    const int x0 = get_group_id(0) * TILE - R, y0 = get_group_id(1) * TILE - R;
    for (int i = lid; i < side * side; i += ITEMS) {
        const int ly = i / side, x = x0 + i - ly * side, y = y0 + ly;
        tile[i] = y >= 0 && y < H && x >= 0 && x < W ? in[y * W + x] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int o = 0; o < STRIP; o++)
        for (int c = 0; c < CSTRIP; c++) {
            const int x = x0 + R + cx * CSTRIP + c, y = y0 + R + cy * STRIP + o;
            __local const float *window = tile + (cy * STRIP + o) * side + cx * CSTRIP + c;
            float sum = 0.0f;
            for (int fy = 0; fy < taps; fy++)
                for (int fx = 0; fx < taps; fx++)
                    sum += window[fy * side + fx] * filter[fy * taps + fx];
            if (y < H && x < W)
                out[y * W + x] = sum;
        }
}

__kernel void conv2d(__global const float *in, __constant float *filter, __global float *out,
                     __local float *tile, const int H, const int W, const int R)
{
    /* Each common radius as a constant, so that the compiler unrolls its loops (R is the same for the whole
       launch, so every work-item takes the same branch and meets the same barrier). */
    if (R == 1)
        conv_fixed(in, filter, out, tile, H, W, 1);
    else if (R == 2)
        conv_fixed(in, filter, out, tile, H, W, 2);
    else if (R == 3)
        conv_fixed(in, filter, out, tile, H, W, 3);
    else
        conv_any(in, filter, out, tile, H, W, R);
}
