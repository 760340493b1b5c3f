/* The kernel families: how each kind of lab kernel is fed, launched and checked. */
#include "labs/families.h"

#include "data.h"
#include "problem.h"
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* Timing cases skip the reference: a 2^26-element one would cost a gigabyte and seconds. */
static int alloc_reference(const struct grade_case *c, struct grade_launch *launch, size_t count)
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
static int exact_bounds(const struct grade_case *c, struct grade_launch *launch)
{
    if (c->data != GRADE_EXACT || !launch->bound)
        return 0;
    free(launch->bound);
    launch->bound = calloc(launch->shape.count ? launch->shape.count : 1, sizeof(double));
    return launch->bound ? 0 : -1;
}

static size_t groups_for(const struct grade_case *c, size_t default_cap)
{
    size_t cover = (c->dims[0] + c->local[0] - 1) / c->local[0];
    if (c->groups)
        return c->groups;
    return default_cap && cover > default_cap ? default_cap : cover;
}

static void set_1d(struct grade_launch *launch, size_t groups, size_t local)
{
    launch->work_dims = 1;
    launch->local[0] = local;
    launch->global[0] = groups * local;
}

static void describe_1d(const struct grade_case *c, char *text, size_t size)
{
    size_t items = groups_for(c, 64) * c->local[0];
    snprintf(text, size, "%s n=%zu, local %zu, %zu work-items%s", c->data == GRADE_EXACT ? "exact" : "real",
             c->dims[0], c->local[0], items,
             !c->groups && items < c->dims[0] ? ": the grid is capped below n, so each work-item needs a grid-stride "
                                               "loop" : "");
}

/* --- vadd: c = a + b (labs 1 and 2) --- */

static int vadd_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t n = c->dims[0], groups = groups_for(c, 0);
    if (labs_add_buffer(launch, "a", n, 0, c, seed) || labs_add_buffer(launch, "b", n, 0, c, seed) ||
        labs_add_buffer(launch, "c", n, 1, c, seed) || alloc_reference(c, launch, n))
        return -1;
    launch->ints[launch->int_count++] = (int)n;
    set_1d(launch, groups, c->local[0]);
    if (!c->no_reference)
        clk_ref_vadd(launch->host[0], launch->host[1], n, launch->expected, launch->bound);
    if (exact_bounds(c, launch) != 0)
        return -1;
    launch->shape.block = c->local[0];
    launch->shape.grid = launch->global[0] < n ? launch->global[0] : 0;
    return 0;
}

static void vadd_describe(const struct grade_case *c, char *text, size_t size)
{
    snprintf(text, size, "%s n=%zu, local %zu, %zu work-items", c->data == GRADE_EXACT ? "exact" : "real",
             c->dims[0], c->local[0], groups_for(c, 0) * c->local[0]);
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
    size_t groups = groups_for(c, 64), global = groups * c->local[0];
    if (dot_inputs(c, seed, launch, global) || alloc_reference(c, launch, global))
        return -1;
    set_1d(launch, groups, c->local[0]);
    if (!c->no_reference)
        clk_ref_dot_partials(launch->host[0], launch->host[1], c->dims[0], global, launch->expected, launch->bound);
    if (exact_bounds(c, launch) != 0)
        return -1;
    launch->shape.block = c->local[0];
    return 0;
}

static int dot_groups_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t groups = groups_for(c, 64);
    if (dot_inputs(c, seed, launch, groups) || alloc_reference(c, launch, 1))
        return -1;
    set_1d(launch, groups, c->local[0]);
    launch->local_bytes = c->local[0] * sizeof(float);
    if (!c->no_reference) {
        clk_ref_dot(launch->host[0], launch->host[1], c->dims[0], launch->expected, launch->bound);
        launch->bound[0] *= 2.0; /* adding the partials on the host rounds once more per partial */
    }
    if (exact_bounds(c, launch) != 0)
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
    return groups_for(c, 64) * c->local[0];
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

const struct grade_family grade_family_dot_partials = {
    .prepare = dot_partials_prepare,
    .describe = describe_1d,
    .problem = CLK_PROBLEM_DOT,
    .dim_count = 1,
    .work = dot_bytes,
    .probe_file = "probe_dot_partials.cl",
    .result_length = dot_partials_length,
    .spot = dot_partials_spot,
};
const struct grade_family grade_family_dot_groups = {
    .prepare = dot_groups_prepare,
    .finish = dot_groups_finish,
    .describe = describe_1d,
    .problem = CLK_PROBLEM_DOT,
    .dim_count = 1,
    .work = dot_bytes,
    .probe_file = "probe_dot_groups.cl",
    .result_length = dot_groups_length,
    .spot = dot_groups_spot,
};
