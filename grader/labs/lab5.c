/* Lab 5: a naive matrix product on a 2-D NDRange, with the mapping that coalesces. */
#include "labs/families.h"
#include "labs/shapes.h"
#include "labs/technique.h"

static const struct grade_technique technique = {
    .name = "coalescing",
    .needs = TECHNIQUE_NEEDS_WARP_REQUESTS,
    .judge = technique_judge_coalescing,
    .shape = {.dims = {64, 64, 16}, .local = {16}},
    .explanation = "neighbouring work-items touch neighbouring addresses, so a warp's access spans few "
                   "128-byte segments",
};

const struct grade_lab_spec lab5_spec = {
    .name = "lab5",
    .title = "naive matmul",
    .kernel_file = "matmul.cl",
    .kernel_name = "matmul_naive",
    .family = &grade_family_matmul,
    .shapes = &shapes_matmul,
    .host_size = "129x65x33",
    .host_small = "37x23x19",
    .host_grid_covers = 1,
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "matmul_naive.cl",
             .baseline_kernel = "matmul_swapped",
             .baseline_family = &grade_family_matmul_swapped,
             .baseline_name = "the swapped mapping",
             .size = GRADE_SIZE_MATMUL,
             .local = 16,
             .cpu_note = "on CPUs, coalescing makes little difference; try a GPU",
             .handout = "HANDOUT.md#lab-5-naive-matrix-multiply-and-coalescing"},
    .technique = &technique,
};
