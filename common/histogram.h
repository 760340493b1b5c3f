/* Lab 10's data: uint values in [0, nbins) drawn from a seed (uniform, skewed into one bin, or all one value), their
   histogram, and the exact check of one. Shared by the host programs (common/problem.c) and the grader. */
#ifndef CLKIT_HISTOGRAM_H
#define CLKIT_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

/* The bins of a host program's problem: 1 KiB of local memory, which every device holds. */
#define CLK_HIST_HOST_BINS 256

enum clk_hist_kind {
    CLK_HIST_UNIFORM, /* every bin equally likely */
    CLK_HIST_SKEWED,  /* seven elements in eight fall in one bin: the contention the lab is about */
    CLK_HIST_SAME     /* every element in one bin */
};

/* The value that element index of a histogram input of that kind holds, from (seed, stream), computed alone: a check
   can draw one element of a large case without making the case. */
uint32_t clk_hist_value(uint64_t seed, unsigned stream, size_t index, uint32_t nbins, enum clk_hist_kind kind);

/* Fills values[0..n) with clk_hist_value of each index. */
void clk_hist_fill(uint32_t *values, size_t n, uint64_t seed, unsigned stream, uint32_t nbins,
                   enum clk_hist_kind kind);

/* Counts values[0..n) into counts[0..nbins) (doubles, for the grader's reference); values past nbins are counted
   nowhere. */
void clk_hist_count(const uint32_t *values, size_t n, uint32_t nbins, double *counts);

/* Returns how many of result[0..nbins) differ from expected, with the first such bin in *first. */
size_t clk_hist_wrong(const uint32_t *result, const double *expected, size_t nbins, size_t *first);

struct clk_options;

/* A histogram host program's verdict: checks bins against expected exactly, prints PASS (with the time and GB/s of
   reading n uints) or FAIL (with the first wrong bin), writes --out as uint words; returns the exit status. */
int clk_hist_verdict(const char *what, const struct clk_options *opts, const uint32_t *bins, const double *expected,
                     size_t nbins, size_t n, double ms);

#endif
