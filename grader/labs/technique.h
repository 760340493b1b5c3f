/* Techniques as data: what a lab's kernel must do, judged from Oclgrind's counts of one fixed case, the same on
   every device. A lab's spec points at its technique record; adding a technique is one record and its judge
   function, declared here. */
#ifndef CLKIT_GRADER_LABS_TECHNIQUE_H
#define CLKIT_GRADER_LABS_TECHNIQUE_H

#include "labs/spec.h"

#include <stddef.h>

/* Memory accesses of one launch, counted by the kit's Oclgrind plugin (0: not measured). */
struct technique_counts {
    double global_loads, global_stores, local_loads, local_stores;
    /* From the coalescing plugin: warp-wide requests and the 128-byte segments they touch (0: not measured). */
    double load_requests, load_transactions, store_requests, store_transactions;
    /* Local accesses a warp makes together, and the bank passes they need (1 per request: conflict-free). */
    double local_requests, local_wavefronts;
    /* Loads through __constant pointers (-1: the plugin was built without LLVM's headers and cannot tell them). */
    double constant_loads;
    /* Atomic operations on global and local memory (a plugin older than lab 10 counts none). */
    double global_atomics, local_atomics;
};

/* The counts a technique cannot be judged without: when one is 0, the plugin measured nothing for it. */
enum technique_needs {
    TECHNIQUE_NEEDS_GLOBAL_ACCESS = 1 << 0, /* a global load or a global store */
    TECHNIQUE_NEEDS_GLOBAL_LOADS = 1 << 1,
    TECHNIQUE_NEEDS_GLOBAL_STORES = 1 << 2,
    TECHNIQUE_NEEDS_WARP_REQUESTS = 1 << 3 /* the coalescing plugin's warp-wide load and store requests */
};

/* Judges counts of the case shape: fills text with the figures next to their budgets and returns 1 when the
   kernel shows the technique, 0 when it does not. */
typedef int technique_judge_fn(const struct grade_case *shape, const struct technique_counts *counts, char *text,
                               size_t size);

/* A technique test: its name, the counts it needs, its judge, the fixed case it is measured on (exact data), and
   one sentence on what a kernel that shows it does. */
struct grade_technique {
    const char *name;
    unsigned needs; /* enum technique_needs bits */
    technique_judge_fn *judge;
    struct grade_case shape;
    const char *explanation;
};

/* Returns 1 when counts hold every count technique needs, 0 when the plugin measured none of one of them. */
int technique_measured(const struct grade_technique *technique, const struct technique_counts *counts);

/* Lab 2: one global store per element, whatever the grid. */
technique_judge_fn technique_judge_one_store;

/* Lab 4: local memory used, one global store per work-group. */
technique_judge_fn technique_judge_group_partials;

/* Lab 5: few 128-byte segments per warp's load and store. */
technique_judge_fn technique_judge_coalescing;

/* Lab 6: global loads per output element within about 2K/TILE. */
technique_judge_fn technique_judge_tile_reuse;

/* Lab 7: staged through local memory, the writes coalesced, the tile read without bank conflicts. */
technique_judge_fn technique_judge_local_staging;

/* Lab 8: local loads per multiply-add within about 2/WPT, global loads per output within about 2K/TILE. */
technique_judge_fn technique_judge_register_block;

/* Lab 9: global loads per output within the halo tile's budget, the filter read through __constant
   (technique_conv.c). */
technique_judge_fn technique_judge_halo;

/* Lab 10: global atomics at most one per bin per work-group, and local memory used (technique_hist.c). */
technique_judge_fn technique_judge_private_bins;

#endif
