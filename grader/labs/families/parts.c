/* What the 1-D and 2-D kernel families share: the reference's allocation, the exact cases' bounds, the NDRange and
   the case's description. */
#include "labs/families/parts.h"

#include "text.h"

#include <stdio.h>
#include <stdlib.h>

/* Timing cases skip the reference: a 2^26-element one would cost a gigabyte and seconds. */
int family_alloc_reference(const struct grade_case *c, struct grade_launch *launch, size_t count)
{
    launch->shape.count = count;
    if (c->no_reference)
        return 0;
    launch->expected = calloc(count, sizeof(double));
    launch->bound = calloc(count, sizeof(double));
    return launch->expected && launch->bound ? 0 : -1;
}

/* Exact cases hold small integers, whose float sums are exact: any error at all is a bug. The zero bounds are a
   fresh calloc, whose untouched pages a 2^24-element case does not hold in memory. */
int family_exact_bounds(const struct grade_case *c, struct grade_launch *launch)
{
    if (c->data != GRADE_EXACT || !launch->bound)
        return 0;
    free(launch->bound);
    launch->bound = calloc(launch->shape.count ? launch->shape.count : 1, sizeof(double));
    return launch->bound ? 0 : -1;
}

size_t family_groups_for(const struct grade_case *c, size_t default_cap)
{
    size_t cover = (c->dims[0] + c->local[0] - 1) / c->local[0];
    if (c->groups)
        return c->groups;
    return default_cap && cover > default_cap ? default_cap : cover;
}

void family_set_1d(struct grade_launch *launch, size_t groups, size_t local)
{
    launch->work_dims = 1;
    launch->local[0] = local;
    launch->global[0] = groups * local;
}

void family_describe_1d(const struct grade_case *c, char *text, size_t size)
{
    size_t items = family_groups_for(c, 64) * c->local[0];
    snprintf(text, size, "%s n=%zu, local %zu, %zu work-items%s", c->data == GRADE_EXACT ? "exact" : "real",
             c->dims[0], c->local[0], items,
             !c->groups && items < c->dims[0] ? ": the grid is capped below n, so each work-item needs a grid-stride "
                                               "loop" : "");
}

/* A 2-D NDRange over x by y outputs: work-groups of side x side work-items, each work-group covering a block of
   block x block outputs (a tile; without one, the work-group's own side). */
void family_set_2d(struct grade_launch *launch, const struct grade_case *c, size_t x, size_t y)
{
    size_t side = c->tile ? labs_tiling_side(c->tile, c->wpt) : c->local[0];
    size_t block = c->tile ? (size_t)c->tile : side;
    launch->work_dims = 2;
    launch->local[0] = launch->local[1] = side;
    launch->global[0] = (x + block - 1) / block * side;
    launch->global[1] = (y + block - 1) / block * side;
}

int family_alloc_matrix(const struct grade_case *c, struct grade_launch *launch, size_t rows, size_t cols)
{
    launch->shape.rows = rows;
    launch->shape.cols = cols;
    return family_alloc_reference(c, launch, rows * cols);
}

void family_describe_2d(const struct grade_case *c, const char *what, char *text, size_t size)
{
    snprintf(text, size, "%s %s", c->data == GRADE_EXACT ? "exact" : "real", what);
    if (c->tile)
        clk_append(text, size, ", TILE %d", c->tile);
    if (c->wpt)
        clk_append(text, size, ", WPT %d", c->wpt);
    else
        clk_append(text, size, ", local %zux%zu", c->local[0], c->local[0]);
}
