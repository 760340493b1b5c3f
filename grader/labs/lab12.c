/* Lab 12: copy-compute overlap. The kernel is lab 1's vector add; the lesson is the host program's schedule: the
   input in chunks, each uploaded, computed and downloaded with events and wait lists on several queues (or one
   out-of-order queue), so that chunk i+1's upload and chunk i-1's download run while chunk i's kernel does. */
#include "labs/families.h"
#include "labs/technique.h"

/* The kernel's cases are lab 1's in brief: 1, a prime, one past a work-group, a large prime. */
static const struct grade_case shapes[] = {
    {.dims = {1}, .local = {64}},
    {.dims = {13}, .local = {64}},
    {.dims = {65}, .local = {64}},
    {.dims = {100003}, .local = {256}},
};
static const struct grade_shape_set shape_set = {.shapes = shapes, .count = GRADE_COUNT(shapes)};

/* The schedule: judged from the host program's sealed ledger (judge/command_trace.h) by the host test, not from Oclgrind's
   counts of a case. */
static const struct grade_technique technique = {
    .name = "overlap schedule",
    .host_schedule = 1,
    .explanation = "each chunk's upload, kernel and download ordered by events and wait lists, no wait of the host's "
                   "in the loop, so that the next chunk's upload and the last chunk's download run beside each kernel",
};

const struct grade_lab_spec lab12_spec = {
    .name = "lab12",
    .title = "overlapping transfers with compute",
    .kernel_file = "vadd.cl",
    .kernel_name = "vadd",
    .family = &grade_family_vadd,
    .shapes = &shape_set,
    /* 16 chunks of 62500 elements at the lab's size; the small size has chunks of 63 and a ragged last one. */
    .host_size = "1000000",
    .host_small = "1000",
    .host_grid_covers = 1,
    .points = {.exact = 1, .real = 1, .memory = 1, .host = 3, .technique = 4},
    .perf = {.size = GRADE_SIZE_VECTOR,
             .local = 256,
             .handout = "HANDOUT.md#lab-12-overlapping-transfers-with-compute"},
    .technique = &technique,
};
