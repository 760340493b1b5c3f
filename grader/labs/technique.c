/* The technique judges of labs 2 and 4 to 8, and what every technique needs counted. */
#include "labs/technique.h"

#include <stdio.h>

/* Tiled loads may exceed 2K/TILE a little (edge tiles, an extra bounds load); a naive kernel needs TILE times more. */
#define TILE_MARGIN 1.25
/* With 16-wide work-groups a warp spans two rows: 2 transactions per request is the best a coalesced kernel
   does; the bad mapping costs about 16. */
#define COALESCED_BUDGET 4.0
/* With 16-wide work-groups a warp spans two tile rows: a padded tile costs 2 bank passes per access on average,
   an unpadded one 4.5 (a column read costs 8). */
#define BANK_BUDGET 3.0

int technique_measured(const struct grade_technique *t, const struct technique_counts *c)
{
    if ((t->needs & TECHNIQUE_NEEDS_GLOBAL_ACCESS) && c->global_loads == 0 && c->global_stores == 0)
        return 0;
    if ((t->needs & TECHNIQUE_NEEDS_GLOBAL_LOADS) && c->global_loads == 0)
        return 0;
    if ((t->needs & TECHNIQUE_NEEDS_GLOBAL_STORES) && c->global_stores == 0)
        return 0;
    return !(t->needs & TECHNIQUE_NEEDS_WARP_REQUESTS) || (c->load_requests != 0 && c->store_requests != 0);
}

int technique_judge_one_store(const struct grade_case *s, const struct technique_counts *c, char *text, size_t size)
{
    snprintf(text, size, "global stores: %.0f for %zu elements (one per element; a loop that steps by the "
             "work-group size instead of the grid writes each element once per work-group)",
             c->global_stores, s->dims[0]);
    return c->global_stores <= (double)s->dims[0];
}

int technique_judge_group_partials(const struct grade_case *s, const struct technique_counts *c, char *text,
                                   size_t size)
{
    double items = (double)s->groups * s->local[0];
    snprintf(text, size, "global stores: %.0f for %zu work-groups (naive dot: %.0f, one per work-item); "
             "local memory: %.0f stores, %.0f loads",
             c->global_stores, s->groups, items, c->local_stores, c->local_loads);
    return c->global_stores == (double)s->groups && c->local_stores > 0 && c->local_loads > 0;
}

int technique_judge_coalescing(const struct grade_case *s, const struct technique_counts *c, char *text,
                               size_t size)
{
    double reads = c->load_transactions / c->load_requests, writes = c->store_transactions / c->store_requests;
    (void)s;
    snprintf(text, size, "128-byte transactions per warp request: reads %.1f, writes %.1f (the swapped mapping: "
             "about 4.5 and 16; budget: <= %.0f each)",
             reads, writes, COALESCED_BUDGET);
    return reads <= COALESCED_BUDGET && writes <= COALESCED_BUDGET;
}

int technique_judge_tile_reuse(const struct grade_case *s, const struct technique_counts *c, char *text,
                               size_t size)
{
    double outputs = (double)s->dims[0] * s->dims[1], K = (double)s->dims[2];
    double per_output = c->global_loads / outputs, budget = TILE_MARGIN * 2.0 * K / s->tile;
    snprintf(text, size, "global loads: %.2f per output element (naive: %.0f, budget: <= %.1f for %zux%zux%zu "
             "with TILE %d)",
             per_output, 2.0 * K, budget, s->dims[0], s->dims[1], s->dims[2], s->tile);
    return per_output <= budget;
}

/* Every element through local memory (by work-items or async_work_group_copy), the writes coalesced, and the tile
   read without bank conflicts (the padding). */
int technique_judge_local_staging(const struct grade_case *s, const struct technique_counts *c, char *text,
                                  size_t size)
{
    double elements = (double)s->dims[0] * s->dims[1];
    double writes = c->store_requests > 0 ? c->store_transactions / c->store_requests : 1.0;
    double banks = c->local_requests > 0 ? c->local_wavefronts / c->local_requests : 0.0;
    int staged = c->local_stores >= elements && c->local_loads >= elements;
    snprintf(text, size, "local memory: %.0f stores and %.0f loads for %.0f elements (naive: 0; staged: at least "
             "one of each per element)\nwrites: %.1f 128-byte transactions per warp request (naive: 16; budget: "
             "<= %.0f)\nlocal memory: %.1f bank passes per warp access (padded 16-wide tile: 2, unpadded: 4.5; budget: <= %.0f)",
             c->local_stores, c->local_loads, elements, writes, COALESCED_BUDGET, banks, BANK_BUDGET);
    return staged && writes <= COALESCED_BUDGET && banks <= BANK_BUDGET;
}

/* Each value read from local memory feeds WPT products (2 loads per FMA without registers, 2/WPT with them), and
   each element of A and B comes from global memory once per TILE-wide block (2K/TILE per output). */
int technique_judge_register_block(const struct grade_case *s, const struct technique_counts *c, char *text,
                                   size_t size)
{
    double outputs = (double)s->dims[0] * s->dims[1], K = (double)s->dims[2], fmas = outputs * K;
    double local_per_fma = c->local_loads / fmas, local_budget = TILE_MARGIN * 2.0 / s->wpt;
    double global_per_output = c->global_loads / outputs, global_budget = TILE_MARGIN * 2.0 * K / s->tile;
    snprintf(text, size, "local memory: %.2f loads per multiply-add (one output per work-item: 2; budget: <= %.2f "
             "with WPT %d)\nglobal loads: %.2f per output element (naive: %.0f; budget: <= %.2f with TILE %d), for "
             "%zux%zux%zu",
             local_per_fma, local_budget, s->wpt, global_per_output, 2.0 * K, global_budget, s->tile, s->dims[0],
             s->dims[1], s->dims[2]);
    return local_per_fma <= local_budget && global_per_output <= global_budget;
}
