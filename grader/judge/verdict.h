/* The correctness verdicts: the device's cases and the reference judge's, merged into the exact, real and
   memory-safety tests. Where the two disagree on a case, the reference judge's verdict stands. */
#ifndef CLKIT_GRADER_VERDICT_H
#define CLKIT_GRADER_VERDICT_H

#include "judge/grading.h"
#include "judge/labs.h"
#include "judge/result.h"
#include "judge/runlab.h"
#include "judge/sanitize.h"

#include <stdint.h>

/* Adds the exact, real and memory-safety tests of lab to result from the device's log and ref (ref->ran 0: no
   reference judge, and the report says which checks it could not make). */
void verdict_cases(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                   const struct case_log *device, const struct reference *ref, struct grade_lab_result *result);

/* Returns 1 when result holds the exact, real and memory-safety tests and each passed. */
int verdict_correct(const struct grade_lab_result *result);

#endif
