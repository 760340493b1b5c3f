/* One lab on the device: the kernel's build, its cases in the confined runner, then its timing. */
#ifndef CLKIT_GRADER_DEVICERUN_H
#define CLKIT_GRADER_DEVICERUN_H

#include "judge/lab_run.h"

/* Grades lab's kernel on the device: adds the build test, fills log with every case it ran and, unless the
   cases failed or --quick, adds the speed test. Returns 1 when the kernel built, 0 when not, 2 on a set-up
   error (in result). */
int device_test_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed, struct case_log *log,
                    struct grade_lab_result *result);

#endif
