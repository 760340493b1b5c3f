/* Case shapes and tiles that several labs share (a lab's own shapes live in its spec file). */
#ifndef CLKIT_GRADER_SHAPES_H
#define CLKIT_GRADER_SHAPES_H

#include "judge/labs.h"

/* Vector lengths launched on grids far smaller than n, and one larger than n (grid-stride labs). */
extern const struct grade_shape_set shapes_grid_stride;

/* Matrix products square and not, multiples of the tile and not, and degenerate 1-wide shapes. */
extern const struct grade_shape_set shapes_matmul;

/* Matrices to transpose: square and not, 1-wide both ways, and shapes that are no multiple of a tile. */
extern const struct grade_shape_set shapes_transpose;

/* The tiles of the tiled labs, 0-terminated: each a square work-group, 32 under the reference judge only where a
   device refuses 1,024 work-items. */
extern const int shapes_square_tiles[];

#endif
