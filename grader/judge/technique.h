/* Technique checks: what a kernel does, counted by Oclgrind on one fixed case, the same on every device. */
#ifndef CLKIT_GRADER_TECHNIQUE_H
#define CLKIT_GRADER_TECHNIQUE_H

#include "judge/counts.h"
#include "labs/spec.h"
#include "judge/result.h"

struct reference;

/* Judges counts for lab's technique; fills text with the figure next to its budget and returns 1 when it passes,
   0 when it fails, and -1 when the counts it needs were not measured. */
int technique_judge(const struct grade_lab_spec *lab, const struct technique_counts *counts, char *text, size_t size);

/* Lab 9: global loads per output within the halo tile's budget, the filter read through __constant (technique_conv.c). */
int technique_judge_halo(const struct grade_case *shape, const struct technique_counts *counts, char *text,
                         size_t size);

/* Lab 10 on case shape: global atomics at most one per bin per work-group, and local memory used (technique_hist.c). */
int technique_judge_private_bins(const struct grade_case *shape, const struct technique_counts *counts, char *text,
                                 size_t size);

/* Lab 11 on case shape: scan_blocks adds about 2 local values per element, no work-item most of them
   (technique_scan.c). */
int technique_judge_work_efficient(const struct grade_case *shape, const struct technique_counts *counts, char *text,
                                   size_t size);

/* Adds the "technique" test to result: the reference judge's counts of the lab's technique case, once the kernel
   is right (correct says so); on a GPU (device_is_gpu) whose profile separates the solution's speed from the
   baseline's, the speed test already in result must agree. */
void technique_test(const struct grade_lab_spec *lab, const struct reference *ref, int correct, int device_is_gpu,
                    struct grade_lab_result *result);

#endif
