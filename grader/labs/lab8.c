/* Lab 8: a matrix product blocked in registers: each work-item computes WPT x WPT outputs of its work-group's
   TILE x TILE block, from strips of A and B staged in local memory. */
#include "labs/families.h"
#include "labs/shapes.h"
#include "labs/technique.h"

static const struct grade_technique technique = {
    .name = "register blocking",
    .needs = TECHNIQUE_NEEDS_GLOBAL_LOADS,
    .judge = technique_judge_register_block,
    .shape = {.dims = {64, 64, 32}, .local = {16}, .tile = 64, .wpt = 4},
    .explanation = "each work-item keeps WPT x WPT outputs in registers, so each value read from local "
                   "memory feeds WPT multiply-adds",
};

const struct grade_lab_spec lab8_spec = {
    .name = "lab8",
    .title = "register-blocked matmul",
    .kernel_file = "matmul_reg.cl",
    .kernel_name = "matmul_reg",
    .family = &grade_family_matmul,
    .shapes = &shapes_matmul,
    .tilings = shapes_register_tiles,
    .host_size = "129x65x33",
    .host_small = "37x23x19",
    .host_grid_covers = 1,
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "matmul_tiled.cl",
             .baseline_kernel = "matmul_tiled",
             .baseline_family = &grade_family_matmul,
             .baseline_name = "tiled matmul",
             .tiling = {.tile = 64, .wpt = 4},
             .size = GRADE_SIZE_MATMUL,
             .local = 16,
             .handout = "HANDOUT.md#lab-8-register-blocked-matrix-multiply",
             .further = {.file = "matmul_warptile.cl",
                         .kernel = "matmul_warptile",
                         .family = &grade_family_matmul_warptile}},
    .technique = &technique,
};
