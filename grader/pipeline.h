/* The pipeline: each lab of the judging configuration through the judge (device run, reference judge, verdicts,
   technique, host program), then the report and the result files. */
#ifndef CLKIT_GRADER_PIPELINE_H
#define CLKIT_GRADER_PIPELINE_H

#include "judge/job.h"
#include "report/writers.h"

/* Where a grading's result files go (each NULL for none), and the kit's version that each records. */
struct pipeline_outputs {
    const char *paths[RESULT_MAX_WRITERS]; /* indexed like result_writers */
    const char *version;
};

/* Grades every lab of g's configuration from the source folder into results, printing the report to
   g->style.out; returns 0 when every test passed, 1 when one failed, 2 on a set-up error. */
int pipeline_run(struct grading *g, struct grade_lab_result *results);

/* Writes results with each writer whose file out names; returns 0, or 2 when a file cannot be written. */
int pipeline_write_results(const struct grading *g, const struct grade_lab_result *results, double seconds,
                           const struct pipeline_outputs *out);

#endif
