/* Lab 3: a dot product, one grid-stride partial sum per work-item. */
#include "labs/families.h"
#include "labs/shapes.h"

const struct grade_lab_spec lab3_spec = {
    .name = "lab3",
    .title = "naive dot product",
    .kernel_file = "dot.cl",
    .kernel_name = "dot_naive",
    .family = &grade_family_dot_partials,
    .shapes = &shapes_grid_stride,
    .host_size = "100003",
    .host_small = "1000",
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2},
    .perf = {.size = GRADE_SIZE_VECTOR,
             .local = 256,
             .groups = 1024,
             .handout = "HANDOUT.md#lab-3-a-naive-dot-product"},
};
