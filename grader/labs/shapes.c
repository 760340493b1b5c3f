#include "labs/shapes.h"

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static const struct grade_case grid_stride[] = {
    {.dims = {1}, .local = {64}, .groups = 1},         {.dims = {13}, .local = {64}, .groups = 1},
    {.dims = {64}, .local = {64}, .groups = 1},        {.dims = {65}, .local = {64}, .groups = 1},
    {.dims = {1000}, .local = {32}, .groups = 3},      {.dims = {100003}, .local = {64}, .groups = 7},
    {.dims = {1 << 20}, .local = {256}, .groups = 16}, {.dims = {100}, .local = {64}, .groups = 4},
    {.dims = {(1 << 24) + 3}, .local = {256}, .groups = 64, .exact_only = 1}, /* past 2^24 */
};
const struct grade_shape_set shapes_grid_stride = {.shapes = grid_stride, .count = COUNT(grid_stride)};

static const struct grade_case matmul[] = {
    {.dims = {1, 1, 1}, .local = {16}},     {.dims = {16, 16, 16}, .local = {16}},
    {.dims = {17, 17, 17}, .local = {16}},  {.dims = {17, 13, 7}, .local = {16}},
    {.dims = {7, 33, 5}, .local = {16}},    {.dims = {1, 100, 37}, .local = {16}},
    {.dims = {130, 70, 1}, .local = {16}},  {.dims = {127, 129, 131}, .local = {16}},
    {.dims = {256, 192, 160}, .local = {16}},
    /* Small enough for the reference judge: three tiles or more along M, N and K, the last partial, at TILE 8 and
       16; and one work-group that walks three strips of 32 along K (TILE 32, and TILE 128, whose strips can be no
       wider), and one that walks three of 64 (TILE 64) (runlab's structural sample). */
    {.dims = {19, 21, 23}, .local = {16}},  {.dims = {35, 37, 39}, .local = {16}},
    {.dims = {5, 7, 67}, .local = {16}},    {.dims = {5, 7, 131}, .local = {16}},
};
const struct grade_shape_set shapes_matmul = {.shapes = matmul, .count = COUNT(matmul)};

static const struct grade_case transpose[] = {
    {.dims = {1, 1}, .local = {16}},     {.dims = {16, 16}, .local = {16}},  {.dims = {17, 17}, .local = {16}},
    {.dims = {17, 13}, .local = {16}},   {.dims = {1, 100}, .local = {16}},  {.dims = {100, 1}, .local = {16}},
    {.dims = {127, 129}, .local = {16}}, {.dims = {1000, 3}, .local = {16}}, {.dims = {1024, 768}, .local = {16}},
    {.dims = {67, 69}, .local = {16}}, /* three tiles or more each way under every tile, for the reference judge */
};
const struct grade_shape_set shapes_transpose = {.shapes = transpose, .count = COUNT(transpose)};

const struct grade_tiling shapes_square_tiles[] = {{.tile = 8}, {.tile = 16}, {.tile = 32}, {0}};

const struct grade_tiling shapes_register_tiles[] = {
    {.tile = 16, .wpt = 1}, {.tile = 32, .wpt = 2}, {.tile = 64, .wpt = 4}, {.tile = 128, .wpt = 8}, {0},
};
