/* The correctness verdicts: the device's cases and the reference judge's, merged into the exact, real and
   memory-safety tests. A case is right only when right on the device and under the reference judge; where the
   device alone is wrong, it is right only if the device computes it right with the kernel built without
   optimisation (its compiler shown at fault: compiler_recheck.h). */
#ifndef CLKIT_GRADER_VERDICT_H
#define CLKIT_GRADER_VERDICT_H

#include "judge/job.h"
#include "labs/spec.h"
#include "judge/result.h"
#include "judge/lab_run.h"
#include "judge/reference_judge.h"

#include <stdint.h>

/* The causes the exact test names when the judges disagree (grade_test.cause). */
#define VERDICT_CAUSE_MISCOMPILED "miscompiled"     /* right without optimisation: the device's compiler */
#define VERDICT_CAUSE_DISAGREES "device-disagrees"  /* wrong on the device, built either way: the kernel */
/* The causes the kernel's source shows (rules_find_flaw), named on each failed correctness test. */
#define VERDICT_CAUSE_UNINITIALISED "uninitialised-private"
#define VERDICT_CAUSE_EARLY_RETURN "return-before-barrier"
#define VERDICT_CAUSE_WRONG_FENCE "wrong-fence"
#define VERDICT_CAUSE_OUT_OF_BOUNDS_READ COMPARE_CAUSE_OUT_OF_BOUNDS_READ /* a wrong case's own pattern */


/* Adds the exact, real and memory-safety tests of lab to result from the device's log, ref (ref->ran 0: no
   reference judge, and the report says which checks it could not make) and unoptimised (compiler_recheck_run's log;
   NULL or empty when nothing was run again). */
void verdict_cases(const struct grading *g, const struct grade_lab_spec *lab, uint64_t seed,
                   const struct case_log *device, const struct reference *ref, const struct case_log *unoptimised,
                   struct grade_lab_result *result);

/* Returns 1 when result holds the exact, real and memory-safety tests and each passed. */
int verdict_correct(const struct grade_lab_result *result);

#endif
