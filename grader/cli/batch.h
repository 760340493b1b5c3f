/* Batch grading for an instructor: many submissions, one at a time or one per device side by side, a results file
   each and a CSV of scores. */
#ifndef CLKIT_GRADER_BATCH_H
#define CLKIT_GRADER_BATCH_H

#include "cli/cli.h"
#include "judge/grading.h"

/* Returns 1 when the command line names several submissions, or one folder that holds student folders. */
int batch_wanted(const struct cli *cli);

/* Grades every submission (--jobs/--devices: one per device side by side), writing STUDENT.txt, STUDENT.json and
   scores.csv in the class's order; returns 0, or 2 on a set-up error. */
int batch_run(struct grading *g);

#endif
