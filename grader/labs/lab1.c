/* Lab 1: vector add, one work-item per element; the host program's twelve steps. */
#include "labs/families.h"

/* Sizes of 1, small primes, exactly one work-group, one past it, a large prime and a large power of two. */
static const struct grade_case shapes[] = {
    {.dims = {1}, .local = {64}},      {.dims = {2}, .local = {64}},     {.dims = {13}, .local = {64}},
    {.dims = {64}, .local = {64}},     {.dims = {65}, .local = {64}},    {.dims = {1000}, .local = {32}},
    {.dims = {100003}, .local = {64}}, {.dims = {1 << 20}, .local = {256}},
    {.dims = {(1 << 24) + 3}, .local = {256}, .exact_only = 1}, /* past 2^24: an index through a float fails */
};
static const struct grade_shape_set shape_set = {.shapes = shapes, .count = GRADE_COUNT(shapes)};

const struct grade_lab_spec lab1_spec = {
    .name = "lab1",
    .title = "vector add",
    .kernel_file = "vadd.cl",
    .kernel_name = "vadd",
    .family = &grade_family_vadd,
    .shapes = &shape_set,
    .host_size = "100003",
    .host_small = "1000",
    .host_grid_covers = 1,
    .points = {.exact = 3, .real = 2, .memory = 2, .host = 3},
    .perf = {.size = GRADE_SIZE_VECTOR,
             .local = 256,
             .handout = "HANDOUT.md#lab-1-vector-add-and-the-twelve-host-steps"},
};
