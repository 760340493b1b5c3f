/* Case shapes and tiles that several labs share (a lab's own shapes live in its spec file). */
#ifndef CLKIT_GRADER_SHAPES_H
#define CLKIT_GRADER_SHAPES_H

#include "labs/spec.h"

/* Vector lengths launched on grids far smaller than n, and one larger than n (grid-stride labs). */
extern const struct grade_shape_set shapes_grid_stride;

/* Matrix products square and not, multiples of the tile and not, and degenerate 1-wide shapes. */
extern const struct grade_shape_set shapes_matmul;

/* Matrices to transpose: square and not, 1-wide both ways, and shapes that are no multiple of a tile. */
extern const struct grade_shape_set shapes_transpose;

/* The tiles of the tiled labs, ended by {0}: each a square work-group of TILE x TILE work-items; 32 (1,024
   work-items, above GRADE_PORTABLE_LOCAL) runs under the reference judge only, on every machine. */
extern const struct grade_tiling shapes_square_tiles[];

/* The register-blocked builds, ended by {0}: TILE x TILE outputs per work-group, WPT x WPT per work-item, so
   every work-group is 16 x 16. */
extern const struct grade_tiling shapes_register_tiles[];

#endif
