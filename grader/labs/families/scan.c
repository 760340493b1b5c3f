/* The scan families (lab 11): uint values in, their exclusive prefix sums modulo 2^32 out, compared exactly. */
#include "labs/families_scan.h"

#include "scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Buffers of the lab's launch, in the order of the checks: the result last. */
enum { SCAN_IN, SCAN_BLOCK_SUMS, SCAN_BLOCK_SCANS, SCAN_SUMS, SCAN_OUT, SCAN_BUFFERS };
enum { KERNEL_BLOCKS, KERNEL_SUMS, KERNEL_OFFSETS };

size_t scan_groups(const struct grade_case *c)
{
    size_t block = 2 * c->local[0];
    return c->dims[0] > block ? (c->dims[0] + block - 1) / block : 1;
}

/* Exact cases (and the timing case, which has no kind of its own) draw small values; real cases 32-bit words. */
static void fill_scan(const struct grade_launch *launch, int i, float *values)
{
    clk_scan_fill((uint32_t *)(void *)values, launch->counts[i], launch->input_seed, (unsigned)i,
                  launch->input_exact);
}

/* The references of the intermediates: each block's total and its own exclusive scan (what scan_blocks writes),
   the totals' exclusive scan (what scan_sums leaves), and the whole exclusive scan (the result). */
static int make_references(struct grade_launch *launch, size_t n, size_t block, size_t groups)
{
    const uint32_t *in = (const uint32_t *)(const void *)launch->host[SCAN_IN];
    uint32_t *totals = calloc(groups, sizeof *totals);
    launch->checks[SCAN_BLOCK_SUMS] = calloc(groups, sizeof(double));
    launch->checks[SCAN_BLOCK_SCANS] = calloc(n, sizeof(double));
    launch->checks[SCAN_SUMS] = calloc(groups, sizeof(double));
    launch->expected = calloc(n, sizeof(double));
    launch->bound = calloc(n, sizeof(double)); /* uint sums are exact: a zero bound everywhere */
    if (!totals || !launch->checks[SCAN_BLOCK_SUMS] || !launch->checks[SCAN_BLOCK_SCANS] ||
        !launch->checks[SCAN_SUMS] || !launch->expected || !launch->bound)
        return free(totals), -1;
    for (size_t g = 0; g < groups; g++) {
        size_t start = g * block, count = start + block < n ? block : n - start;
        clk_scan_exclusive(in + start, count, launch->checks[SCAN_BLOCK_SCANS] + start);
        for (size_t i = start; i < start + count; i++)
            totals[g] += in[i];
        launch->checks[SCAN_BLOCK_SUMS][g] = totals[g];
    }
    clk_scan_exclusive(totals, groups, launch->checks[SCAN_SUMS]);
    clk_scan_exclusive(in, n, launch->expected);
    free(totals);
    return 0;
}

/* scan_blocks, two snapshots of what it wrote, scan_sums (one work-group), add_offsets. */
static void add_steps(struct grade_launch *launch, size_t n, size_t local, size_t groups)
{
    size_t temp = 2 * 2 * local * sizeof(uint32_t); /* room for a padded or double-buffered block */
    int count = (int)n, group_count = (int)groups;
    labs_add_step(launch, KERNEL_BLOCKS, (const int[]){SCAN_IN, SCAN_OUT, SCAN_SUMS, -1}, temp, &count, 1,
                  groups * local, local);
    labs_add_snapshot(launch, SCAN_SUMS, SCAN_BLOCK_SUMS);
    labs_add_snapshot(launch, SCAN_OUT, SCAN_BLOCK_SCANS);
    labs_add_step(launch, KERNEL_SUMS, (const int[]){SCAN_SUMS, -1}, temp, &group_count, 1, local, local);
    labs_add_step(launch, KERNEL_OFFSETS, (const int[]){SCAN_OUT, SCAN_SUMS, -1}, 0, &count, 1, groups * local,
                  local);
}

static int scan_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t n = c->dims[0], local = c->local[0], groups = scan_groups(c);
    static const char *const writers[SCAN_BUFFERS] = {
        [SCAN_BLOCK_SUMS] = "scan_blocks", [SCAN_BLOCK_SCANS] = "scan_blocks", [SCAN_SUMS] = "scan_sums",
        [SCAN_OUT] = "add_offsets",
    };
    launch->fill = fill_scan;
    if (labs_add_typed_buffer(launch, "in", n, GRADE_INPUT, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "sums after scan_blocks", groups, GRADE_SCRATCH, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "out after scan_blocks", n, GRADE_SCRATCH, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "sums", groups, GRADE_SCRATCH, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "out", n, GRADE_OUTPUT, COMPARE_UINT, c, seed))
        return -1;
    memcpy(launch->writer, writers, sizeof writers);
    launch->shape.type = COMPARE_UINT;
    launch->shape.count = n;
    launch->shape.block = 2 * local;
    launch->work_dims = 1;
    launch->local[0] = local;
    launch->global[0] = groups * local;
    add_steps(launch, n, local, groups);
    return c->no_reference ? 0 : make_references(launch, n, 2 * local, groups);
}

static void scan_describe(const struct grade_case *c, char *text, size_t size)
{
    size_t groups = scan_groups(c);
    snprintf(text, size, "%s n=%zu, local %zu (blocks of %zu), %zu block%s, %s",
             c->data == GRADE_EXACT ? "exact" : "real", c->dims[0], c->local[0], 2 * c->local[0], groups, groups == 1 ? "" : "s",
             c->data == GRADE_EXACT ? "values below 16" : "32-bit values whose sums wrap modulo 2^32");
}

/* What the lab's passes move at best: each element read and written twice (scan_blocks, add_offsets). */
static double scan_bytes(const struct grade_case *c)
{
    return 4.0 * sizeof(uint32_t) * (double)c->dims[0];
}

static size_t scan_length(const struct grade_case *c)
{
    return c->dims[0];
}

/* The timed run's check draws elements of one case: its prefix sums are made once, from single inputs. */
static void scan_spot(const struct grade_case *c, uint64_t seed, size_t index, double *expected, double *bound)
{
    static struct {
        uint64_t seed;
        size_t n;
        int small;
        uint32_t *sums;
    } last;
    int small = c->data == GRADE_EXACT;
    *bound = 0.0;
    if (!last.sums || last.seed != seed || last.n != c->dims[0] || last.small != small) {
        free(last.sums);
        last.sums = malloc((c->dims[0] ? c->dims[0] : 1) * sizeof *last.sums);
        last.seed = seed, last.n = c->dims[0], last.small = small;
        uint32_t running = 0;
        for (size_t i = 0; last.sums && i < c->dims[0]; i++) { /* input 0 as fill_scan draws it */
            last.sums[i] = running;
            running += clk_scan_value(seed, 0, i, small);
        }
    }
    *expected = last.sums && index < c->dims[0] ? (double)last.sums[index] : -1.0;
}

const struct grade_family grade_family_scan = {
    .prepare = scan_prepare,
    .describe = scan_describe,
    .problem = CLK_PROBLEM_SCAN,
    .probe_file = "probe_scan.cl",
    .dim_count = 1,
    .work = scan_bytes,
    .result_type = COMPARE_UINT,
    .result_length = scan_length,
    .spot = scan_spot,
};

/* The baseline's launches: a shift into ping (offset 0), then offsets 1, 2, 4, ... each reading the last buffer
   written, the last one writing out. Buffers: in, ping, pong, out. */
static int naive_prepare(const struct grade_case *c, uint64_t seed, struct grade_launch *launch)
{
    size_t n = c->dims[0], local = c->local[0], global = (n + local - 1) / local * local;
    int passes = 0, from = 0;
    launch->fill = fill_scan;
    if (labs_add_typed_buffer(launch, "in", n, GRADE_INPUT, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "ping", n, GRADE_SCRATCH, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "pong", n, GRADE_SCRATCH, COMPARE_UINT, c, seed) ||
        labs_add_typed_buffer(launch, "out", n, GRADE_OUTPUT, COMPARE_UINT, c, seed))
        return -1;
    for (size_t offset = 1; offset < n; offset *= 2)
        passes++;
    launch->shape.count = n;
    launch->work_dims = 1;
    launch->local[0] = local;
    launch->global[0] = global;
    for (int p = 0; p <= passes; p++) {
        /* The last pass writes out; the others alternate so that it reads the one before. */
        int to = p == passes ? 3 : (passes - p) % 2 ? 1 : 2, ints[2] = {p ? 1 << (p - 1) : 0, (int)n};
        labs_add_step(launch, 0, (const int[]){from, to, -1}, 0, ints, 2, global, local);
        from = to;
    }
    if (c->no_reference)
        return 0;
    launch->expected = calloc(n ? n : 1, sizeof(double));
    launch->bound = calloc(n ? n : 1, sizeof(double));
    if (!launch->expected || !launch->bound)
        return -1;
    clk_scan_exclusive((const uint32_t *)(const void *)launch->host[0], n, launch->expected);
    return 0;
}

const struct grade_family grade_family_scan_naive = {
    .prepare = naive_prepare,
    .describe = scan_describe,
    .problem = CLK_PROBLEM_SCAN,
    .dim_count = 1,
    .work = scan_bytes,
    .result_type = COMPARE_UINT,
    .result_length = scan_length,
    .spot = scan_spot,
};
