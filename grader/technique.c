#include "technique.h"

#include "runlab.h"
#include "sanitize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tiled loads may exceed 2K/TILE a little (edge tiles, an extra bounds load); a naive kernel needs TILE times more. */
#define TILE_MARGIN 1.25
/* With 16-wide work-groups a warp spans two rows: 2 transactions per request is the best a coalesced kernel
   does; the bad mapping costs about 16. */
#define COALESCED_BUDGET 4.0

int technique_parse(const char *log, const char *kernel, struct technique_counts *counts)
{
    char header[160];
    const char *p;
    memset(counts, 0, sizeof *counts);
    if ((p = strstr(log, "clkit-coalescing ")) != NULL)
        sscanf(p, "clkit-coalescing load_requests=%lf load_transactions=%lf store_requests=%lf store_transactions=%lf",
               &counts->load_requests, &counts->load_transactions, &counts->store_requests,
               &counts->store_transactions);
    snprintf(header, sizeof header, "Instructions executed for kernel '%s':", kernel);
    if (!(p = strstr(log, header)))
        return -1;
    for (p = strchr(p, '\n'); p && p[1] == ' ';) {
        double count = 0;
        char what[64] = "";
        const char *line = p + 1;
        if (sscanf(line, " %lf - %63[^(\n]", &count, what) == 2) {
            if (!strncmp(what, "load global", 11))
                counts->global_loads += count;
            else if (!strncmp(what, "store global", 12))
                counts->global_stores += count;
            else if (!strncmp(what, "load local", 10))
                counts->local_loads += count;
            else if (!strncmp(what, "store local", 11))
                counts->local_stores += count;
        }
        p = strchr(line, '\n');
    }
    return 0;
}

int technique_judge(const struct grade_lab_spec *lab, const struct technique_counts *c, char *text, size_t size)
{
    const struct grade_case *s = &lab->technique.shape;
    switch (lab->technique.kind) {
    case TECHNIQUE_GROUP_PARTIALS: {
        double items = (double)s->groups * s->local[0];
        snprintf(text, size, "global stores: %.0f for %zu work-groups (naive dot: %.0f, one per work-item); "
                 "local memory: %.0f stores, %.0f loads",
                 c->global_stores, s->groups, items, c->local_stores, c->local_loads);
        return c->global_stores == (double)s->groups && c->local_stores > 0 && c->local_loads > 0;
    }
    case TECHNIQUE_TILE_REUSE: {
        double outputs = (double)s->dims[0] * s->dims[1], K = (double)s->dims[2];
        double per_output = c->global_loads / outputs, budget = TILE_MARGIN * 2.0 * K / s->tile;
        snprintf(text, size, "global loads: %.2f per output element (naive: %.0f, budget: <= %.1f for %zux%zux%zu "
                 "with TILE %d)",
                 per_output, 2.0 * K, budget, s->dims[0], s->dims[1], s->dims[2], s->tile);
        return per_output <= budget;
    }
    case TECHNIQUE_LOCAL_STAGING: {
        double elements = (double)s->dims[0] * s->dims[1];
        int used = snprintf(text, size, "local memory: %.0f stores and %.0f loads for %.0f elements (naive: 0; "
                            "staged: at least one of each per element)",
                            c->local_stores, c->local_loads, elements);
        if (c->load_requests > 0 && c->store_requests > 0 && used > 0 && (size_t)used < size)
            snprintf(text + used, size - (size_t)used, "\ntransactions per request: reads %.1f, writes %.1f "
                     "(naive transpose: 2 and 16)",
                     c->load_transactions / c->load_requests, c->store_transactions / c->store_requests);
        return c->local_stores >= elements && c->local_loads >= elements;
    }
    case TECHNIQUE_COALESCING: {
        double reads, writes;
        if (c->load_requests == 0 || c->store_requests == 0) {
            snprintf(text, size, "not measured: the coalescing plugin is not built (install liboclgrind-dev, then make)");
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

void technique_test(struct grading *g, const struct grade_lab_spec *lab, struct grade_lab_result *result)
{
    static char why[8192], text[1024];
    struct technique_counts counts;
    struct grade_test *test;
    char *log;
    int passed;
    for (int t = 1; t < result->test_count && t < RUNLAB_TEST_COUNT; t++)
        if (!result->tests[t].passed) {
            result_add(result, "technique", 0, TECHNIQUE_POINTS, 0,
                       "not measured: the kernel must pass every correctness case first");
            return;
        }
    if (!sanitize_available()) {
        test = result_add(result, "technique", 0, 0, 1, "not run: Oclgrind is not installed (sudo apt-get install "
                                                        "oclgrind), and the counts come from it");
        if (test)
            test->informational = 1;
        return;
    }
    if (!(log = sanitize_exec(g, lab, "--inst-counts", RUNLAB_TECHNIQUE, -1, 2 * g->cli->timeout_s + 30, why,
                              sizeof why))) {
        result_add(result, "technique", 0, TECHNIQUE_POINTS, 0, why);
        return;
    }
    if (technique_parse(log, lab->kernel_name, &counts) != 0) {
        result_add(result, "technique", 0, TECHNIQUE_POINTS, 0,
                   "not measured: Oclgrind counted no instruction of the kernel (does it build and run?)");
        free(log);
        return;
    }
    passed = technique_judge(lab, &counts, text, sizeof text);
    if (passed < 0) {
        test = result_add(result, "technique", 0, 0, 1, text);
        if (test)
            test->informational = 1;
        free(log);
        return;
    }
    if (!passed)
        snprintf(text + strlen(text), sizeof text - strlen(text), "\nsee %s for the technique this test counts",
                 lab->perf.handout);
    result_add(result, "technique", passed ? TECHNIQUE_POINTS : 0, TECHNIQUE_POINTS, passed, text);
    free(log);
}
