/* Labs 3 and 4's kernel families, the dot product's partial sums. */
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

/* --- dot: partial sums (lab 3: one per work-item; lab 4: one per work-group) --- */

static int dot_inputs(const struct grade_case *c, uint64_t seed, struct grade_launch *launch, size_t partials)
{
    size_t n = c->dims[0];
    if (labs_add_buffer(launch, "a", n, 0, c, seed) || labs_add_buffer(launch, "b", n, 0, c, seed) ||
        labs_add_buffer(launch, "partial", partials, 1, c, seed))
        return -1;
    launch->ints[launch->int_count++] = (int)n;
    return 0;
}

static int dot_partials_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t groups = family_groups_for(c, 64), global = groups * c->local[0];
    if (dot_inputs(c, seed, launch, global) || family_alloc_reference(c, launch, global))
        return -1;
    family_set_1d(launch, groups, c->local[0]);
    if (!c->no_reference)
        clk_ref_dot_partials(launch->host[0], launch->host[1], c->dims[0], global, launch->expected, launch->bound);
    if (family_exact_bounds(c, launch) != 0)
        return -1;
    launch->shape.block = c->local[0];
    return 0;
}

static int dot_groups_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t groups = family_groups_for(c, 64);
    if (dot_inputs(c, seed, launch, groups) || family_alloc_reference(c, launch, 1))
        return -1;
    family_set_1d(launch, groups, c->local[0]);
    launch->local_bytes = c->local[0] * sizeof(float);
    if (!c->no_reference) {
        clk_ref_dot(launch->host[0], launch->host[1], c->dims[0], launch->expected, launch->bound);
        launch->bound[0] *= 2.0; /* adding the partials on the host rounds once more per partial */
    }
    if (family_exact_bounds(c, launch) != 0)
        return -1;
    return 0;
}

static void dot_groups_finish(const struct grade_launch *launch, const float *output, float *result)
{
    double sum = 0.0;
    for (size_t i = 0; i < launch->counts[2]; i++)
        sum += output[i];
    result[0] = (float)sum;
}

/* The bytes read; the partials written are few. */
static double dot_bytes(const struct grade_case *c)
{
    return 2.0 * sizeof(float) * c->dims[0];
}

/* The sum of a[i] b[i] for i = first, first + step, ... below n, drawn input by input, with its bound. */
static void dot_spot_sum(uint64_t seed, size_t n, size_t first, size_t step, double *expected, double *bound)
{
    double sum = 0.0, sum_abs = 0.0;
    size_t terms = 0;
    for (size_t i = first; i < n; i += step, terms++) {
        double product = (double)clk_real_at(seed, 0, i) * (double)clk_real_at(seed, 1, i);
        sum += product;
        sum_abs += fabs(product);
    }
    *expected = sum;
    *bound = clk_sum_bound(terms, sum_abs);
}

static size_t dot_partials_length(const struct grade_case *c)
{
    return family_groups_for(c, 64) * c->local[0];
}

static void dot_partials_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected,
                              double *bound)
{
    dot_spot_sum(seed, c->dims[0], index, dot_partials_length(c), expected, bound);
}

static size_t dot_groups_length(const struct grade_case *c)
{
    (void)c;
    return 1;
}

static void dot_groups_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected,
                            double *bound)
{
    (void)index;
    dot_spot_sum(seed, c->dims[0], 0, 1, expected, bound);
    *bound *= 2.0; /* as in dot_groups_prepare */
}

/* The base record: what a partial per work-item and a partial per work-group share. */
#define DOT_FAMILY .describe = family_describe_1d, .problem = CLK_PROBLEM_DOT, .dim_count = 1, .work = dot_bytes

const struct grade_family grade_family_dot_partials = {
    DOT_FAMILY,
    .prepare = dot_partials_prepare,
    .probe_file = "probe_dot_partials.cl",
    .result_length = dot_partials_length,
    .spot = dot_partials_spot,
};
const struct grade_family grade_family_dot_groups = {
    DOT_FAMILY,
    .prepare = dot_groups_prepare,
    .finish = dot_groups_finish,
    .probe_file = "probe_dot_groups.cl",
    .result_length = dot_groups_length,
    .spot = dot_groups_spot,
};
