/* A lab's problem as every program makes it from --size and --seed: its inputs and their CPU reference. The host
   programs and the grader make them here, so that what a host program checks is what the grader expects. */
#ifndef CLKIT_PROBLEM_H
#define CLKIT_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

enum clk_problem_kind {
    CLK_PROBLEM_VADD,     /* dims: n; c = a + b */
    CLK_PROBLEM_DOT,      /* dims: n; the dot product a.b, as a host adds partial sums */
    CLK_PROBLEM_MATMUL,   /* dims: M, N, K; C (MxN) = A (MxK) B (KxN), row-major */
    CLK_PROBLEM_TRANSPOSE, /* dims: rows, cols; out (cols x rows) = in transposed */
    CLK_PROBLEM_CONV2D,    /* dims: H, W, R; out (HxW) = in (HxW) convolved with a (2R+1)^2 filter (common/conv2d.h) */
    CLK_PROBLEM_HISTOGRAM, /* dims: n; bins[v] counts the n uint values (input 0's words) equal to v, v below
                              CLK_HIST_HOST_BINS (common/histogram.h) */
    CLK_PROBLEM_SCAN       /* dims: n; out[i] = in[0] + ... + in[i - 1] modulo 2^32, the exclusive scan of n 32-bit
                              uint words (input 0's), whose sums wrap (common/scan.h) */
};

struct clk_problem {
    enum clk_problem_kind kind;
    size_t dims[3];
    float *inputs[2];        /* input i holds clk_fill_real(..., seed, i); a histogram's, uint words */
    size_t input_lengths[2];
    int input_count;
    double *expected, *bound; /* the reference result and each element's error bound */
    size_t length;            /* elements in the result */
};

/* Makes problem p of kind at dims from seed: inputs and reference; returns 0, or -1 after printing what could not
   be allocated. */
int clk_problem_make(enum clk_problem_kind kind, const size_t *dims, uint64_t seed, struct clk_problem *p);

/* Frees what clk_problem_make allocated; safe on a zeroed problem. */
void clk_problem_free(struct clk_problem *p);

/* The reference alone, handed over in *expected and *bound for the caller to free, the inputs freed; returns its
   length, or 0 when memory runs out. (The host-program probe's reference is the judge's alone: judge/host_probe.h.) */
size_t clk_problem_reference(enum clk_problem_kind kind, const size_t *dims, uint64_t seed, double **expected,
                             double **bound);

#endif
