/* Lab 11's kernel family, the exclusive scan of uint values by three kernels in sequence, and its baseline's. */
#ifndef CLKIT_GRADER_FAMILIES_SCAN_H
#define CLKIT_GRADER_FAMILIES_SCAN_H

#include "labs/spec.h"

/* The lab's three kernels, in launch order (the contract in labs/lab11/scan.cl). Each work-group of L work-items
   owns a block of 2L elements: scan_blocks scans each block (exclusive) into out and writes its total to sums[g];
   scan_sums, one work-group, replaces sums with their exclusive scan; add_offsets adds sums[g] to block g of out.
   Exact cases hold values below 16; real cases any 32-bit word, whose sums wrap modulo 2^32. */
extern const struct grade_family grade_family_scan;

/* The baseline: a Hillis-Steele scan over the whole array, one launch per doubling of the offset (log2 n + 1
   launches of kernels/scan_naive.cl), ping-ponging between two buffers. */
extern const struct grade_family grade_family_scan_naive;

/* A scan case's work-groups: one per block of 2 x local elements (at least one). */
size_t scan_groups(const struct grade_case *c);

#endif
