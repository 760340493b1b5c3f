/* The kernel families that the lab specs are built from. */
#ifndef CLKIT_GRADER_FAMILIES_H
#define CLKIT_GRADER_FAMILIES_H

#include "labs/spec.h"

extern const struct grade_family grade_family_vadd;         /* c = a + b */
extern const struct grade_family grade_family_dot_partials; /* one partial dot product per work-item */
extern const struct grade_family grade_family_dot_groups;   /* one partial dot product per work-group */
extern const struct grade_family grade_family_matmul;       /* C = A B over a 2-D NDRange */
extern const struct grade_family grade_family_matmul_warptile; /* the same, 256 work-items a 128 x 256 block */
extern const struct grade_family grade_family_matmul_swapped; /* C = A B with dimension 0 down the rows */
extern const struct grade_family grade_family_transpose;    /* out = in transposed over a 2-D NDRange */
extern const struct grade_family grade_family_transpose_wide; /* the same, 32 x 8 work-groups over 32 x 32 blocks */
extern const struct grade_family grade_family_conv2d;      /* out = in convolved with a __constant filter */
extern const struct grade_family grade_family_conv2d_separable; /* the same, the filter as its two 1-D factors */

#endif
