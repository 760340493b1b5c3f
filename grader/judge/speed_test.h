/* A lab's performance test, judged: the runner times the kernel on the profile's timing case, the judge sets
   the times against the device's profile. */
#ifndef CLKIT_GRADER_RUNPERF_H
#define CLKIT_GRADER_RUNPERF_H

#include "judge/lab_run.h"

/* Loads the profile of r's device once; returns 0, or -1 with why. */
int runperf_profile(struct lab_run *r, char *why, size_t size);

/* Adds the speed or bandwidth test to result: worth the course's points for the lab, scored on the course's device
   and pending elsewhere (or where a busy device leaves it short of the threshold), else reported and worth none; a
   kernel is not timed when not_timed says why (NULL: time it). The timed run's result is checked on a sample, into log's timed fields:
   a real case. */
void runperf_test(struct lab_run *r, const char *not_timed, struct case_log *log, struct grade_lab_result *result);

/* The seconds this process has spent in runperf_test so far (profiles, baselines and timings). */
double runperf_seconds(void);

/* Times r's kernel runs times for calibration: each run's speedup over the baseline, or its fraction of the
   device's peak, in values; returns 0, or -1 with why. */
int runperf_calibrate(struct lab_run *r, int runs, double *values, char *why, size_t size);

#endif
