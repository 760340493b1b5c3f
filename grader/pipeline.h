/* The pipeline: each lab of the command line through the judge (device run, reference judge, verdicts,
   technique, host program), then the report and the result files. */
#ifndef CLKIT_GRADER_PIPELINE_H
#define CLKIT_GRADER_PIPELINE_H

#include "judge/grading.h"

/* Grades every lab of the command line from the source folder into results, printing the report to
   g->style.out; returns 0 when every test passed, 1 when one failed, 2 on a set-up error. */
int pipeline_run(struct grading *g, struct grade_lab_result *results);

/* Writes results as Gradescope JSON to json, JUnit XML to junit and Classroom's runner result to classroom (each
   may be NULL); returns 0, or 2 when a file cannot be written. */
int pipeline_write_results(const struct grading *g, const struct grade_lab_result *results, double seconds,
                           const char *json, const char *junit, const char *classroom);

#endif
