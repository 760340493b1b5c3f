/* Going further than lab 8 (timed beside it, not graded): C = A B, a BM x BN block (128 x 256) per work-group of
   NT = 256 work-items, tiled once more per warp. Each of the 8 warps owns a WM x WN (64 x 64) sub-block; each
   work-item keeps WMITER x WNITER (2 x 4) sub-blocks of TM x TN (4 x 4) outputs in registers, 8 x 16 in all, the
   sub-blocks WSUBM rows and WSUBN columns apart. The 32 work-items of a warp, 8 rows of 4, then read 8 and 4
   consecutive float4s of the strips: broadcasts within a row or column, no bank conflict, 6 float4 reads from local
   memory for 128 multiply-adds. A's strip is stored transposed ([k][row]) so that both strips are read along a
   row. Strips are BK = 8 deep and double buffered: the next one is fetched into registers while this one is
   multiplied, one barrier a strip. Any M, N, K: blocks past the edges, or rows not float4-aligned, take scalar
   loads that read zeros outside the matrices and element-by-element stores. Parameters may be set with -D. */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 256
#endif
#ifndef BK
#define BK 8
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 64
#endif
#ifndef TM
#define TM 4
#endif
#ifndef TN
#define TN 4
#endif
#ifndef WNITER
#define WNITER 4
#endif
#define NT ((BM / WM) * (BN / WN) * 32)
#define WMITER ((WM * WN) / (32 * TM * TN * WNITER))
#define WSUBM (WM / WMITER)
#define WSUBN (WN / WNITER)
#define RM (WMITER * TM) /* outputs a work-item keeps: RM x RN */
#define RN (WNITER * TN)
#define A_LOADS (BM * BK / 4 / NT) /* float4s of each strip a work-item fetches */
#define B_LOADS (BK * BN / 4 / NT)
#define AS (BM + 4) /* +4 keeps float4 alignment and spreads the transposed writes of A over the banks */

#if TM % 4 || TN % 4 || (BM * BK / 4) % NT || (BK * BN / 4) % NT || (WSUBN / TN) * (WSUBM / TM) != 32
#error "inconsistent matmul_warptile parameters"
#endif

/* Four floats from p, each zero where its flag (bit q for p[q]) is clear. */
static float4 masked4(const __global float *p, int flags)
{
    return (float4)(flags & 1 ? p[0] : 0.0f, flags & 2 ? p[1] : 0.0f, flags & 4 ? p[2] : 0.0f, flags & 8 ? p[3] : 0.0f);
}

/* Bits 0 to 3: which of the four elements from (row, col) along a row lie inside a rows x cols matrix. */
static int inside4(int rows, int cols, int row, int col)
{
    return row < rows ? (col < cols) | (col + 1 < cols) << 1 | (col + 2 < cols) << 2 | (col + 3 < cols) << 3 : 0;
}

/* This work-item's float4s of the strips at k0: A's rows brow.., B's columns bcol..; with edges, element by element
   and zero outside the matrices (from the same addresses, so that the edge code costs few registers). */
static void fetch(const __global float *A, const __global float *B, int M, int N, int K, int brow, int bcol, int k0,
                  int tid, int edges, float4 *pa, float4 *pb)
{
#pragma unroll
    for (int l = 0; l < A_LOADS; l++) {
        int e = tid + l * NT, r = brow + e / (BK / 4), k = k0 + e % (BK / 4) * 4;
        const __global float *p = A + (size_t)r * K + k;
        pa[l] = edges ? masked4(p, inside4(M, K, r, k)) : *(const __global float4 *)p;
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; l++) {
        int e = tid + l * NT, k = k0 + e / (BN / 4), c = bcol + e % (BN / 4) * 4;
        const __global float *p = B + (size_t)k * N + c;
        pb[l] = edges ? masked4(p, inside4(K, N, k, c)) : *(const __global float4 *)p;
    }
}

/* The fetched float4s into local strips: A's transposed, four words apart by a row of the strip; B's as they are. */
static void stage(__local float *as, __local float *bs, int tid, const float4 *pa, const float4 *pb)
{
#pragma unroll
    for (int l = 0; l < A_LOADS; l++) {
        int e = tid + l * NT, r = e / (BK / 4), k = e % (BK / 4) * 4;
        as[k * AS + r] = pa[l].x;
        as[(k + 1) * AS + r] = pa[l].y;
        as[(k + 2) * AS + r] = pa[l].z;
        as[(k + 3) * AS + r] = pa[l].w;
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; l++) {
        int e = tid + l * NT;
        *(__local float4 *)(bs + e / (BN / 4) * BN + e % (BN / 4) * 4) = pb[l];
    }
}

/* acc += this work-item's part of strip A (as, at its first row) times strip B (bs, at its first column). */
static void multiply(const __local float *as, const __local float *bs, float acc[RM][RN])
{
    float a[RM], b[RN];
#pragma unroll
    for (int k = 0; k < BK; k++) {
#pragma unroll
        for (int i = 0; i < RM; i += 4) {
            float4 v = *(const __local float4 *)(as + k * AS + i / TM * WSUBM + i % TM);
            a[i] = v.x, a[i + 1] = v.y, a[i + 2] = v.z, a[i + 3] = v.w;
        }
#pragma unroll
        for (int j = 0; j < RN; j += 4) {
            float4 v = *(const __local float4 *)(bs + k * BN + j / TN * WSUBN + j % TN);
            b[j] = v.x, b[j + 1] = v.y, b[j + 2] = v.z, b[j + 3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < RM; i++)
#pragma unroll
            for (int j = 0; j < RN; j++)
                acc[i][j] = fma(a[i], b[j], acc[i][j]);
    }
}

/* The work-item's outputs, its first at (row0, col0): float4 stores when the block lies inside C (inside), else
   element by element. */
static void write_c(__global float *C, int M, int N, int row0, int col0, int inside, float acc[RM][RN])
{
#pragma unroll
    for (int i = 0; i < RM; i++)
#pragma unroll
        for (int j = 0; j < RN; j += 4) {
            int row = row0 + i / TM * WSUBM + i % TM, col = col0 + j / TN * WSUBN + j % TN;
            __global float *c = C + (size_t)row * N + col;
            if (inside) {
                *(__global float4 *)c = (float4)(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    if (row < M && col + q < N)
                        c[q] = acc[i][j + q];
            }
        }
}

/* acc = the work-item's outputs of the block at (brow, bcol): strips of A and B double buffered in as and bs, the
   next fetched into registers while this one is multiplied, one barrier a strip. row, col: the work-item's first
   row and column in the block. edges: some of the block lies outside the matrices or is not float4-aligned. */
static void product(const __global float *A, const __global float *B, int M, int N, int K, int brow, int bcol,
                    int row, int col, __local float *as, __local float *bs, int edges, float acc[RM][RN])
{
    const int tid = get_local_id(0);
    float4 pa[A_LOADS], pb[B_LOADS];
    fetch(A, B, M, N, K, brow, bcol, 0, tid, edges, pa, pb);
    stage(as, bs, tid, pa, pb);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k0 = 0, buf = 0; k0 < K; k0 += BK, buf ^= 1) {
        const int more = k0 + BK < K;
        if (more)
            fetch(A, B, M, N, K, brow, bcol, k0 + BK, tid, edges, pa, pb); /* in flight during the multiply */
        multiply(as + buf * BK * AS + row, bs + buf * BK * BN + col, acc);
        if (more)
            stage(as + (buf ^ 1) * BK * AS, bs + (buf ^ 1) * BK * BN, tid, pa, pb);
        /* The buffer written above was last read before the previous barrier. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

__kernel __attribute__((reqd_work_group_size(NT, 1, 1)))
void matmul_warptile(__global const float *A, __global const float *B, __global float *C, const int M, const int N,
                     const int K)
{
    __local float4 a_strips[2 * BK * AS / 4], b_strips[2 * BK * BN / 4]; /* float4: aligned for float4 reads */
    __local float *as = (__local float *)a_strips, *bs = (__local float *)b_strips;
    const int warp = get_local_id(0) / 32, lane = get_local_id(0) % 32;
    const int brow = get_group_id(1) * BM, bcol = get_group_id(0) * BN;
    /* The work-item's first row and column within the block: its warp's sub-block, then its place in the warp. */
    const int row = warp / (BN / WN) * WM + lane / (WSUBN / TN) * TM;
    const int col = warp % (BN / WN) * WN + lane % (WSUBN / TN) * TN;
    /* The same for the whole work-group, so the barriers within are reached by all or none. */
    const int inside = K % BK == 0 && N % 4 == 0 && brow + BM <= M && bcol + BN <= N;
    float acc[RM][RN];
#pragma unroll
    for (int i = 0; i < RM; i++)
#pragma unroll
        for (int j = 0; j < RN; j++)
            acc[i][j] = 0.0f;
    product(A, B, M, N, K, brow, bcol, row, col, as, bs, !inside, acc);
    write_c(C, M, N, brow + row, bcol + col, inside, acc);
}
