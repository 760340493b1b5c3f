/* Lab 7: a transpose through a padded tile in local memory, coalesced on both sides. */
#include "labs/families.h"
#include "labs/shapes.h"
#include "labs/technique.h"

static const struct grade_technique technique = {
    .name = "local staging",
    .needs = TECHNIQUE_NEEDS_GLOBAL_ACCESS,
    .judge = technique_judge_local_staging,
    .shape = {.dims = {64, 48}, .local = {16}, .tile = 16},
    .explanation = "the tile is staged through padded local memory, so both the reads and the writes are "
                   "coalesced and the tile is read without bank conflicts",
};

const struct grade_lab_spec lab7_spec = {
    .name = "lab7",
    .title = "transpose",
    .kernel_file = "transpose.cl",
    .kernel_name = "transpose",
    .family = &grade_family_transpose,
    .shapes = &shapes_transpose,
    .tilings = shapes_square_tiles,
    .host_size = "517x259",
    .host_small = "37x23",
    .host_grid_covers = 1,
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "transpose_naive.cl",
             .baseline_kernel = "transpose_naive",
             .baseline_family = &grade_family_transpose,
             .baseline_name = "naive transpose",
             .size = GRADE_SIZE_TRANSPOSE,
             .local = 16,
             .handout = "HANDOUT.md#lab-7-transpose-through-a-padded-tile",
             .further = {.file = "transpose_wide.cl",
                         .kernel = "transpose_wide",
                         .family = &grade_family_transpose_wide}},
    .technique = &technique,
};
