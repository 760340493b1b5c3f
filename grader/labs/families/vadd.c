/* Labs 1 and 2's kernel family, the vector add. */
#include "labs/families.h"

#include "labs/families/parts.h"

#include "data.h"
#include "problem.h"
#include "reference.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- vadd: c = a + b (labs 1 and 2) --- */

static int vadd_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t n = c->dims[0], groups = family_groups_for(c, 0);
    if (labs_add_buffer(launch, "a", n, 0, c, seed) || labs_add_buffer(launch, "b", n, 0, c, seed) ||
        labs_add_buffer(launch, "c", n, 1, c, seed) || family_alloc_reference(c, launch, n))
        return -1;
    launch->ints[launch->int_count++] = (int)n;
    family_set_1d(launch, groups, c->local[0]);
    if (!c->no_reference)
        clk_ref_vadd(launch->host[0], launch->host[1], n, launch->expected, launch->bound);
    if (family_exact_bounds(c, launch) != 0)
        return -1;
    launch->shape.block = c->local[0];
    launch->shape.grid = launch->global[0] < n ? launch->global[0] : 0;
    return 0;
}

static void vadd_describe(const struct grade_case *c, char *text, size_t size)
{
    snprintf(text, size, "%s n=%zu, local %zu, %zu work-items", c->data == GRADE_EXACT ? "exact" : "real",
             c->dims[0], c->local[0], family_groups_for(c, 0) * c->local[0]);
}

static double vadd_bytes(const struct grade_case *c)
{
    return 3.0 * sizeof(float) * c->dims[0];
}

static size_t vadd_length(const struct grade_case *c)
{
    return c->dims[0];
}

static void vadd_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected, double *bound)
{
    float a = clk_real_at(seed, 0, index), b = clk_real_at(seed, 1, index);
    (void)c;
    clk_ref_vadd(&a, &b, 1, expected, bound);
}

const struct grade_family grade_family_vadd = {
    .prepare = vadd_prepare,
    .describe = vadd_describe,
    .problem = CLK_PROBLEM_VADD,
    .dim_count = 1,
    .work = vadd_bytes,
    .probe_file = "probe_vadd.cl",
    .result_length = vadd_length,
    .spot = vadd_spot,
};
