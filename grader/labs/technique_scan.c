/* Lab 11's technique check: a work-efficient block scan, about 2 additions per element, made in parallel. */
#include "labs/technique.h"

#include "labs/families_scan.h"

#include <stdio.h>

/* Blelloch's sweeps add B - 1 times up and B - 1 times down per block of B: 2 per element, 3 where a kernel adds
   an offset (0 in scan_blocks) on the way out, 1.5 where each work-item adds its pair in registers first and the
   sweeps run over the pairs' sums; Hillis-Steele's doubling adds log2(B) - 1 times per element and more (8 for
   blocks of 512). Hillis-Steele over the pairs' sums (NVIDIA's oclScan: each work-item adds its pair in registers,
   the doubling runs over the L sums) adds log2(L) / 2 times per element: 4 at L = 256, the technique's launch, and
   more with every doubling of the block, which no work-efficient scan does: the budget lies below it. */
#define ADDS_BUDGET 3.5
/* Without LLVM's headers the plugin cannot tell additions: local loads stand in (the sweeps: about 6 per element;
   Hillis-Steele: 2 per pass, about 19). */
#define LOADS_BUDGET 10.0

/* The stand-in: local loads per element, where the additions were not counted. */
static int judge_by_loads(const struct technique_counts *c, double n, double levels, char *text, size_t size)
{
    snprintf(text, size, "scan_blocks: %.2f local loads per element (Blelloch's sweeps: about 6; Hillis-Steele: 2 per "
             "pass, about %.0f; budget: <= %.0f); additions were not counted (the kit's Oclgrind plugin was built "
             "without LLVM's headers: install llvm-14-dev, then make)", c->local_loads / n, 2.0 * levels + 1.0,
             LOADS_BUDGET);
    return c->local_loads > 0 && c->local_loads / n <= LOADS_BUDGET;
}

int technique_judge_work_efficient(const struct grade_case *s, const struct technique_counts *c, char *text,
                                   size_t size)
{
    double n = (double)s->dims[0], block = 2.0 * (double)s->local[0], levels = 0.0;
    double banks = c->local_requests > 0 ? c->local_wavefronts / c->local_requests : 0.0;
    for (double b = block; b > 1.0; b /= 2.0)
        levels++;
    if (c->local_adds < 0)
        return judge_by_loads(c, n, levels, text, size);
    double per_element = c->local_adds / n, item_budget = 4.0 * levels;
    snprintf(text, size, "scan_blocks: %.2f additions of local values per element (Blelloch's sweeps: 1.5 to 3; "
             "Hillis-Steele: log2(%.0f) - 1 = %.0f and more, over the pairs' sums %.0f; budget: <= %.1f); the most "
             "by one work-item: %.0f (the sweeps: 2 log2(B) = %.0f; a serial loop: %.0f; budget: <= %.0f)\nlocal "
             "memory: %.1f bank passes per warp access (measured, not scored: padding the indices brings it near 1)",
             per_element, block, levels - 1.0, (levels - 1.0) / 2.0, ADDS_BUDGET, c->item_adds, 2.0 * levels, block,
             item_budget, banks);
    return c->local_adds > 0 && per_element <= ADDS_BUDGET && c->item_adds <= item_budget;
}
