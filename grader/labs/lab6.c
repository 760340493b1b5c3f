/* Lab 6: a matrix product whose work-groups stage TILE x TILE blocks of A and B in local memory. */
#include "labs/families.h"
#include "labs/shapes.h"
#include "labs/technique.h"

static const struct grade_technique technique = {
    .name = "tile reuse",
    .needs = TECHNIQUE_NEEDS_GLOBAL_LOADS,
    .judge = technique_judge_tile_reuse,
    .shape = {.dims = {32, 32, 32}, .local = {16}, .tile = 16},
    .explanation = "each element of A and B is loaded from global memory once per TILE-wide tile, about "
                   "2K/TILE loads per output",
};

const struct grade_lab_spec lab6_spec = {
    .name = "lab6",
    .title = "tiled matmul",
    .kernel_file = "matmul_tiled.cl",
    .kernel_name = "matmul_tiled",
    .family = &grade_family_matmul,
    .shapes = &shapes_matmul,
    .tilings = shapes_square_tiles,
    .host_size = "129x65x33",
    .host_small = "37x23x19",
    .host_grid_covers = 1,
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "matmul_naive.cl",
             .baseline_kernel = "matmul_naive",
             .baseline_family = &grade_family_matmul,
             .baseline_name = "naive matmul",
             .size = GRADE_SIZE_MATMUL,
             .local = 16,
             .handout = "HANDOUT.md#lab-6-tiled-matrix-multiply"},
    .technique = &technique,
};
