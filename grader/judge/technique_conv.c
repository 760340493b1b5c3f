/* Lab 9's technique check: the image through a halo tile, the filter from __constant memory. */
#include "judge/technique.h"

#include <stdio.h>

int technique_judge_halo(const struct grade_case *s, const struct technique_counts *c, char *text, size_t size)
{
    double outputs = (double)s->dims[0] * s->dims[1], R = (double)s->dims[2], taps = (2 * R + 1) * (2 * R + 1);
    double halo = s->tile + 2 * R, budget = halo * halo / ((double)s->tile * s->tile);
    double global_per_output = c->global_loads / outputs, constant_per_output = c->constant_loads / outputs;
    /* Without the count of __constant loads, a filter read from there is counted among the global loads. */
    if (c->global_loads == 0 || c->constant_loads < 0)
        return -1;
    snprintf(text, size, "global loads: %.2f per output (naive: up to %.0f image and %.0f filter; budget: <= %.2f, "
             "the halo tile's (TILE + 2R)^2 / TILE^2 with TILE %d, R %.0f), for a %zux%zu image\n"
             "__constant loads: %.1f per output (the filter read from constant memory: up to %.0f; from __global: 0)",
             global_per_output, taps, taps, budget, s->tile, R, s->dims[0], s->dims[1], constant_per_output, taps);
    return global_per_output <= budget && c->constant_loads > 0;
}
