#include "scan.h"

#include "data.h"
#include "files.h"
#include "options.h"
#include "timing.h"

#include <stdio.h>

uint32_t clk_scan_value(uint64_t seed, unsigned stream, size_t index, int small)
{
    /* One splitmix64 step of (seed, stream, index): every element drawn alone, with no state to carry. */
    uint64_t state = seed * 0xbf58476d1ce4e5b9ull + ((uint64_t)stream << 40) + index;
    uint64_t bits = clk_random_next(&state);
    return small ? (uint32_t)(bits >> 60) : (uint32_t)(bits >> 32);
}

void clk_scan_fill(uint32_t *values, size_t n, uint64_t seed, unsigned stream, int small)
{
    for (size_t i = 0; i < n; i++)
        values[i] = clk_scan_value(seed, stream, i, small);
}

void clk_scan_exclusive(const uint32_t *values, size_t n, double *sums)
{
    uint32_t running = 0;
    for (size_t i = 0; i < n; i++) {
        sums[i] = (double)running;
        running += values[i];
    }
}

int clk_scan_verdict(const char *what, const struct clk_options *opts, const uint32_t *result, const double *expected,
                     size_t n, double ms)
{
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if ((double)result[i] != expected[i] && wrong++ == 0)
            first = i;
    if (opts->out && clk_write_floats(opts->out, (const float *)(const void *)result, n) != 0)
        return 1;
    if (wrong == 0) {
        printf("PASS %s: %.3f ms, %.2f GB/s\n", what, ms, clk_gbps(2.0 * (double)n * sizeof(uint32_t), ms));
        return 0;
    }
    printf("FAIL %s: %zu of %zu elements wrong; first at %zu: expected %.0f, got %u\n", what, wrong, n, first,
           expected[first], result[first]);
    return 1;
}
