#include "judge/technique.h"

#include "judge/sanitize.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tiled loads may exceed 2K/TILE a little (edge tiles, an extra bounds load); a naive kernel needs TILE times more. */
#define TILE_MARGIN 1.25
/* With 16-wide work-groups a warp spans two rows: 2 transactions per request is the best a coalesced kernel
   does; the bad mapping costs about 16. */
#define COALESCED_BUDGET 4.0
/* With 16-wide work-groups a warp spans two tile rows: a padded tile costs 2 bank passes per access on average,
   an unpadded one 4.5 (a column read costs 8). */
#define BANK_BUDGET 3.0

/* Lab 7: every element through local memory (by work-items or async_work_group_copy), the writes coalesced, and
   the tile read without bank conflicts (the padding). */
static int judge_staging(const struct grade_case *s, const struct technique_counts *c, char *text, size_t size)
{
    double elements = (double)s->dims[0] * s->dims[1];
    double writes = c->store_requests > 0 ? c->store_transactions / c->store_requests : 1.0;
    double banks = c->local_requests > 0 ? c->local_wavefronts / c->local_requests : 0.0;
    int staged = c->local_stores >= elements && c->local_loads >= elements;
    if (c->global_loads == 0 && c->global_stores == 0)
        return -1;
    snprintf(text, size, "local memory: %.0f stores and %.0f loads for %.0f elements (naive: 0; staged: at least "
             "one of each per element)\nwrites: %.1f 128-byte transactions per warp request (naive: 16; budget: "
             "<= %.0f)\nlocal memory: %.1f bank passes per warp access (padded 16-wide tile: 2, unpadded: 4.5; budget: <= %.0f)",
             c->local_stores, c->local_loads, elements, writes, COALESCED_BUDGET, banks, BANK_BUDGET);
    return staged && writes <= COALESCED_BUDGET && banks <= BANK_BUDGET;
}

/* Lab 8: each value read from local memory feeds WPT products (2 loads per FMA without registers, 2/WPT with
   them), and each element of A and B comes from global memory once per TILE-wide block (2K/TILE per output). */
static int judge_register_block(const struct grade_case *s, const struct technique_counts *c, char *text,
                                size_t size)
{
    double outputs = (double)s->dims[0] * s->dims[1], K = (double)s->dims[2], fmas = outputs * K;
    double local_per_fma = c->local_loads / fmas, local_budget = TILE_MARGIN * 2.0 / s->wpt;
    double global_per_output = c->global_loads / outputs, global_budget = TILE_MARGIN * 2.0 * K / s->tile;
    if (c->global_loads == 0)
        return -1;
    snprintf(text, size, "local memory: %.2f loads per multiply-add (one output per work-item: 2; budget: <= %.2f "
             "with WPT %d)\nglobal loads: %.2f per output element (naive: %.0f; budget: <= %.2f with TILE %d), for "
             "%zux%zux%zu",
             local_per_fma, local_budget, s->wpt, global_per_output, 2.0 * K, global_budget, s->tile, s->dims[0],
             s->dims[1], s->dims[2]);
    return local_per_fma <= local_budget && global_per_output <= global_budget;
}

int technique_judge(const struct grade_lab_spec *lab, const struct technique_counts *c, char *text, size_t size)
{
    const struct grade_case *s = &lab->technique.shape;
    switch (lab->technique.kind) {
    case TECHNIQUE_GROUP_PARTIALS: {
        if (c->global_loads == 0 && c->global_stores == 0)
            return -1;
        double items = (double)s->groups * s->local[0];
        snprintf(text, size, "global stores: %.0f for %zu work-groups (naive dot: %.0f, one per work-item); "
                 "local memory: %.0f stores, %.0f loads",
                 c->global_stores, s->groups, items, c->local_stores, c->local_loads);
        return c->global_stores == (double)s->groups && c->local_stores > 0 && c->local_loads > 0;
    }
    case TECHNIQUE_TILE_REUSE: {
        double outputs = (double)s->dims[0] * s->dims[1], K = (double)s->dims[2];
        double per_output = c->global_loads / outputs, budget = TILE_MARGIN * 2.0 * K / s->tile;
        if (c->global_loads == 0)
            return -1;
        snprintf(text, size, "global loads: %.2f per output element (naive: %.0f, budget: <= %.1f for %zux%zux%zu "
                 "with TILE %d)",
                 per_output, 2.0 * K, budget, s->dims[0], s->dims[1], s->dims[2], s->tile);
        return per_output <= budget;
    }
    case TECHNIQUE_LOCAL_STAGING:
        return judge_staging(s, c, text, size);
    case TECHNIQUE_REGISTER_BLOCK:
        return judge_register_block(s, c, text, size);
    case TECHNIQUE_HALO_TILE:
        return technique_judge_halo(s, c, text, size);
    case TECHNIQUE_PRIVATE_BINS:
        return technique_judge_private_bins(s, c, text, size);
    case TECHNIQUE_ONE_STORE:
        snprintf(text, size, "global stores: %.0f for %zu elements (one per element; a loop that steps by the "
                 "work-group size instead of the grid writes each element once per work-group)",
                 c->global_stores, s->dims[0]);
        return c->global_stores == 0 ? -1 : c->global_stores <= (double)s->dims[0];
    case TECHNIQUE_COALESCING: {
        double reads, writes;
        if (c->load_requests == 0 || c->store_requests == 0) {
            return -1;
        }
        reads = c->load_transactions / c->load_requests;
        writes = c->store_transactions / c->store_requests;
        snprintf(text, size, "128-byte transactions per warp request: reads %.1f, writes %.1f (the swapped mapping: "
                 "about 4.5 and 16; budget: <= %.0f each)",
                 reads, writes, COALESCED_BUDGET);
        return reads <= COALESCED_BUDGET && writes <= COALESCED_BUDGET;
    }
    default:
        snprintf(text, size, "no technique check for this lab");
        return 1;
    }
}

/* The number after "key=" in a speed test's metrics, or -1 when absent. */
static double speed_metric(const char *metrics, const char *key)
{
    char pattern[32];
    snprintf(pattern, sizeof pattern, "%s=", key);
    for (const char *p = strstr(metrics, pattern); p; p = strstr(p + 1, pattern))
        if (p == metrics || p[-1] == ';')
            return atof(p + strlen(pattern));
    return -1.0;
}

/* Whether the device's own speed contradicts what Oclgrind counted: on a GPU whose profile separates the lab's
   solution from its baseline (a threshold above 1), a kernel timed below that threshold does not show the
   technique there. A CPU device, an unmeasured speed or an informational profile decides nothing. */
static int device_contradicts(const struct grade_lab_spec *lab, int device_is_gpu,
                              const struct grade_lab_result *result, char *text, size_t size)
{
    const char *name = labs_test_name(lab, GRADE_TEST_SPEED);
    for (int t = 0; device_is_gpu && name && t < result->test_count; t++) {
        const struct grade_test *test = &result->tests[t];
        double speedup = speed_metric(test->metrics, "speedup"), threshold = speed_metric(test->metrics, "threshold");
        double high = speed_metric(test->metrics, "high"); /* within the noise of the threshold is not below it */
        if (strcmp(test->name, name) != 0 || speedup < 0 || threshold <= 1.0 || speedup >= threshold ||
            high >= threshold)
            continue;
        clk_append(text, size, "\nbut on this device the kernel runs at %.2fx the baseline, below the %.2fx that "
                   "the technique gives here: Oclgrind's counts are necessary, not sufficient", speedup, threshold);
        return 1;
    }
    return 0;
}

void technique_test(const struct grade_lab_spec *lab, const struct reference *ref, int correct, int device_is_gpu,
                    struct grade_lab_result *result)
{
    static char text[2048];
    double points = labs_test_points(lab, GRADE_TEST_TECHNIQUE);
    int passed = 0;
    if (lab->technique.kind == TECHNIQUE_NONE)
        return;
    if (!correct)
        snprintf(text, sizeof text, "not measured: the kernel must pass every correctness case first");
    else if (!ref->counted && (!ref->ran || ref->counts_lost)) {
        /* The judge's failure, not the kernel's: no points are lost for it, and the report flags the test. */
        snprintf(text, sizeof text, "not measured, and not held against the kernel: %.1900s",
                 ref->why[0] ? ref->why : "the kit's Oclgrind plugin is missing (sudo apt-get install "
                 "liboclgrind-dev, then make)");
        result_add(result, "technique", points, points, 1, text);
        if (result->test_count > 0)
            result->tests[result->test_count - 1].noted = 1;
        return;
    }
    else if (!ref->counted && ref->log->stopped_at >= 0)
        snprintf(text, sizeof text, "not measured: the reference judge %s before it reached the technique case",
                 ref->log->how);
    else if (!ref->counted)
        snprintf(text, sizeof text, "not measured: the reference judge counted nothing for the technique case "
                 "(the kit's Oclgrind plugin is missing: sudo apt-get install liboclgrind-dev, then make)");
    else if ((passed = technique_judge(lab, &ref->counts, text, sizeof text)) < 0) {
        snprintf(text, sizeof text, "not measured: the reference judge counted no global access in the technique "
                 "case (the kit's Oclgrind plugin is out of date: make)");
        passed = 0;
    } else if (!passed || device_contradicts(lab, device_is_gpu, result, text, sizeof text)) {
        passed = 0;
        clk_append(text, sizeof text, "\nsee %s for the technique this test counts", lab->perf.handout);
    }
    result_add(result, "technique", passed ? points : 0, points, passed, text);
}
