/* Lab 9: a 2-D convolution whose work-groups stage a halo tile in local memory and read the filter from __constant. */
#include "labs/families.h"
#include "labs/shapes.h"
#include "labs/technique.h"

/* dims: H, W, R. Ragged sizes, 1-wide images both ways, images smaller than a tile and smaller than the filter, and
   R from 0 to 29, the largest whose halo tile under TILE 32, (32 + 2R)^2 floats, fits the 32 KiB of local memory
   that every OpenCL device has. */
static const struct grade_case shapes[] = {
    {.dims = {1, 1, 0}, .local = {16}},    {.dims = {1, 1, 3}, .local = {16}},     {.dims = {16, 16, 1}, .local = {16}},
    {.dims = {17, 13, 2}, .local = {16}},  {.dims = {5, 3, 4}, .local = {16}},     {.dims = {1, 100, 2}, .local = {16}},
    {.dims = {100, 1, 2}, .local = {16}},  {.dims = {3, 200, 1}, .local = {16}},   {.dims = {33, 70, 7}, .local = {16}},
    {.dims = {6, 5, 29}, .local = {16}},   {.dims = {40, 37, 0}, .local = {16}},   {.dims = {127, 129, 3}, .local = {16}},
    {.dims = {300, 257, 2}, .local = {16}}, {.dims = {1024, 768, 4}, .local = {16}},
};
static const struct grade_shape_set shape_set = {.shapes = shapes, .count = GRADE_COUNT(shapes)};

static const struct grade_technique technique = {
    .name = "halo tile",
    .needs = TECHNIQUE_NEEDS_GLOBAL_LOADS,
    .judge = technique_judge_halo,
    .shape = {.dims = {64, 48, 2}, .local = {16}, .tile = 16},
    .explanation = "each work-group stages its tile and the filter's halo in local memory once, and reads "
                   "the filter through __constant",
};

const struct grade_lab_spec lab9_spec = {
    .name = "lab9",
    .title = "convolution with a halo tile",
    .kernel_file = "conv2d.cl",
    .kernel_name = "conv2d",
    .family = &grade_family_conv2d,
    .shapes = &shape_set,
    .tilings = shapes_square_tiles,
    .host_size = "517x259x3",
    .host_small = "37x23x2",
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "conv2d_naive.cl",
             .baseline_kernel = "conv2d_naive",
             .baseline_family = &grade_family_conv2d,
             .baseline_name = "naive convolution",
             .size = GRADE_SIZE_IMAGE,
             .radius = 2,
             .local = 16,
             .handout = "HANDOUT.md#lab-9-convolution-with-a-halo-tile"},
    .technique = &technique,
};
