/* Technique checks: what a kernel does, counted by Oclgrind on one fixed case, the same on every device. */
#ifndef CLKIT_GRADER_TECHNIQUE_H
#define CLKIT_GRADER_TECHNIQUE_H

#include "grading.h"
#include "labs.h"
#include "result.h"

/* The points of a technique test, on every device. */
#define TECHNIQUE_POINTS 2.0

/* Memory instructions of one kernel, from Oclgrind's --inst-counts. */
struct technique_counts {
    double global_loads, global_stores, local_loads, local_stores;
    /* From the coalescing plugin: warp-wide requests and the 128-byte segments they touch (0: not measured). */
    double load_requests, load_transactions, store_requests, store_transactions;
};

/* Reads the counts of kernel from an --inst-counts log; returns 0, or -1 when the kernel is not in it. */
int technique_parse(const char *log, const char *kernel, struct technique_counts *counts);

/* Judges counts for lab's technique; fills text with the figure next to its budget and returns 1 when it passes,
   0 when it fails, and -1 when the counts it needs were not measured. */
int technique_judge(const struct grade_lab_spec *lab, const struct technique_counts *counts, char *text, size_t size);

/* Adds the "technique" test to result: the lab's technique case under Oclgrind, judged by its counts. */
void technique_test(struct grading *g, const struct grade_lab_spec *lab, struct grade_lab_result *result);

#endif
