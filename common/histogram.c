#include "histogram.h"

#include "data.h"
#include "files.h"
#include "options.h"
#include "timing.h"

#include <stdio.h>

/* One splitmix64 step of (seed, stream, index): independent draws for every element, with no state to carry. */
static uint64_t draw(uint64_t seed, unsigned stream, uint64_t index)
{
    uint64_t state = seed * 0x9e3779b97f4a7c15ull + ((uint64_t)stream << 32) + index;
    return clk_random_next(&state);
}

uint32_t clk_hist_value(uint64_t seed, unsigned stream, size_t index, uint32_t nbins, enum clk_hist_kind kind)
{
    /* The hot bin of the skewed and one-value inputs: the same for every element of one input. */
    uint32_t hot = nbins ? (uint32_t)(draw(seed, stream, UINT64_MAX) % nbins) : 0;
    uint64_t bits = draw(seed, stream, index);
    if (nbins == 0)
        return 0;
    if (kind == CLK_HIST_SAME || (kind == CLK_HIST_SKEWED && (bits >> 61) != 0))
        return hot;
    return (uint32_t)(bits % nbins);
}

void clk_hist_fill(uint32_t *values, size_t n, uint64_t seed, unsigned stream, uint32_t nbins,
                   enum clk_hist_kind kind)
{
    for (size_t i = 0; i < n; i++)
        values[i] = clk_hist_value(seed, stream, i, nbins, kind);
}

void clk_hist_count(const uint32_t *values, size_t n, uint32_t nbins, double *counts)
{
    for (uint32_t v = 0; v < nbins; v++)
        counts[v] = 0.0;
    for (size_t i = 0; i < n; i++)
        if (values[i] < nbins)
            counts[values[i]] += 1.0;
}

size_t clk_hist_wrong(const uint32_t *result, const double *expected, size_t nbins, size_t *first)
{
    size_t wrong = 0;
    *first = 0;
    for (size_t v = 0; v < nbins; v++)
        if ((double)result[v] != expected[v] && wrong++ == 0)
            *first = v;
    return wrong;
}

int clk_hist_verdict(const char *what, const struct clk_options *opts, const uint32_t *bins, const double *expected,
                     size_t nbins, size_t n, double ms)
{
    size_t first, wrong = clk_hist_wrong(bins, expected, nbins, &first);
    if (opts->out && clk_write_floats(opts->out, (const float *)(const void *)bins, nbins) != 0)
        return 1;
    if (wrong == 0) {
        printf("PASS %s: %.3f ms, %.2f GB/s\n", what, ms, clk_gbps((double)n * sizeof(uint32_t), ms));
        return 0;
    }
    printf("FAIL %s: %zu of %zu bins wrong; first at bin %zu: expected %.0f, got %u\n", what, wrong, nbins, first,
           expected[first], bins[first]);
    return 1;
}
