/* Lab 4: a dot product whose work-groups add their partials in local memory, a tree with barriers. */
#include "labs/families.h"
#include "labs/technique.h"

/* Lengths around one and two work-groups, and large; every power-of-two local size runs each (sweep). */
static const struct grade_case shapes[] = {
    {.dims = {1}},    {.dims = {13}},     {.dims = {256}}, {.dims = {257}},
    {.dims = {4099}}, {.dims = {100003}}, {.dims = {1 << 20}},
};
static const struct grade_shape_set shape_set = {.shapes = shapes, .count = GRADE_COUNT(shapes)};

static const struct grade_technique technique = {
    .name = "group partials",
    .needs = TECHNIQUE_NEEDS_GLOBAL_ACCESS,
    .judge = technique_judge_group_partials,
    .shape = {.dims = {4096}, .local = {64}, .groups = 16},
    .explanation = "each work-group reduces its products in local memory and stores one partial sum to "
                   "global memory",
};

const struct grade_lab_spec lab4_spec = {
    .name = "lab4",
    .title = "local-memory reduction",
    .kernel_file = "reduce.cl",
    .kernel_name = "dot_local",
    .family = &grade_family_dot_groups,
    .shapes = &shape_set,
    .sweep_local_sizes = 1,
    .host_size = "1000003",
    .host_small = "1000",
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "dot_naive.cl",
             .baseline_kernel = "dot_naive",
             .baseline_family = &grade_family_dot_partials,
             .baseline_name = "naive dot",
             .size = GRADE_SIZE_VECTOR,
             .local = 256,
             .groups = 1024,
             .handout = "HANDOUT.md#lab-4-local-memory-and-a-tree-reduction"},
    .technique = &technique,
};
