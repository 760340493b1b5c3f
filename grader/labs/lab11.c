/* Lab 11: an exclusive scan in three kernels: each block scanned work-efficiently in local memory (Blelloch's
   up-sweep and down-sweep), the block sums scanned, and each block's offset added. */
#include "labs/families_scan.h"
#include "labs/technique.h"

/* n = 1, n smaller than a block, a block exactly, ragged and power-of-two lengths over many blocks, blocks of 2 (a
   work-group of one), and 2^20 elements (4096 blocks for scan_sums to scan in one work-group). Real cases draw
   32-bit values whose sums wrap modulo 2^32. The small shapes run under the reference judge too. */
static const struct grade_case shapes[] = {
    {.dims = {1}, .local = {64}},       {.dims = {5}, .local = {64}},      {.dims = {128}, .local = {64}},
    {.dims = {1000}, .local = {32}},    {.dims = {4096}, .local = {64}},   {.dims = {777}, .local = {1}},
    {.dims = {3001}, .local = {128}},   {.dims = {2049}, .local = {256}},  {.dims = {65536}, .local = {16}},
    {.dims = {100003}, .local = {256}}, {.dims = {1 << 20}, .local = {256}}, {.dims = {(1 << 20) + 3}, .local = {128}},
};
static const struct grade_shape_set shape_set = {.shapes = shapes, .count = GRADE_COUNT(shapes)};

static const struct grade_technique technique = {
    .name = "work-efficient scan",
    .needs = TECHNIQUE_NEEDS_GLOBAL_LOADS,
    .judge = technique_judge_work_efficient,
    /* 8 blocks of 512 (work-groups of 256), scan_blocks' launch: Blelloch's sweeps add 1022 times a block, 2 per
       element (3 where the block is stored with an offset added), Hillis-Steele's doubling log2(512) - 1 = 8 and
       more. */
    .shape = {.dims = {4096}, .local = {256}},
    .explanation = "each block is scanned by an up-sweep and a down-sweep over a tree in local memory, about two "
                   "additions per element",
    .kernel = "scan_blocks",
};

const struct grade_lab_spec lab11_spec = {
    .name = "lab11",
    .title = "work-efficient scan",
    .kernel_file = "scan.cl",
    .kernel_name = "scan_blocks",
    .kernel_names = {"scan_blocks", "scan_sums", "add_offsets"},
    .family = &grade_family_scan,
    .shapes = &shape_set,
    .host_size = "1000003",
    .host_small = "1000",
    .points = {.exact = 4, .real = 2, .memory = 2, .host = 2, .technique = 4},
    .perf = {.baseline_file = "scan_naive.cl",
             .baseline_kernel = "scan_naive",
             .baseline_family = &grade_family_scan_naive,
             .baseline_name = "Hillis-Steele scan",
             .size = GRADE_SIZE_VECTOR,
             .local = 256,
             .handout = "HANDOUT.md#lab-11-a-work-efficient-scan"},
    .technique = &technique,
};
