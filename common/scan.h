/* Lab 11's data: uint values drawn from a seed (small ones, or any 32-bit word so that the sums wrap), their
   exclusive prefix sums modulo 2^32, and a host program's exact check of a scan. Shared by the host programs
   (common/problem.c) and the grader. */
#ifndef CLKIT_SCAN_H
#define CLKIT_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* The value element index of a scan input holds, from (seed, stream), computed alone: below 16 when small (the
   sums stay far from 2^32), else any 32-bit word (a few thousand of them wrap past 2^32). */
uint32_t clk_scan_value(uint64_t seed, unsigned stream, size_t index, int small);

/* Fills values[0..n) with clk_scan_value of each index. */
void clk_scan_fill(uint32_t *values, size_t n, uint64_t seed, unsigned stream, int small);

/* The exclusive scan: sums[i] = values[0] + ... + values[i - 1] modulo 2^32 (uint arithmetic wraps), sums[0] = 0; as
   doubles, for the grader's reference. */
void clk_scan_exclusive(const uint32_t *values, size_t n, double *sums);

struct clk_options;

/* A scan host program's verdict: checks result against expected exactly, prints PASS (with the time and GB/s of
   reading and writing n uints once) or FAIL (with the first wrong element), writes --out as uint words; returns
   the exit status. */
int clk_scan_verdict(const char *what, const struct clk_options *opts, const uint32_t *result, const double *expected,
                     size_t n, double ms);

#endif
