/* A picture of a matrix result for the report: one character per block of elements, right, wrong, never written,
   or written outside the matrix, so that a missing edge or a swapped index shows at a glance. */
#ifndef CLKIT_GRADER_MISMATCH_H
#define CLKIT_GRADER_MISMATCH_H

#include "wire/compare.h"

#include <stddef.h>
#include <stdint.h>

#define MISMATCH_MAX_COLS 32
#define MISMATCH_MAX_ROWS 16

/* The marks a cell may hold; the terminal report colours them. */
#define MISMATCH_RIGHT '.'
#define MISMATCH_WRONG 'X'
#define MISMATCH_NEVER 'o'
#define MISMATCH_OUTSIDE '!'

/* Every row of a map starts with this, which is how the report finds the rows to colour. */
#define MISMATCH_ROW "map |"

/* The words around an output buffer: guard words each side, filled with bits before the launch (before or after
   NULL: no zone that side). */
struct mismatch_guards {
    const float *before, *after;
    size_t words;
    uint32_t bits;
};

/* Returns 1 when a map can be drawn for shape (a 2-D result with more than one element). */
int mismatch_applies(const struct compare_shape *shape);

/* Appends to text the map of got (shape's rows x cols) against expected +- bound: a heading with the cell size, the
   rows of cells (a cell is wrong when any element in it is, never written when all its wrong elements still hold
   the poison), a row above or below for guard words that were written, and the legend. */
void mismatch_draw(const float *got, const double *expected, const double *bound, const struct compare_shape *shape,
                   const struct mismatch_guards *guards, char *text, size_t size);

#endif
