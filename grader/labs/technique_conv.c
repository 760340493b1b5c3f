/* Lab 9's technique check: the image through a halo tile, the filter from __constant memory. */
#include "labs/technique.h"

#include "text.h"

#include <stdio.h>

int technique_judge_halo(const struct grade_case *s, const struct technique_counts *c, char *text, size_t size)
{
    double outputs = (double)s->dims[0] * s->dims[1], R = (double)s->dims[2], taps = (2 * R + 1) * (2 * R + 1);
    double halo = s->tile + 2 * R, budget = halo * halo / ((double)s->tile * s->tile);
    double global_per_output = c->global_loads / outputs, constant_per_output = c->constant_loads / outputs;
    int told_apart = c->constant_loads >= 0;
    /* A plugin built without LLVM's headers counts the filter's __constant loads among the global ones: the halo
       tile is still judged, with the filter's taps added to the budget, and the filter's space is left unjudged
       rather than held against a right kernel. */
    if (!told_apart)
        budget += taps;
    snprintf(text, size, "global loads: %.2f per output (naive: up to %.0f image and %.0f filter; budget: <= %.2f, "
             "the halo tile's (TILE + 2R)^2 / TILE^2%s with TILE %d, R %.0f), for a %zux%zu image",
             global_per_output, taps, taps, budget, told_apart ? "" : " plus the filter's taps", s->tile, R,
             s->dims[0], s->dims[1]);
    if (told_apart)
        clk_append(text, size, "\n__constant loads: %.1f per output (the filter read from constant memory: up to "
                   "%.0f; from __global: 0)", constant_per_output, taps);
    else
        clk_append(text, size, "\n__constant loads: not told apart from global ones (the kit's Oclgrind plugin was "
                   "built without LLVM's headers: install llvm-14-dev, then make), so the filter's address space is "
                   "not checked");
    return global_per_output <= budget && (!told_apart || c->constant_loads > 0);
}
