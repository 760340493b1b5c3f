/* Lab 8: register-blocked matrix multiply. A work-group computes a TILE x TILE block of C; each work-item keeps a
   WPT x WPT block of it in private registers, so every value it reads from local memory feeds WPT products. */
#ifndef TILE
#define TILE 64
#endif
#ifndef WPT
#define WPT 4
#endif
#define TK 16            /* the step along K: each pass stages a TILE x TK strip of A and a TK x TILE strip of B */
#define SIDE (TILE / WPT) /* work-items a side of the work-group */

__kernel void matmul_reg(__global const float *A, __global const float *B, __global float *C,
                         const int M, const int N, const int K)
{
    /* TODO(student): the work-group is SIDE x SIDE work-items and computes one TILE x TILE block of C.
       1. Declare a private float acc[WPT][WPT], all zero, and two __local strips: TK x TILE of A (stored
          transposed, [k][row], so that both strips are read along a row) and TK x TILE of B.
       2. Walk t = 0, TK, 2 TK, ... along K. The SIDE x SIDE work-items share the TILE x TK loads of each strip
          (a loop stepping by SIDE * SIDE), with zero where a strip hangs over an edge of A or B; then barrier.
       3. For each k of the strip: read WPT values of A (rows ty, ty + SIDE, ...) and WPT of B (columns tx,
          tx + SIDE, ...) into private arrays, and add their WPT x WPT products into acc. Barrier again.
       4. Write each acc[i][j] to row row0 + ty + i * SIDE, column col0 + tx + j * SIDE of C if it is inside C. */
}
