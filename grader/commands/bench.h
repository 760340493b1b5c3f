/* The benchmark report: what the solutions reach on this device, as a table, a CSV and an SVG chart. */
#ifndef CLKIT_GRADER_BENCH_H
#define CLKIT_GRADER_BENCH_H

#include "judge/result.h"

#include <stdio.h>

/* Returns the value of key in a "key=value;..." metrics string, or 0 when it is absent. */
double bench_metric(const char *metrics, const char *key);

/* Prints the Markdown table of the performance tests in results (one per lab) for device. */
void bench_table(FILE *out, const char *device, const struct grade_lab_result *results, int count);

/* Writes dir/bench-<device>.md and .csv (docs/charts.py draws the charts of the CSV); returns 0, or -1 after
   printing why. */
int bench_write(const char *dir, const char *device, const struct grade_lab_result *results, int count);

#endif
