/* Whether the device's compiler is to blame where the device and the reference judge disagree: the cases the device
   computed wrong, or the case it crashed in and those after it, run again on the device with the kernel built
   without optimisation (-cl-opt-disable). */
#ifndef CLKIT_GRADER_RECHECK_H
#define CLKIT_GRADER_RECHECK_H

#include "judge/lab_run.h"
#include "judge/reference_judge.h"

/* The most cases run again: the disagreeing small cases come first, then the device's other wrong cases. */
#define RECHECK_MAX_CASES 96

/* Returns 1 when some case ran on the device with wrong values and under the reference judge with right ones. */
int recheck_needed(const struct case_log *device, const struct reference *ref);

/* Returns 1 when the device's runner crashed in a case (a signal or a limit, not a time-out nor the device's
   memory held by another process) while the reference judge ran its sample to the end, right and clean. */
int recheck_crash_needed(const struct case_log *device, const struct reference *ref);

/* Returns 1 when the recheck cleared a crash: built without optimisation, the device ran the case it crashed in and
   every case after it that was run again, right. */
int recheck_cleared_crash(const struct case_log *device, const struct case_log *unoptimised);

/* Why the device's OpenCL implementation gave up on a kernel that the reference judge finds right, as a set-up error
   (malloc'd): its runner crashed saying so (case_log.assertion: an assertion, a binary it cannot load), and again with
   the kernel built without optimisation; NULL when it did not. No judge is believed alone, so the lab is not graded. */
char *recheck_device_gave_up(const struct grade_lab_spec *lab, const struct case_log *device,
                             const struct reference *ref, const struct case_log *unoptimised);

/* Runs again, on the device with the kernel built without optimisation, the cases device computed wrong when the two
   judges disagree (recheck_needed), or from the case it crashed in on (recheck_crash_needed), and fills unoptimised
   with the same list as device, ran[i] set for each case it ran again; leaves unoptimised->count 0 when nothing needed
   it. */
void compiler_recheck_run(struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                          const struct case_log *device, const struct reference *ref, struct case_log *unoptimised);

#endif
