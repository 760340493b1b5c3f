#include "problem.h"

#include "conv2d.h"
#include "data.h"
#include "histogram.h"
#include "reference.h"
#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Input lengths and result length of a problem, from its kind and dims. */
static void lengths_of(struct clk_problem *p)
{
    size_t *d = p->dims;
    p->input_count = p->kind == CLK_PROBLEM_TRANSPOSE || p->kind == CLK_PROBLEM_HISTOGRAM ||
                                   p->kind == CLK_PROBLEM_SCAN
                       ? 1
                       : 2;
    switch (p->kind) {
    case CLK_PROBLEM_VADD:
    case CLK_PROBLEM_DOT:
        p->input_lengths[0] = p->input_lengths[1] = d[0];
        p->length = p->kind == CLK_PROBLEM_DOT ? 1 : d[0];
        break;
    case CLK_PROBLEM_MATMUL:
        p->input_lengths[0] = d[0] * d[2];
        p->input_lengths[1] = d[2] * d[1];
        p->length = d[0] * d[1];
        break;
    case CLK_PROBLEM_TRANSPOSE:
        p->input_lengths[0] = p->length = d[0] * d[1];
        break;
    case CLK_PROBLEM_CONV2D:
        p->input_lengths[0] = p->length = d[0] * d[1];
        p->input_lengths[1] = clk_conv2d_side(d[2]) * clk_conv2d_side(d[2]);
        break;
    case CLK_PROBLEM_HISTOGRAM:
        p->input_lengths[0] = d[0];
        p->length = CLK_HIST_HOST_BINS;
        break;
    case CLK_PROBLEM_SCAN:
        p->input_lengths[0] = p->length = d[0];
        break;
    }
}

/* The reference of p's inputs by its kind. */
static void compute(struct clk_problem *p)
{
    const float *a = p->inputs[0], *b = p->inputs[1];
    switch (p->kind) {
    case CLK_PROBLEM_VADD:
        clk_ref_vadd(a, b, p->dims[0], p->expected, p->bound);
        break;
    case CLK_PROBLEM_DOT:
        clk_ref_dot(a, b, p->dims[0], p->expected, p->bound);
        p->bound[0] *= 2.0; /* the host adds the partial sums in its own order: one more rounding each */
        break;
    case CLK_PROBLEM_MATMUL:
        clk_ref_matmul(a, b, p->dims[0], p->dims[1], p->dims[2], p->expected, p->bound);
        break;
    case CLK_PROBLEM_TRANSPOSE:
        clk_ref_transpose(a, p->dims[0], p->dims[1], p->expected, p->bound);
        break;
    case CLK_PROBLEM_CONV2D:
        clk_ref_conv2d(a, p->dims[0], p->dims[1], b, p->dims[2], p->expected, p->bound);
        break;
    case CLK_PROBLEM_HISTOGRAM: /* counts: exact */
        clk_hist_count((const uint32_t *)(const void *)a, p->dims[0], CLK_HIST_HOST_BINS, p->expected);
        for (size_t v = 0; v < CLK_HIST_HOST_BINS; v++)
            p->bound[v] = 0.0;
        break;
    case CLK_PROBLEM_SCAN: /* uint sums: exact */
        clk_scan_exclusive((const uint32_t *)(const void *)a, p->dims[0], p->expected);
        for (size_t i = 0; i < p->length; i++)
            p->bound[i] = 0.0;
        break;
    }
}

int clk_problem_make(enum clk_problem_kind kind, const size_t *dims, uint64_t seed, struct clk_problem *p)
{
    static const char *const names[] = {"the first input", "the second input"};
    memset(p, 0, sizeof *p);
    p->kind = kind;
    memcpy(p->dims, dims, (kind == CLK_PROBLEM_MATMUL || kind == CLK_PROBLEM_CONV2D ? 3 : kind == CLK_PROBLEM_TRANSPOSE ? 2 : 1) * sizeof *dims);
    lengths_of(p);
    for (int i = 0; i < p->input_count; i++) {
        if (!(p->inputs[i] = malloc((p->input_lengths[i] ? p->input_lengths[i] : 1) * sizeof(float)))) {
            fprintf(stderr, "error: out of host memory for %s (%zu elements)\n", names[i], p->input_lengths[i]);
            clk_problem_free(p);
            return -1;
        }
        if (kind == CLK_PROBLEM_HISTOGRAM)
            clk_hist_fill((uint32_t *)(void *)p->inputs[i], p->input_lengths[i], seed, (unsigned)i,
                          CLK_HIST_HOST_BINS, CLK_HIST_UNIFORM);
        else if (kind == CLK_PROBLEM_SCAN)
            clk_scan_fill((uint32_t *)(void *)p->inputs[i], p->input_lengths[i], seed, (unsigned)i, 0);
        else
            clk_fill_real(p->inputs[i], p->input_lengths[i], seed, (unsigned)i);
    }
    p->expected = malloc((p->length ? p->length : 1) * sizeof *p->expected);
    p->bound = malloc((p->length ? p->length : 1) * sizeof *p->bound);
    if (!p->expected || !p->bound) {
        fprintf(stderr, "error: out of host memory for the reference (%zu elements)\n", p->length);
        clk_problem_free(p);
        return -1;
    }
    compute(p);
    return 0;
}

void clk_problem_free(struct clk_problem *p)
{
    for (int i = 0; i < 2; i++)
        free(p->inputs[i]);
    free(p->expected);
    free(p->bound);
    memset(p, 0, sizeof *p);
}

size_t clk_problem_reference(enum clk_problem_kind kind, const size_t *dims, uint64_t seed, double **expected,
                             double **bound)
{
    struct clk_problem p;
    size_t length;
    *expected = *bound = NULL;
    if (clk_problem_make(kind, dims, seed, &p) != 0)
        return 0;
    *expected = p.expected;
    *bound = p.bound;
    length = p.length;
    p.expected = p.bound = NULL;
    clk_problem_free(&p);
    return length;
}
