/* What the 1-D and 2-D kernel families share (families/parts.c), so that each family's file holds its own kernel
   alone. */
#ifndef CLKIT_GRADER_FAMILY_PARTS_H
#define CLKIT_GRADER_FAMILY_PARTS_H

#include "labs/spec.h"

#include <stddef.h>

/* Sets launch's result count and allocates its reference (expected values and bounds) unless the case has none (a
   timing case); returns 0, or -1 when memory runs out. */
int family_alloc_reference(const struct grade_case *c, struct grade_launch *launch, size_t count);

/* The same for a rows x cols matrix result, whose shape the mismatch map draws. */
int family_alloc_matrix(const struct grade_case *c, struct grade_launch *launch, size_t rows, size_t cols);

/* Zero bounds for an exact case (any error is a bug); returns 0, or -1 when memory runs out. */
int family_exact_bounds(const struct grade_case *c, struct grade_launch *launch);

/* The work-groups of a 1-D case: its own count, else enough to cover n, capped at default_cap (0: no cap). */
size_t family_groups_for(const struct grade_case *c, size_t default_cap);

/* A 1-D NDRange of groups work-groups of local work-items. */
void family_set_1d(struct grade_launch *launch, size_t groups, size_t local);

/* Describes a 1-D case: its data, n, work-group and grid. */
void family_describe_1d(const struct grade_case *c, char *text, size_t size);

/* A 2-D NDRange over x by y outputs, a tile (or work-group side) of outputs per work-group. */
void family_set_2d(struct grade_launch *launch, const struct grade_case *c, size_t x, size_t y);

/* Describes a 2-D case: its data, what (the sizes), its tiling or work-group. */
void family_describe_2d(const struct grade_case *c, const char *what, char *text, size_t size);

#endif
