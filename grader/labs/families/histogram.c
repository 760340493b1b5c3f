/* The histogram family (lab 10): uint data in, uint bins out, compared exactly. The kernel adds into bins, which
   the grader hands it holding the poison: the result is what the kernel added to it. */
#include "labs/families_hist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMING_BINS 256

size_t hist_bins(const struct grade_case *c)
{
    return c->dims[2] ? c->dims[2] / 4 : TIMING_BINS;
}

static enum clk_hist_kind hist_kind(const struct grade_case *c)
{
    return c->dims[2] ? (enum clk_hist_kind)(c->dims[2] % 4) : CLK_HIST_SKEWED;
}

size_t hist_groups(const struct grade_case *c)
{
    return c->groups ? c->groups : (c->dims[0] + c->local[0] - 1) / c->local[0];
}

/* Exact and real cases of one shape get different data (stream 0 and 1); both are integers. */
static void fill_kind(const struct grade_launch *launch, int i, float *values, enum clk_hist_kind kind)
{
    clk_hist_fill((uint32_t *)(void *)values, launch->counts[i], launch->input_seed, launch->input_exact ? 0 : 1,
                  (uint32_t)launch->ints[1], kind);
}

static void fill_uniform(const struct grade_launch *launch, int i, float *values)
{
    fill_kind(launch, i, values, CLK_HIST_UNIFORM);
}

static void fill_skewed(const struct grade_launch *launch, int i, float *values)
{
    fill_kind(launch, i, values, CLK_HIST_SKEWED);
}

static void fill_same(const struct grade_launch *launch, int i, float *values)
{
    fill_kind(launch, i, values, CLK_HIST_SAME);
}

static void (*const fills[])(const struct grade_launch *, int, float *) = {
    [CLK_HIST_UNIFORM] = fill_uniform, [CLK_HIST_SKEWED] = fill_skewed, [CLK_HIST_SAME] = fill_same,
};

static int hist_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t n = c->dims[0], nbins = hist_bins(c), groups = hist_groups(c);
    launch->ints[launch->int_count++] = (int)n; /* before the data: the fill reads nbins from ints[1] */
    launch->ints[launch->int_count++] = (int)nbins;
    launch->fill = fills[hist_kind(c)];
    launch->output_accumulates = 1;
    if (labs_add_typed_buffer(launch, "data", n, 0, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "bins", nbins, 1, COMPARE_UINT, c, seed))
        return -1;
    launch->local_bytes = nbins * sizeof(uint32_t);
    launch->work_dims = 1;
    launch->local[0] = c->local[0];
    launch->global[0] = groups * c->local[0];
    launch->shape.count = nbins;
    if (c->no_reference)
        return 0;
    /* Counts are exact: a zero bound everywhere. */
    launch->expected = calloc(nbins, sizeof(double));
    launch->bound = calloc(nbins, sizeof(double));
    if (!launch->expected || !launch->bound)
        return -1;
    clk_hist_count((const uint32_t *)(const void *)launch->host[0], n, (uint32_t)nbins, launch->expected);
    return 0;
}

/* What the kernel added to each bin: the bins came in holding the poison's bits. */
static void hist_finish(const struct grade_launch *launch, const float *output, float *result)
{
    for (size_t v = 0; v < launch->shape.count; v++) {
        uint32_t word;
        memcpy(&word, &output[v], sizeof word);
        word -= COMPARE_POISON_BITS;
        memcpy(&result[v], &word, sizeof word);
    }
}

static void hist_describe(const struct grade_case *c, char *text, size_t size)
{
    static const char *const kinds[] = {
        [CLK_HIST_UNIFORM] = "uniform", [CLK_HIST_SKEWED] = "skewed (7 in 8 in one bin)",
        [CLK_HIST_SAME] = "all one value",
    };
    size_t items = hist_groups(c) * c->local[0];
    snprintf(text, size, "%s n=%zu, %zu bin%s, %s data, local %zu, %zu work-items%s",
             c->data == GRADE_EXACT ? "exact" : "real", c->dims[0], hist_bins(c), hist_bins(c) == 1 ? "" : "s",
             kinds[hist_kind(c)], c->local[0], items, items < c->dims[0] ? " (grid-stride)" : "");
}

/* The bytes read; the bins are few. */
static double hist_bytes(const struct grade_case *c)
{
    return (double)sizeof(uint32_t) * c->dims[0];
}

static size_t hist_length(const struct grade_case *c)
{
    return hist_bins(c);
}

/* The timed run's check draws many bins of one case: its histogram is counted once, from single inputs. */
static void hist_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected, double *bound)
{
    static struct {
        uint64_t seed;
        size_t n, nbins, kind;
        double *counts;
    } last;
    size_t nbins = hist_bins(c);
    *bound = 0.0;
    if (!last.counts || last.seed != seed || last.n != c->dims[0] || last.nbins != nbins ||
        last.kind != (size_t)hist_kind(c)) {
        free(last.counts);
        last.counts = calloc(nbins, sizeof(double));
        last.seed = seed, last.n = c->dims[0], last.nbins = nbins, last.kind = (size_t)hist_kind(c);
        for (size_t i = 0; last.counts && i < c->dims[0]; i++) /* the stream as fill_kind draws it */
            last.counts[clk_hist_value(seed, c->data == GRADE_EXACT ? 0 : 1, i, (uint32_t)nbins, hist_kind(c))] += 1;
    }
    *expected = last.counts && index < nbins ? last.counts[index] : -1.0;
}

const struct grade_family grade_family_histogram = {
    .prepare = hist_prepare,
    .finish = hist_finish,
    .describe = hist_describe,
    .problem = CLK_PROBLEM_HISTOGRAM,
    .probe_file = "probe_histogram.cl",
    .dim_count = 1,
    .work = hist_bytes,
    .result_type = COMPARE_UINT,
    .result_length = hist_length,
    .spot = hist_spot,
};
