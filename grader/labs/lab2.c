/* Lab 2: vector add over a grid-stride loop, on grids far smaller and larger than n. */
#include "labs/families.h"
#include "labs/shapes.h"
#include "labs/technique.h"

static const struct grade_technique technique = {
    .name = "one store",
    .needs = TECHNIQUE_NEEDS_GLOBAL_STORES,
    .judge = technique_judge_one_store,
    .shape = {.dims = {4096}, .local = {64}, .groups = 4},
    .explanation = "a grid-stride loop steps by the whole grid, so each element is stored once, whatever the "
                   "grid",
};

const struct grade_lab_spec lab2_spec = {
    .name = "lab2",
    .title = "grid-stride add",
    .kernel_file = "vadd_stride.cl",
    .kernel_name = "vadd_stride",
    .family = &grade_family_vadd,
    .shapes = &shapes_grid_stride,
    .host_size = "1000003",
    .host_small = "1000",
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 2},
    .perf = {.size = GRADE_SIZE_VECTOR,
             .local = 256,
             .groups = 1024,
             .handout = "HANDOUT.md#lab-2-grid-stride-loops"},
    .technique = &technique,
};
