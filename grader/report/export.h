/* Machine-readable results: Gradescope's results.json, JUnit XML and GitHub Classroom's runner result (their
   writers' records: report/writers.h). */
#ifndef CLKIT_GRADER_EXPORT_H
#define CLKIT_GRADER_EXPORT_H

#include "judge/result.h"

#include <stdio.h>

/* What a results file says about the whole run. */
struct export_run {
    const struct grade_lab_result *results;
    const char *const *titles; /* each lab's title, as in the report */
    const char *const *kernels; /* each lab's kernel file, as the user names it (NULL: not known) */
    const char *const *units;   /* each lab's rate unit, "GB/s" or "GFLOP/s" (NULL: no leaderboard) */
    const int *has_baseline;    /* each lab's speed is also a speedup over a baseline */
    const char *version;        /* the grader's version */
    int count;
    double seconds;            /* the grading's wall time */
    const char *summary;       /* one paragraph for the top-level output */
};

/* Writes the run as a Gradescope results.json to out, in its documented format (score at the top, max_score per
   test, points to two decimals, whole seconds, a leaderboard of each lab's rate and
   speedup, 0 where not measured, and the version and devices in extra_data); returns 0, or -1 when memory runs
   out. */
int export_json(FILE *out, const struct export_run *run);

/* Writes the run as JUnit XML that Jenkins' schema accepts (a testsuite per lab naming its kernel file and time,
   a testcase per test; a set-up failure is an error, an informational test never a failure) to out. */
void export_junit(FILE *out, const struct export_run *run);

/* Writes the run as GitHub Classroom's runner result, base64 on one line, ready for its reporter: the tests worth
   points, with line_no where a failure names a kernel line; returns 0, or -1 when memory runs out. */
int export_classroom(FILE *out, const struct export_run *run);

#endif
