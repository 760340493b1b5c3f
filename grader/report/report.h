/* The terminal report: a line per test, a score per lab and a total. */
#ifndef CLKIT_GRADER_REPORT_H
#define CLKIT_GRADER_REPORT_H

#include "judge/job.h" /* struct report_style */
#include "judge/result.h"

#include <stdio.h>

/* Fills style for out: colour only on a terminal and when NO_COLOR is unset. */
void report_style_for(FILE *out, int verbose, struct report_style *style);

/* Prints one lab: its tests with marks, points and reasons, and its score. */
void report_lab(const struct report_style *style, const char *title, const struct grade_lab_result *result);

/* Adds up the scored points of result into *score and *max. */
void report_score(const struct grade_lab_result *result, double *score, double *max);

/* The points of results' pending tests (speed, decided on the course's device alone). */
double report_pending(const struct grade_lab_result *results, int count);

/* Prints the total over several labs. */
void report_total(const struct report_style *style, const struct grade_lab_result *results, int count);

#endif
