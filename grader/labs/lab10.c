/* Lab 10: a histogram with bins privatised in local memory, merged with one global atomic per bin per work-group. */
#include "labs/families_hist.h"
#include "labs/technique.h"

/* Uniform, skewed (the contention case) and one-value data; lengths ragged to the work-group; bins fewer and more
   than the work-items of a group, up to 4096 (16 KiB of local memory, which every device holds). The small shapes
   (n x bins x 4 within the reference judge's budget) run under Oclgrind too. */
static const struct grade_case shapes[] = {
    {.dims = {1, 0, HIST_CASE(1, CLK_HIST_SAME)}, .local = {64}, .groups = 1},
    {.dims = {13, 0, HIST_CASE(3, CLK_HIST_UNIFORM)}, .local = {64}, .groups = 1},
    {.dims = {700, 0, HIST_CASE(7, CLK_HIST_SKEWED)}, .local = {32}, .groups = 3},
    {.dims = {2000, 0, HIST_CASE(2, CLK_HIST_SAME)}, .local = {64}, .groups = 4},
    {.dims = {150, 0, HIST_CASE(80, CLK_HIST_UNIFORM)}, .local = {16}, .groups = 2},
    {.dims = {40, 0, HIST_CASE(1000, CLK_HIST_UNIFORM)}, .local = {64}, .groups = 2},
    {.dims = {100003, 0, HIST_CASE(256, CLK_HIST_UNIFORM)}, .local = {64}, .groups = 7},
    {.dims = {100003, 0, HIST_CASE(256, CLK_HIST_SKEWED)}, .local = {256}, .groups = 16},
    {.dims = {65537, 0, HIST_CASE(1000, CLK_HIST_SKEWED)}, .local = {128}, .groups = 5},
    {.dims = {(1 << 20) + 7, 0, HIST_CASE(4096, CLK_HIST_UNIFORM)}, .local = {256}, .groups = 16},
    {.dims = {1 << 20, 0, HIST_CASE(256, CLK_HIST_SAME)}, .local = {256}, .groups = 64},
    {.dims = {100, 0, HIST_CASE(300, CLK_HIST_UNIFORM)}, .local = {64}, .groups = 4},
};
static const struct grade_shape_set shape_set = {.shapes = shapes, .count = GRADE_COUNT(shapes)};

static const struct grade_technique technique = {
    .name = "private bins",
    .needs = TECHNIQUE_NEEDS_GLOBAL_LOADS,
    .judge = technique_judge_private_bins,
    /* 8 work-groups of 64 over 16384 uniform values in 64 bins, 32 a bin a group on average (so none is empty
       whatever the seed: e^-32 each): the solution merges 512 bins (0.031 per element); one global atomic per
       element is 16384. */
    .shape = {.dims = {16384, 0, HIST_CASE(64, CLK_HIST_UNIFORM)}, .local = {64}, .groups = 8},
    .explanation = "each work-group counts into its own bins in local memory and merges them with one global "
                   "atomic per bin",
};

const struct grade_lab_spec lab10_spec = {
    .name = "lab10",
    .title = "histogram with private bins",
    .kernel_file = "histogram.cl",
    .kernel_name = "histogram",
    .family = &grade_family_histogram,
    .shapes = &shape_set,
    .host_size = "1000003",
    .host_small = "1000",
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "histogram_global.cl",
             .baseline_kernel = "histogram_global",
             .baseline_family = &grade_family_histogram,
             .baseline_name = "global-atomics histogram",
             .size = GRADE_SIZE_VECTOR,
             .local = 256,
             .groups = 1024,
             .cpu_note = "on a CPU a local atomic is the same locked instruction as a global one, and two cores "
                         "contend little for a bin: privatised bins save no time here",
             .handout = "HANDOUT.md#lab-10-a-histogram-with-private-bins",
             .further = {.file = "histogram_replicated.cl",
                         .kernel = "histogram_replicated",
                         .family = &grade_family_histogram}},
    .technique = &technique,
};
