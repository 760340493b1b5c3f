/* Lab 9: a 2-D convolution whose work-groups stage a halo tile in local memory and read the filter from __constant;
   each work-item computes WPT x WPT outputs of its work-group's TILE x TILE block. */
#include "labs/families.h"
#include "labs/shapes.h"
#include "labs/technique.h"

/* dims: H, W, R. Ragged sizes, 1-wide images both ways, images smaller than a tile and smaller than the filter, and
   R from 0 to 13, the largest whose halo tile under TILE 64, (64 + 2R)^2 floats, fits the 32 KiB of local memory
   that every OpenCL device has; widths a multiple of 4 and not (a kernel may load aligned rows as float4). 40x37 has
   R 1: the reference judge's cheapest case of three tiles each way at TILE 16 then has halos meeting between tiles
   (a halo's missing corners show there). */
static const struct grade_case shapes[] = {
    {.dims = {1, 1, 0}, .local = {16}},    {.dims = {1, 1, 3}, .local = {16}},     {.dims = {16, 16, 1}, .local = {16}},
    {.dims = {17, 13, 2}, .local = {16}},  {.dims = {5, 3, 4}, .local = {16}},     {.dims = {1, 100, 2}, .local = {16}},
    {.dims = {100, 1, 2}, .local = {16}},  {.dims = {3, 200, 1}, .local = {16}},   {.dims = {33, 70, 7}, .local = {16}},
    {.dims = {6, 5, 13}, .local = {16}},   {.dims = {40, 37, 1}, .local = {16}},   {.dims = {127, 129, 3}, .local = {16}},
    {.dims = {300, 257, 2}, .local = {16}}, {.dims = {1024, 768, 4}, .local = {16}}, {.dims = {70, 132, 1}, .local = {16}},
    {.dims = {65, 68, 3}, .local = {16}},   {.dims = {131, 200, 2}, .local = {16}},
};
/* Square tiles of TILE x TILE outputs; WPT x WPT outputs a work-item, (TILE / WPT)^2 work-items a work-group. */
static const struct grade_tiling tilings[] = {{.tile = 16, .wpt = 1}, {.tile = 32, .wpt = 2}, {.tile = 64, .wpt = 4}, {0}};
/* A kernel that never uses WPT computes one output a work-item, the classic form (other courses' and public
   repositories' kernels): it is graded with WPT 1 only, TILE 16 giving the device's largest work-group (256, as every
   tiling above) and TILE 32 the reference judge's (1024) and a second TILE; R <= 13 stays within a tile, so an
   edge work-item can load the halo beside it. Its cases have the same shapes, so the same structure (several tiles
   along each dimension, partial edge tiles, images smaller than a tile), and the same tests and points. */
static const struct grade_tiling one_output[] = {{.tile = 16, .wpt = 1}, {.tile = 32, .wpt = 1}, {0}};
static const struct grade_contract contracts[] = {
    {.name = "WPT x WPT outputs a work-item", .uses = "WPT", .tilings = tilings, .measured = {.tile = 64, .wpt = 4}},
    {.name = "one output a work-item (the kernel never uses WPT)", .tilings = one_output,
     .measured = {.tile = 16, .wpt = 1}},
    {0},
};
static const struct grade_shape_set shape_set = {.shapes = shapes, .count = GRADE_COUNT(shapes)};

static const struct grade_technique technique = {
    .name = "halo tile",
    .needs = TECHNIQUE_NEEDS_GLOBAL_LOADS,
    .judge = technique_judge_halo,
    .shape = {.dims = {128, 72, 2}, .local = {16}, .tile = 64, .wpt = 4},
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
    .tilings = tilings,
    .host_size = "517x259x3",
    .host_small = "37x23x2",
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "conv2d_naive.cl",
             .baseline_kernel = "conv2d_naive",
             .baseline_family = &grade_family_conv2d,
             .baseline_name = "naive convolution",
             .size = GRADE_SIZE_IMAGE,
             .radius = 2,
             .tiling = {.tile = 64, .wpt = 4},
             .local = 16,
             .handout = "HANDOUT.md#lab-9-convolution-with-a-halo-tile",
             .further = {.file = "conv_separable.cl",
                         .kernel = "conv_separable",
                         .family = &grade_family_conv2d_separable}},
    .technique = &technique,
    .contracts = contracts,
};
