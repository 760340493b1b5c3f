/* Warp-tiled SGEMM, C = A B, row-major, M, N multiples of BM, BN and K of BK. Parameters by -D:
   BM x BN block per work-group, BK strip, WM x WN block per warp, WNITER x WMITER sub-blocks of TM x TN per
   work-item (the sub-blocks WSUBM, WSUBN apart so a warp's reads of local memory cover consecutive words).
   DB=1: two local buffers, the next strip fetched into registers while the current one is multiplied. */
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 16
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 32
#endif
#ifndef TM
#define TM 4
#endif
#ifndef TN
#define TN 4
#endif
#ifndef WNITER
#define WNITER 2
#endif
#ifndef DB
#define DB 1
#endif
#ifndef APAD
#define APAD 4
#endif
#ifndef BPAD
#define BPAD 0
#endif
#ifndef SWZ
#define SWZ 0
#endif
#ifndef VL
#define VL 0
#endif
#if VL
#define LDG4(p) vload4(0, (p))
#define LDS4(p) vload4(0, (p))
#else
#define LDG4(p) (*(const __global float4 *)(p))
#define LDS4(p) (*(const __local float4 *)(p))
#endif
#define NWARPS ((BM / WM) * (BN / WN))
#define NT (NWARPS * 32)
#define WMITER ((WM * WN) / (32 * TM * TN * WNITER))
#define WSUBM (WM / WMITER)
#define WSUBN (WN / WNITER)
#define NBUF (DB ? 2 : 1)
#define A_LOADS (BM * BK / 4 / NT)   /* float4 per work-item per strip */
#define B_LOADS (BK * BN / 4 / NT)
#define AS (BM + APAD)
#define BS (BN + BPAD)

#if TM % 4 || TN % 4 || (BM * BK / 4) % NT || (BK * BN / 4) % NT || (WSUBN / TN) * (WSUBM / TM) != 32
#error "inconsistent sgemm parameters"
#endif

__kernel __attribute__((reqd_work_group_size(NT, 1, 1)))
void sgemm(__global const float *A, __global const float *B, __global float *C, const int M, const int N,
           const int K)
{
    __local float4 As4[NBUF * BK * AS / 4];
    __local float4 Bs4[NBUF * BK * BS / 4];
    __local float *As = (__local float *)As4, *Bs = (__local float *)Bs4;
    const int tid = get_local_id(0), warp = tid / 32, lane = tid % 32;
    const int wrow = warp / (BN / WN), wcol = warp % (BN / WN);
    const int trow = lane / (WSUBN / TN), tcol = lane % (WSUBN / TN);
#if SWZ
    /* Consecutive work-groups walk down SWZ block rows before moving right, so the strips they share stay in L2. */
    const int nx = get_num_groups(0), ny = get_num_groups(1), lin = get_group_id(1) * nx + get_group_id(0);
    const int first = lin / (SWZ * nx) * SWZ, rows = min(ny - first, SWZ), in = lin % (SWZ * nx);
    const int brow = (first + in % rows) * BM, bcol = in / rows * BN;
#else
    const int brow = get_group_id(1) * BM, bcol = get_group_id(0) * BN;
#endif
    const __global float *a = A + (size_t)brow * K;
    const __global float *b = B + bcol;
    float acc[WMITER * TM][WNITER * TN];
    float ra[WMITER * TM], rb[WNITER * TN];
    float4 pa[A_LOADS], pb[B_LOADS];
    (void)M;
#pragma unroll
    for (int i = 0; i < WMITER * TM; i++)
#pragma unroll
        for (int j = 0; j < WNITER * TN; j++)
            acc[i][j] = 0.0f;

#define FETCH(t)                                                                                         \
    for (int l = 0; l < A_LOADS; l++) {                                                \
        int e = tid + l * NT, r = e / (BK / 4), c = e % (BK / 4);                                        \
        pa[l] = LDG4(a + (size_t)r * K + (t) + c * 4);                                              \
    }                                                                                                    \
    for (int l = 0; l < B_LOADS; l++) {                                                \
        int e = tid + l * NT, r = e / (BN / 4), c = e % (BN / 4);                                        \
        pb[l] = LDG4(b + (size_t)((t) + r) * N + c * 4);                                            \
    }
#define STORE(buf)                                                                                       \
    for (int l = 0; l < A_LOADS; l++) {                                                \
        int e = tid + l * NT, r = e / (BK / 4), c = e % (BK / 4);                                        \
        __local float *s = As + (buf) * BK * AS + c * 4 * AS + r;                                        \
        s[0] = pa[l].x; s[AS] = pa[l].y; s[2 * AS] = pa[l].z; s[3 * AS] = pa[l].w;                       \
    }                                                                                                    \
    for (int l = 0; l < B_LOADS; l++) {                                                \
        int e = tid + l * NT, r = e / (BN / 4), c = e % (BN / 4);                                        \
        *(__local float4 *)(Bs + (buf) * BK * BS + r * BS + c * 4) = pb[l];                                        \
    }

    FETCH(0)
    STORE(0)
    barrier(CLK_LOCAL_MEM_FENCE);
    const int arow = wrow * WM + trow * TM, bc = wcol * WN + tcol * TN;
    int buf = 0;
    for (int t = 0; t < K; t += BK) {
#if DB
        if (t + BK < K) {
            FETCH(t + BK)
        }
#endif
        const __local float *as = As + buf * BK * AS + arow;
        const __local float *bs = Bs + buf * BK * BS + bc;
#pragma unroll
        for (int k = 0; k < BK; k++) {
#pragma unroll
            for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
                for (int i = 0; i < TM; i += 4) {
                    float4 v = LDS4(as + k * AS + wm * WSUBM + i);
                    ra[wm * TM + i] = v.x; ra[wm * TM + i + 1] = v.y;
                    ra[wm * TM + i + 2] = v.z; ra[wm * TM + i + 3] = v.w;
                }
#pragma unroll
            for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    float4 v = LDS4(bs + k * BS + wn * WSUBN + j);
                    rb[wn * TN + j] = v.x; rb[wn * TN + j + 1] = v.y;
                    rb[wn * TN + j + 2] = v.z; rb[wn * TN + j + 3] = v.w;
                }
#pragma unroll
            for (int i = 0; i < WMITER * TM; i++)
#pragma unroll
                for (int j = 0; j < WNITER * TN; j++)
                    acc[i][j] = fma(ra[i], rb[j], acc[i][j]);
        }
#if DB
        if (t + BK < K) {
            STORE(buf ^ 1)
        }
        buf ^= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
#else
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t + BK < K) {
            FETCH(t + BK)
            STORE(0)
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
    }
#pragma unroll
    for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    int row = brow + arow + wm * WSUBM + i, col = bcol + bc + wn * WSUBN + j;
                    float4 v = (float4)(acc[wm * TM + i][wn * TN + j], acc[wm * TM + i][wn * TN + j + 1],
                                        acc[wm * TM + i][wn * TN + j + 2], acc[wm * TM + i][wn * TN + j + 3]);
                    *(__global float4 *)(C + (size_t)row * N + col) = v;
                }
}
