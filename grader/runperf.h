/* A lab's performance test, and the solution timings that calibrate a profile, run in the lab's child. */
#ifndef CLKIT_GRADER_RUNPERF_H
#define CLKIT_GRADER_RUNPERF_H

#include "builds.h"

/* Times the student's kernel against the lab's baseline (or alone) and reports the speed or bandwidth test to fd;
   a kernel that is not correct is not timed. */
void run_perf(int fd, const struct clk_env *env, const struct lab_job *job, const struct built *b, int correct);

#endif
